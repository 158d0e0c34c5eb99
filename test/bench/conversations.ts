import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Session } from "@sealwork/contracts";
import { type Key, type KeyPair, generateSymmetricKey, sealConversationKey, sealMessage } from "@sealwork/crypto";
import type { Page } from "playwright-core";
import { signIn } from "../e2e/helpers";
import { launchBrowser } from "../support/browser";
import { ROOT, type SpawnedRuntime, spawnRuntime } from "../support/runtime";
import { bareTransactionLatency } from "./bare-transactions";
import { browserBundle } from "./browser-bundle";
import { cpuSince, ownProcesses, processCpu, splitCores, unsplitCores } from "./process-cpu";

/**
 * Conversations under load and in the browser (issue 4), figures not assertions, in
 * bench/results-conversations.json:
 * - upload: a BENCH_UPLOAD_MB (default 256) MB file encrypted and uploaded to the local bucket by
 *   the SPA's own upload code (web/…/attachments/transfer.ts, bundled with esbuild) in Chromium,
 *   as a ratio to plain AES-256-GCM of the same bytes in the same page, with the page's peak JS
 *   heap while uploading;
 * - open: a conversation of BENCH_OPEN_MESSAGES (default 2000) messages opened in the SPA (fetch,
 *   decrypt, render the newest page) and paged back to its start by scrolling, against the time
 *   the SPA's own query function (web/…/load-conversation.ts, bundled with esbuild) takes to fetch
 *   and decrypt the same pages in a page of the same browser without rendering anything, with the
 *   CPU time each side cost the browser, the runtime and DynamoDB Local; at each round trip of
 *   BENCH_LATENCY_MS (Chromium's network emulation on both sides);
 * - append and poll latency at BENCH_CLIENTS (default 50) concurrent clients on one conversation.
 * BENCH_PARTS names the parts to run (default all three: "upload,open,append").
 */
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 256);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const ADMIN = { email: "bench-convo@example.ch", password: "bench-password-1" };

async function api<T>(runtime: SpawnedRuntime, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(runtime.url + path, {
    method,
    headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

async function sealedFor(key: Key, conversationId: number, pair?: KeyPair): Promise<string> {
  pair ??= (await crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"])) as KeyPair;
  return sealConversationKey(key, pair.publicKey, { conversationId });
}

const reserve = async (runtime: SpawnedRuntime, admin: Session) => (await api<{ id: number }>(runtime, "POST", "/api/conversations/reserve", admin.api_token)).id;

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}

function latency(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: samples.length, p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95), p99_ms: percentile(sorted, 99), max_ms: percentile(sorted, 100) };
}

/** Users through the domain layer (the runtime's table), signed in over HTTP. */
async function sessions(runtime: SpawnedRuntime, count: number): Promise<Session[]> {
  Object.assign(process.env, runtime.env);
  const { User } = await import("@sealwork/core");
  const made: Session[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-${Date.now()}-${i}@example.ch`;
    const user = await User.create({ name: `Bench ${i}`, email, password: ADMIN.password });
    made.push(await api<Session>(runtime, "POST", `/api/users/${user.id}/login`, undefined, { password: ADMIN.password }));
  }
  return made;
}

/** An administrator (who needs no shared group) starts a conversation with everyone. */
async function conversationWith(runtime: SpawnedRuntime, admin: Session, others: Session[]): Promise<{ id: number; key: Key }> {
  const key = await generateSymmetricKey();
  const everyone = [admin, ...others];
  const reserved = await reserve(runtime, admin);
  const sealed_keys = await Promise.all(everyone.map(async (s) => ({ user_id: s.id, sealed: await sealedFor(key, reserved) })));
  const recipient = others.length === 1 ? others[0]!.id : others.map((o) => o.id);
  const { id } = await api<{ id: number }>(runtime, "POST", "/api/conversations", admin.api_token, { id: reserved, recipient, sealed_keys });
  return { id, key };
}

async function appendPollLatency(runtime: SpawnedRuntime, admin: Session, clients: Session[]) {
  const { id, key } = await conversationWith(runtime, admin, clients);
  const appends: number[] = [];
  const polls: number[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let round = 0; round < ROUNDS; round++) {
        const localid = `b${client.id}-${round}`;
        const payload = await sealMessage(key, { conversationId: id, senderId: client.id, localid }, { text: `message ${round}` });
        let t = performance.now();
        const { mote } = await api<{ mote: { id: number } }>(runtime, "POST", `/api/conversations/${id}/append`, client.api_token, { localid, payload });
        appends.push(performance.now() - t);
        t = performance.now();
        await api(runtime, "GET", `/api/conversations/${id}/poll?largest=${mote.id}`, client.api_token);
        polls.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // The same number of bare transactions of the same items, at the same concurrency, in this run.
  const bare = latency(await bareTransactionLatency(runtime.env, id + 1_000_000, clients.length, ROUNDS));
  const append = latency(appends);
  return {
    clients: clients.length,
    rounds: ROUNDS,
    seconds: Math.round(seconds * 10) / 10,
    appends_per_s: Math.round((appends.length / seconds) * 10) / 10,
    append,
    poll: latency(polls),
    bare_transaction: bare,
    append_p99_to_bare_p99: Math.round((append.p99_ms / bare.p99_ms) * 100) / 100,
  };
}

const UPLOAD_ENTRY = `
import { conversationSpace, uploadFile } from "./web/src/features/conversations/attachments/transfer";
import { setSession } from "./web/src/lib/session";
const MB = 1024 * 1024;
globalThis.bench = {
  makeFile(mb) {
    const parts = [];
    const block = new Uint8Array(MB);
    for (let i = 0; i < mb; i++) {
      for (let j = 0; j < MB; j += 4096) block[j] = (i + j) & 255;
      parts.push(new Blob([block]));
    }
    globalThis.benchFile = new File(parts, "bench.bin", { type: "application/octet-stream" });
    return globalThis.benchFile.size;
  },
  async plain() {
    const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
    const file = globalThis.benchFile;
    const started = performance.now();
    for (let at = 0, i = 0; at < file.size; at += MB, i++) {
      const iv = new Uint8Array(12);
      new DataView(iv.buffer).setUint32(8, i);
      await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, await file.slice(at, at + MB).arrayBuffer());
    }
    return performance.now() - started;
  },
  async upload(session, conversationId) {
    setSession(session);
    const started = performance.now();
    const ref = await uploadFile(conversationSpace(conversationId), globalThis.benchFile);
    return { ms: performance.now() - started, id: ref.id };
  },
};
`;

/** Resident memory of this bench's Chromium renderer processes (the page's JS heap and its array buffers). */
function rendererRssBytes(): number {
  let total = 0;
  for (const p of ownProcesses()) if (p.kind === "renderer") total += Number(/VmRSS:\s+([0-9]+) kB/.exec(p.status)?.[1] ?? 0) * 1024;
  return total;
}

/** Peak JS heap (CDP) and peak renderer RSS while `run` runs, sampled every 100 ms. */
async function peakMemory(page: Page, run: () => Promise<unknown>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const heap = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
  await cdp.send("HeapProfiler.collectGarbage");
  const before = { heap: await heap(), rss: rendererRssBytes() };
  const peak = { ...before };
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak.heap = Math.max(peak.heap, await heap());
      peak.rss = Math.max(peak.rss, rendererRssBytes());
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    await run();
  } finally {
    running = false;
    await sampler;
  }
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return { js_heap_before_mb: mb(before.heap), js_heap_peak_mb: mb(peak.heap), renderer_rss_before_mb: mb(before.rss), renderer_rss_peak_mb: mb(peak.rss) };
}

async function uploadThroughput(runtime: SpawnedRuntime, admin: Session, other: Session) {
  const { id } = await conversationWith(runtime, admin, [other]);
  const script = await browserBundle(UPLOAD_ENTRY);
  const browser = await launchBrowser();
  try {
    // The bench injects its bundle as an inline script, which the SPA's CSP rightly refuses.
    const page = await browser.newPage({ bypassCSP: true });
    // A page the runtime serves (the SPA's login), so the bundle's API calls go to the runtime and
    // the browser treats the bucket as being in the same (loopback) address space.
    await page.goto(`${runtime.url}/login`);
    await page.addScriptTag({ content: script });
    const bytes = (await page.evaluate(`bench.makeFile(${UPLOAD_MB})`)) as number;
    await page.evaluate("bench.plain()"); // warm-up
    const plainMs = (await page.evaluate("bench.plain()")) as number;
    let uploadMs = 0;
    const memory = await peakMemory(page, async () => {
      uploadMs = ((await page.evaluate(`bench.upload(${JSON.stringify(admin)}, ${id})`)) as { ms: number }).ms;
    });
    const mbps = (ms: number) => Math.round((bytes / 1024 / 1024 / (ms / 1000)) * 10) / 10;
    return {
      browser: `Chromium ${browser.version()} (headless)`,
      file_mb: UPLOAD_MB,
      plain_aes_gcm_ms: Math.round(plainMs),
      plain_mb_per_s: mbps(plainMs),
      encrypt_and_upload_ms: Math.round(uploadMs),
      upload_mb_per_s: mbps(uploadMs),
      ratio_to_plain: Math.round((uploadMs / plainMs) * 100) / 100,
      memory,
    };
  } finally {
    await browser.close();
  }
}

const OPEN_MESSAGES = Number(process.env.BENCH_OPEN_MESSAGES ?? 2000);
/**
 * BENCH_LATENCY_MS: round trips the open is measured at, comma separated (default "0"). Above 0,
 * Chromium delays every request of both sides (the SPA's page and the bare one) by that many
 * milliseconds (network emulation), as a user's link to the API would, instead of the loopback's
 * under-a-millisecond.
 */
const LATENCIES = (process.env.BENCH_LATENCY_MS ?? "0").split(",").map(Number);
/** BENCH_PARTS: which parts run, comma separated (default "upload,open,append"). */
const PARTS = new Set((process.env.BENCH_PARTS ?? "upload,open,append").split(","));

/** Every request `page` makes waits `ms` more before its answer starts (none for 0). */
async function withLatency(page: Page, ms: number): Promise<void> {
  if (!ms) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: ms, downloadThroughput: -1, uploadThroughput: -1 });
}

/**
 * The conversation screen's own infinite query (query function and paging), run to the last page
 * by a QueryClient of its own: fetching and decrypting every page, rendering nothing.
 */
const PAGES_ENTRY = `
import { QueryClient } from "@tanstack/react-query";
import { conversationMessagesQuery } from "./web/src/features/conversations/load-conversation";
import { setSession } from "./web/src/lib/session";
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
globalThis.bench = {
  async pages(session, conversationId, privatePkcs8, publicRaw, pages) {
    setSession(session);
    const encrypt = {
      privateKey: await crypto.subtle.importKey("pkcs8", bytes(privatePkcs8), { name: "X25519" }, false, ["deriveBits"]),
      publicKey: await crypto.subtle.importKey("raw", bytes(publicRaw), { name: "X25519" }, true, []),
    };
    const holder = { uid: session.id, keyId: 0, keys: { encrypt }, publicKeys: {} };
    const client = new QueryClient();
    const started = performance.now();
    const data = await client.fetchInfiniteQuery({ ...conversationMessagesQuery(conversationId, holder), pages });
    return { ms: performance.now() - started, pages: data.pages.length, messages: data.pages.reduce((n, p) => n + p.messages.length, 0) };
  },
};
`;

/**
 * From the Resource Timing of the page's page-chain worker (which fetches the older pages; the
 * page's own where it has none), the requests for older pages of conversation `id`: the time per
 * page from the first request to the last answer, the median request (sent to answered) and the
 * median gap between an answer and the next request (the decrypting, and whatever else the page's
 * main thread was doing then).
 */
const olderPagesTiming = (id: number) => `(() => {
  const pages = performance.getEntriesByType("resource").filter((e) => e.name.includes("/api/conversations/${id}?before=")).sort((a, b) => a.startTime - b.startTime);
  const median = (xs) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0);
  return {
    pages: pages.length,
    per_page_ms: pages.length ? Math.round(((pages.at(-1).responseEnd - pages[0].startTime) / pages.length) * 10) / 10 : 0,
    request_median_ms: median(pages.map((e) => e.responseEnd - e.startTime)),
    gap_median_ms: median(pages.slice(1).map((e, i) => e.startTime - pages[i].responseEnd)),
    // On the clock all of this machine's pages share (their time origins differ).
    first_sent_at: pages.length ? performance.timeOrigin + pages[0].startTime : 0,
    last_answered_at: pages.length ? performance.timeOrigin + pages.at(-1).responseEnd : 0,
  };
})()`;

interface PagesTiming {
  pages: number;
  per_page_ms: number;
  request_median_ms: number;
  gap_median_ms: number;
  first_sent_at: number;
  last_answered_at: number;
}

/** Where a page's older pages are fetched: its page-chain worker (the only worker of these pages), else the page itself. */
const chainScope = (page: Page): Pick<Page, "evaluate"> => page.workers()[0] ?? page;

/** The conversation key sealed for a user's registered key (they signed in in the browser). */
async function sealedForUser(runtime: SpawnedRuntime, token: string, uid: number, key: Key, conversationId: number): Promise<string> {
  const brief = await api<{ id: number }>(runtime, "GET", `/api/keypairs?fetch_only=1&uid=${uid}`, token);
  const record = await api<{ encrypt_public: string }>(runtime, "GET", `/api/keypairs/${brief.id}`, token);
  return sealConversationKey(key, record.encrypt_public, { conversationId });
}

/**
 * Opens a conversation of OPEN_MESSAGES messages in the SPA: from a client-side navigation to
 * the newest message on screen (fetch, decrypt, render the newest page), then scrolling up until
 * '(no more messages)' with every message rendered.
 */
async function openLongConversation(runtime: SpawnedRuntime, admin: Session, other: Session, latencyMs: number) {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: runtime.url, viewport: { width: 1280, height: 800 }, locale: "en-GB" });
    context.setDefaultTimeout(120_000);
    const page = await context.newPage();
    const split = splitCores();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();

    const key = await generateSymmetricKey();
    const reserved = await reserve(runtime, admin);
    const otherPair = (await crypto.subtle.generateKey({ name: "X25519" }, true, ["deriveBits"])) as KeyPair;
    const sealed_keys = [
      { user_id: admin.id, sealed: await sealedForUser(runtime, admin.api_token, admin.id, key, reserved) },
      { user_id: other.id, sealed: await sealedFor(key, reserved, otherPair) },
    ];
    const { id } = await api<{ id: number }>(runtime, "POST", "/api/conversations", admin.api_token, { id: reserved, recipient: other.id, sealed_keys });
    const seeded = performance.now();
    const senders = [admin, other];
    // Appended 20 at a time, so ids do not follow the texts' numbers: the screen is waited for by
    // id (the newest message is the one in view when it opens, the oldest the one at the top).
    const ids: number[] = [];
    for (let start = 1; start <= OPEN_MESSAGES; start += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, OPEN_MESSAGES - start + 1) }, async (_, i) => {
          const n = start + i;
          const from = senders[n % 2]!;
          const localid = `open-${n}`;
          const text = `message ${n}: ${"lorem ipsum dolor sit amet ".repeat(3)}`;
          const payload = await sealMessage(key, { conversationId: id, senderId: from.id, localid }, { text });
          ids.push((await api<{ mote: { id: number } }>(runtime, "POST", `/api/conversations/${id}/append`, from.api_token, { localid, payload })).mote.id);
        }),
      );
    }
    const seedSeconds = (performance.now() - seeded) / 1000;

    // The same pages fetched and decrypted by the screen's query function, rendering nothing, in a
    // page of the same browser signed in as the other participant (whose key the bench holds), in
    // a context of its own (a session stored in the same context would sign the SPA out). Once
    // before the SPA opens the conversation, so the server has read these pages as often when each
    // side is timed, and once after, which is the figure compared.
    const pagesCount = Math.ceil(OPEN_MESSAGES / 50);
    const bare = await (await browser.newContext({ baseURL: runtime.url, bypassCSP: true })).newPage();
    await withLatency(bare, latencyMs);
    await withLatency(page, latencyMs);
    await bare.goto("/login");
    await bare.addScriptTag({ content: await browserBundle(PAGES_ENTRY) });
    const b64 = (bytes: ArrayBuffer) => Buffer.from(bytes).toString("base64");
    const privatePkcs8 = b64(await crypto.subtle.exportKey("pkcs8", otherPair.privateKey));
    const publicRaw = b64(await crypto.subtle.exportKey("raw", otherPair.publicKey));
    const fetchAndDecrypt = async () =>
      (await bare.evaluate(`bench.pages(${JSON.stringify(other)}, ${id}, "${privatePkcs8}", "${publicRaw}", ${pagesCount})`)) as { ms: number; pages: number; messages: number };
    const firstFetch = await fetchAndDecrypt();
    // Room for every request of the screen's open and scroll back in the SPA's Resource Timing (250 by default).
    await page.evaluate("performance.setResourceTimingBufferSize(10000)");

    const log = page.getByRole("log", { name: "Messages" });
    // The list is virtualised: it holds every message loaded (data-messages) and draws those in view.
    const held = async () => Number(await log.getAttribute("data-messages"));
    const cpuBefore = processCpu();
    const started = performance.now();
    // A client-side navigation (as a click in the menu): the keys stay unlocked, no page load.
    await page.evaluate(`performance.mark("open"); history.pushState({}, "", "/conversation/${id}"); dispatchEvent(new PopStateEvent("popstate"));`);
    await log.locator(`[data-message="${Math.max(...ids)}"]`).waitFor();
    const openMs = performance.now() - started;
    // BENCH_OPEN_TRACE=1: what the open asked for, when (ms after the click), and how long each took.
    if (process.env.BENCH_OPEN_TRACE) {
      console.error(await page.evaluate(`(() => {
        const at = performance.getEntriesByName("open")[0].startTime;
        return performance.getEntriesByType("resource").filter((e) => e.startTime >= at).map((e) => Math.round(e.startTime - at) + "+" + Math.round(e.duration) + " " + e.name.replace(location.origin, "")).join("\\n");
      })()`));
    }
    const firstPage = await held();
    // BENCH_PROFILE=1: a CPU profile of the scroll back, its heaviest functions printed (where the time goes).
    const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.start");
    }
    // Scrolled to the top again as soon as each older page is in, until '(no more messages)': in
    // the page, so the figure is the SPA's and not the test driver's round trips.
    const scroll = (await page.evaluate(`(async () => {
      const from = performance.timeOrigin + performance.now();
      const el = document.querySelector('[role="log"]');
      const held = () => Number(el.dataset.messages);
      const done = () => el.firstElementChild.textContent.includes("(no more messages)");
      const times = [];
      while (!done()) {
        const before = held();
        const at = performance.now();
        // As a user keeps scrolling up: back to the top on every frame until the older page is in.
        await new Promise((resolve) => {
          const tick = () => {
            if (held() > before || done()) return resolve();
            if (el.scrollTop > 0) el.scrollTo(0, 0);
            requestAnimationFrame(tick);
          };
          tick();
        });
        times.push(performance.now() - at);
      }
      return { times, from, to: performance.timeOrigin + performance.now() };
    })()`)) as { times: number[]; from: number; to: number };
    const perPage = scroll.times;
    const allMs = performance.now() - started;
    const scrolledMs = perPage.reduce((sum, ms) => sum + ms, 0);
    const spaCpu = cpuSince(cpuBefore);
    if (cdp) printProfile((await cdp.send("Profiler.stop")).profile);
    const drawn = await log.locator("[data-message-text]").count();
    const heldAtEnd = await held();
    await log.evaluate((el) => el.scrollTo(0, 0));
    await log.locator(`[data-message="${Math.min(...ids)}"]`).waitFor();

    const bareBefore = processCpu();
    const { first_sent_at: spaFirstSent, last_answered_at: spaLastAnswered, ...spaRequests } = (await chainScope(page).evaluate(olderPagesTiming(id))) as PagesTiming;
    await chainScope(bare).evaluate("performance.clearResourceTimings()");
    const fetched = await fetchAndDecrypt();
    const { first_sent_at: _first, last_answered_at: _last, ...bareRequests } = (await chainScope(bare).evaluate(olderPagesTiming(id))) as PagesTiming;
    const bareCpu = cpuSince(bareBefore);
    return {
      split_cores: split,
      latency_ms: latencyMs,
      messages: OPEN_MESSAGES,
      seed_appends_per_s: Math.round((OPEN_MESSAGES / seedSeconds) * 10) / 10,
      open_newest_page_ms: Math.round(openMs),
      first_page_messages: firstPage,
      all_pages_ms: Math.round(allMs),
      scroll_back_ms: Math.round(allMs - openMs),
      scroll_back_page_ms: { median: Math.round([...perPage].sort((a, b) => a - b)[Math.floor(perPage.length / 2)] ?? 0), max: Math.round(Math.max(0, ...perPage)) },
      held_messages: heldAtEnd,
      drawn_messages: drawn,
      fetch_decrypt_pages: fetched.pages,
      fetch_decrypt_messages: fetched.messages,
      fetch_decrypt_first_ms: Math.round(firstFetch.ms),
      fetch_decrypt_ms: Math.round(fetched.ms),
      all_pages_to_fetch_decrypt: Math.round((allMs / fetched.ms) * 100) / 100,
      // The scroll back as the page timed it (the sum of its waits for each older page, without
      // the test driver's round trips), against the bare side's time for as many pages.
      scroll_back_in_page_ms: Math.round(scrolledMs),
      scroll_back_to_fetch_decrypt: Math.round((scrolledMs / ((fetched.ms * (fetched.pages - 1)) / fetched.pages)) * 100) / 100,
      // CPU time of each kind of process: the SPA's open and scroll back, and the second fetch and decrypt.
      all_pages_cpu_ms: spaCpu,
      fetch_decrypt_cpu_ms: bareCpu,
      // The older pages' requests on each side (the SPA's fetched ahead of its list).
      all_pages_requests: spaRequests,
      // The scroll back's time outside the SPA's chain of older pages: from the first scroll to the
      // first request, and from the last answer to '(no more messages)' on screen.
      scroll_back_outside_chain_ms: { before_first_request: Math.round(spaFirstSent - scroll.from), after_last_answer: Math.round(scroll.to - spaLastAnswered) },
      fetch_decrypt_requests: bareRequests,
    };
  } finally {
    await browser.close();
    unsplitCores();
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function (ms) and the share of samples that were idle, from a CDP CPU profile. */
function printProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.error(top.map(([name, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${name}`).join("\n"));
}

async function opens(runtime: SpawnedRuntime, admin: Session, other: Session) {
  const runs = [];
  for (const ms of LATENCIES) runs.push(await openLongConversation(runtime, admin, other, ms));
  return { open: runs[0], ...(runs.length > 1 ? { open_at_latencies: runs } : {}) };
}

export async function runConversationsBench(): Promise<void> {
  const runtime = await spawnRuntime({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, POWERTOOLS_LOG_LEVEL: "ERROR" } });
  try {
    const { id: adminId } = await api<{ id: number }>(runtime, "GET", `/api/users?lookup=${encodeURIComponent(ADMIN.email)}`);
    const admin = await api<Session>(runtime, "POST", `/api/users/${adminId}/login`, undefined, { password: ADMIN.password });
    const clients = await sessions(runtime, CLIENTS);
    const result = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      upload: PARTS.has("upload") ? await uploadThroughput(runtime, admin, clients[0]!) : null,
      // One open per round trip in LATENCIES; `open` is the first of them.
      ...(PARTS.has("open") ? await opens(runtime, admin, clients[0]!) : {}),
      append_poll: PARTS.has("append") ? await appendPollLatency(runtime, admin, clients) : null,
    };
    console.log(JSON.stringify(result));
    mkdirSync(join(ROOT, "bench"), { recursive: true });
    // A run of some parts only has a file of its own, so the full run's figures stay.
    const only = ["upload", "open", "append"].every((part) => PARTS.has(part)) ? "" : `-${[...PARTS].join("-")}`;
    const file = join(ROOT, "bench", `results-conversations${only}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
    console.log(`written to ${file}`);
  } finally {
    await runtime.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runConversationsBench();
