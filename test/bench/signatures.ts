import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Session } from "@sealwork/contracts";
import { accountPublicKeys, generateAccountKeys, identityKeys, sealSignedMessage, signedMessageDigest } from "@sealwork/crypto";
import { launchBrowser } from "../support/browser";
import { newKeyBody } from "../support/keys";
import { ROOT, spawnRuntime } from "../support/runtime";
import { client } from "./client";
import { type Signer, signedStartBody } from "../support/signed-conversations";
import { PEOPLE, benchPage, browserBundle } from "./browser-bundle";
import { figures } from "./keys";

/**
 * What the signature checks of protocol v2 cost when a conversation opens (issue 11: "no more than
 * 20 % to opening a 2,000-message conversation, in the same run"), measured in Chromium, twice:
 *
 * 1. Opening in the SPA: a conversation of three people with BENCH_SIGNED_MESSAGES (default 2000)
 *    signed messages on a runtime of its own, fetched page by page (50 a page, each opened before
 *    the next is fetched, as the screen pages back) and opened both ways in the same browser page,
 *    taking turns: `verified` with the SPA's own modules (web/…/conversation-log.ts openRing: the
 *    log, the records, the signed copy, with the identity look-ups and pins they need; then
 *    load-conversation.ts ringKeys: every message's sender a member of its epoch, and, newest first,
 *    the signature of each sender's newest message and the digests it names for the older ones);
 *    `plain` fetches the same pages and decrypts each message under the key opened from the
 *    copy's envelope, checking nothing. The screen's whole query function (TanStack Query around
 *    the same verified path) is timed as well, for scale.
 * 2. The cryptography alone, on the crypto package the SPA ships: the page makes the same kind of
 *    conversation in memory and opens the same messages both ways, in pages of 50, taking turns:
 * - verified: the log replayed (verifyLog), the record checked against it, one's signed copy opened
 *   (openSignedConversationKey), each message's sender a member of its epoch, and the pages newest
 *   first through openSignedMessages (a signature per sender's newest message, the digests each
 *   names for the older ones): what web/src/features/conversations/distribution.ts and
 *   message-crypto.ts do;
 * - plain: one's copy opened as a v1 copy is (openConversationKey), each message decrypted
 *   (openMessage, the same v2 place), nothing verified.
 * Figures, not assertions: bench/results-signatures.json. BENCH_SIGNED_RUNS sets the runs (default 7).
 */
const MESSAGES = Number(process.env.BENCH_SIGNED_MESSAGES ?? 2000);
const RUNS = Number(process.env.BENCH_SIGNED_RUNS ?? 7);
const PAGE = 50;

const ENTRY = `
import {
  appendToLog, createConversationRecord, createLog, generateAccountKeys, generateSymmetricKey, identityKeys, accountPublicKeys,
  membershipContainer, openConversationKey, openMessage, openSignedConversationKey, openSignedMessages, sealSignedConversationKey,
  sealSignedMessage, signedMessageDigest, verifyConversationRecord, verifyLog, MessageVouchers,
} from "@sealwork/crypto";

const ID = 4242;
const PAGE = ${PAGE};
let made;

${PEOPLE}
globalThis.bench = {
  async make(count) {
    const people = await Promise.all([1, 2, 3].map(person));
    const keysOf = lookup(people);
    const container = membershipContainer("conversation", ID);
    const entries = [await createLog(container, people[0].me, 1)];
    for (const p of people.slice(1)) entries.push(await appendToLog(await verifyLog(container, entries, keysOf), { action: "add", subject: { userId: p.key.userId, keyId: p.key.keyId }, at: 2 }, people[0].me));
    const log = await verifyLog(container, entries, keysOf);
    const key = await generateSymmetricKey();
    const record = await createConversationRecord(key, people.map((p) => ({ userId: p.key.userId, keyId: p.key.keyId })), log, people[0].me);
    const copy = await sealSignedConversationKey(key, record.record, people[1].key, people[0].me);
    const messages = [];
    const prevOf = new Map();
    for (let i = 0; i < count; i++) {
      const sender = people[i % 3];
      const place = { v: 2, conversationId: ID, epoch: 0, senderId: sender.key.userId, localid: "m-" + i };
      const text = "Message " + i + ": " + "Grüezi mitenand, wie gaht's? ".repeat(1 + (i % 4));
      // Each names its sender's previous message, as the SPA's do (sealChainedMessage).
      const prev = prevOf.get(sender.key.userId);
      const message = await sealSignedMessage(key, place, prev ? { text, prev } : { text }, sender.me);
      prevOf.set(sender.key.userId, await signedMessageDigest(message, place));
      messages.push({ place, message });
    }
    made = { people, keysOf, container, entries, record, copy, messages };
    return count;
  },

  async verified() {
    const { people, keysOf, container, entries, record, copy, messages } = made;
    const started = performance.now();
    const log = await verifyLog(container, entries, keysOf);
    const checked = await verifyConversationRecord(record, log, keysOf);
    const key = await openSignedConversationKey(copy, checked, people[1].me, keysOf);
    const members = new Set(log.members.map((m) => m.userId));
    const vouchers = new MessageVouchers();
    let opened = 0;
    // Newest page first, each newest first: the signatures of each sender's newest message, the rest on the digests they name.
    for (let end = messages.length; end > 0; end -= PAGE) {
      const page = messages.slice(Math.max(0, end - PAGE), end).reverse().filter(({ place }) => members.has(place.senderId));
      const results = await openSignedMessages(page.map(({ place, message }) => ({ place, message, key })), keysOf, vouchers);
      opened += results.filter((r) => r.ok).length;
    }
    return { ms: performance.now() - started, opened };
  },

  async plain() {
    const { people, copy, messages } = made;
    const started = performance.now();
    const { key } = await openConversationKey(copy.sealed, people[1].me.keys.encrypt, { conversationId: ID, epoch: 0 });
    let opened = 0;
    for (let start = 0; start < messages.length; start += PAGE) {
      const page = messages.slice(start, start + PAGE);
      const payloads = await Promise.all(page.map(({ place, message }) => openMessage(key, message.envelope, place)));
      opened += payloads.filter(Boolean).length;
    }
    return { ms: performance.now() - started, opened };
  },
};
`;

/** The cryptography alone (2. above). */
async function cryptoAlone() {
  const browser = await launchBrowser();
  try {
    const page = await benchPage(browser, "signatures", ENTRY);
    const madeStarted = performance.now();
    await page.evaluate(`bench.make(${MESSAGES})`);
    const makeMs = performance.now() - madeStarted;
    // One warm-up of each (keys imported, code compiled), not counted.
    await page.evaluate("bench.verified()");
    await page.evaluate("bench.plain()");
    const verified: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Taking turns, starting with the other one every second run.
      const order = i % 2 === 0 ? (["verified", "plain"] as const) : (["plain", "verified"] as const);
      for (const way of order) {
        const run = (await page.evaluate(`bench.${way}()`)) as { ms: number; opened: number };
        if (run.opened !== MESSAGES) throw new Error(`${way} opened ${run.opened} of ${MESSAGES} messages`);
        (way === "verified" ? verified : plain).push(run.ms);
      }
    }
    return { browser: `Chromium ${browser.version()} (headless)`, make_ms: Math.round(makeMs), ...compare(verified, plain) };
  } finally {
    await browser.close();
  }
}

/**
 * Both ways' figures, the overhead of the medians, and the median of each round's own overhead
 * (the two ways of a round ran one right after the other, so a machine shared with other work
 * weighs on both alike).
 */
function compare(verified: number[], plain: number[]) {
  const withChecks = figures(verified);
  const without = figures(plain);
  const percent = (v: number, p: number) => Math.round(((v - p) / p) * 1000) / 10;
  const rounds = verified.map((v, i) => percent(v, plain[i]!)).sort((a, b) => a - b);
  return {
    verified: withChecks,
    plain: without,
    overhead_percent: percent(withChecks.median_ms, without.median_ms),
    paired_overhead_percent: rounds[Math.floor(rounds.length / 2)]!,
    rounds_overhead_percent: rounds,
  };
}

const ADMIN = { email: "bench-signatures@example.ch", password: "bench-password-1" };

/**
 * The screen's query function (verified) and a plain fetch-and-decrypt of the same pages, for the
 * page of a member whose keys the bench hands in.
 */
const SPA_ENTRY = `
import { QueryClient } from "@tanstack/react-query";
import { openConversationKey, openMessage } from "@sealwork/crypto";
import { forgetRing, openRing } from "./web/src/features/conversations/conversation-log";
import { conversationMessagesQuery, ringKeys } from "./web/src/features/conversations/load-conversation";
import { call } from "./web/src/lib/api";
import { setSession } from "./web/src/lib/session";
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
let holder;
const load = (id, query) => call("GET /api/conversations/{id}", { params: { id }, query });

/**
 * Up to \`pages\` pages, newest first, each opened with open(motes). \`ahead\`: the next page is asked
 * for as soon as an answer is in and this one is opened meanwhile, as the screen pages back
 * (load-conversation.ts, fetchAhead); else each is opened before the next is fetched.
 */
async function pagesOf(id, first, open, pages, ahead) {
  let page = first;
  let opened = 0;
  for (let n = 1; ; n++) {
    const next = page.more && n < pages ? load(id, { before: page.motes[0].id }) : null;
    if (!ahead) await next?.catch(() => undefined);
    opened += (await open(page.motes)).filter((m) => m && (m.payload ?? m.text)).length;
    if (!next) return opened;
    page = await next;
  }
}

globalThis.bench = {
  async setup(session, keys) {
    setSession(session);
    const encrypt = {
      privateKey: await crypto.subtle.importKey("pkcs8", bytes(keys.encryptPrivate), { name: "X25519" }, false, ["deriveBits"]),
      publicKey: await crypto.subtle.importKey("raw", bytes(keys.encryptPublic), { name: "X25519" }, true, []),
    };
    const sign = { publicKey: await crypto.subtle.importKey("raw", bytes(keys.signPublic), { name: "Ed25519" }, true, ["verify"]), privateKey: null };
    holder = { uid: session.id, keyId: 0, keys: { encrypt, sign }, publicKeys: keys.publicKeys };
  },
  /** The SPA's checks: the ring (log, record, signed copy) and each message through openWithRing. */
  async verified(id, pages, ahead) {
    forgetRing(id);
    const started = performance.now();
    const [first, ring] = await Promise.all([load(id, { meta: "1" }), openRing(id, holder)]);
    const keys = ringKeys(ring);
    const opened = await pagesOf(id, first, async (motes) => (await keys.open(motes)).filter((m) => m.verification === "signed"), pages, ahead);
    return { ms: performance.now() - started, opened };
  },
  /** The same pages, the key opened from the copy's envelope, each message decrypted: nothing checked. */
  async plain(id, pages, ahead) {
    const started = performance.now();
    const first = await load(id, { meta: "1" });
    const { key } = await openConversationKey(first.sealed, holder.keys.encrypt, { conversationId: id, epoch: first.epoch });
    const opened = await pagesOf(id, first, (motes) => Promise.all(motes.map((m) => openMessage(key, m.payload, { v: 2, conversationId: id, epoch: m.epoch, senderId: m.source_id, localid: m.localid }))), pages, ahead);
    return { ms: performance.now() - started, opened };
  },
  /** The screen's own query function (fetchMessagePage through TanStack Query), run to the last page. */
  async screen(id, pages) {
    forgetRing(id);
    const client = new QueryClient();
    const started = performance.now();
    const data = await client.fetchInfiniteQuery({ ...conversationMessagesQuery(id, holder), pages });
    const messages = data.pages.flatMap((p) => p.messages);
    return { ms: performance.now() - started, opened: messages.filter((m) => m.verification === "signed" && m.payload).length };
  },
};
`;

/** Opening in the SPA (1. above): a runtime, three members with registered keys, a signed conversation. */
async function inTheSpa() {
  const runtime = await spawnRuntime({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, POWERTOOLS_LOG_LEVEL: "ERROR" } });
  const browser = await launchBrowser();
  try {
    const api = client(runtime);
    Object.assign(process.env, runtime.env);
    const { User } = await import("@sealwork/core");
    const people: Signer[] = [];
    for (const name of ["Ann", "Ben", "Cem"]) {
      const email = `bench-${name.toLowerCase()}-${Date.now()}@example.ch`;
      const user = await User.create({ name, email, password: ADMIN.password });
      const session = await api<Session>("POST", `/api/users/${user.id}/login`, null, { password: ADMIN.password });
      const keys = await generateAccountKeys();
      await api("POST", "/api/keypairs", session, (await newKeyBody(session.id, null, { keys })).body);
      people.push({ session, me: await identityKeys(session.id, keys), key: { userId: session.id, keyId: (await identityKeys(session.id, keys)).keyId, seq: 0, ...(await accountPublicKeys(keys)), created: 0 } });
    }
    const [ann, ben, cem] = people as [Signer, Signer, Signer];
    // One group for the three, made by the first administrator (a super administrator), so that they may talk.
    const admin = await api<Session>("POST", `/api/users/${(await api<{ id: number }>("GET", `/api/users?lookup=${encodeURIComponent(ADMIN.email)}`, null)).id}/login`, null, { password: ADMIN.password });
    await api("POST", "/api/groups", admin, { name: "Bench", members: people.map((p) => p.session.id) });
    const reserved = (await api<{ id: number }>("POST", "/api/conversations/reserve", ann.session)).id;
    const { body, state } = await signedStartBody(ann, [ben, cem], reserved, { title: "Bench" });
    await api("POST", "/api/conversations", ann.session, body);
    const seeded = performance.now();
    // The three write at once, each their messages in turn, each naming their previous one as the SPA's do (sealChainedMessage).
    await Promise.all(
      people.map(async (from, p) => {
        let prev: string | undefined;
        for (let n = p; n < MESSAGES; n += 3) {
          const text = `Message ${n}: ${"Grüezi mitenand, wie gaht's? ".repeat(1 + (n % 4))}`;
          const place = { v: 2 as const, conversationId: state.id, epoch: state.log.epoch, senderId: from.session.id, localid: `m-${n}` };
          const message = await sealSignedMessage(state.keys[state.log.epoch]!, place, prev ? { text, prev } : { text }, from.me);
          prev = await signedMessageDigest(message, place);
          const body = { localid: place.localid, payload: message.envelope, epoch: place.epoch, signature: message.signature, sender_key_id: message.senderKeyId };
          await api("POST", `/api/conversations/${state.id}/append`, from.session, body);
        }
      }),
    );
    const seedSeconds = (performance.now() - seeded) / 1000;

    // A blank page of the runtime's origin (the SPA's modules call the API there), not the SPA
    // itself: the app's own start could navigate away from the bench's script.
    const page = await (await browser.newContext({ baseURL: runtime.url, bypassCSP: true })).newPage();
    await page.route("**/bench-signatures-spa.html", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>bench</title>" }));
    await page.goto("/bench-signatures-spa.html");
    await page.addScriptTag({ content: await browserBundle(SPA_ENTRY) });
    const b64 = (bytes: ArrayBuffer) => Buffer.from(bytes).toString("base64");
    const keys = ben.me.keys;
    const handed = {
      encryptPrivate: b64(await crypto.subtle.exportKey("pkcs8", keys.encrypt.privateKey)),
      encryptPublic: b64(await crypto.subtle.exportKey("raw", keys.encrypt.publicKey)),
      signPublic: b64(await crypto.subtle.exportKey("raw", keys.sign.publicKey)),
      publicKeys: await accountPublicKeys(keys),
    };
    await page.evaluate(`bench.setup(${JSON.stringify(ben.session)}, ${JSON.stringify(handed)})`);
    const pages = Math.ceil(MESSAGES / 50);
    const run = async (way: "verified" | "plain" | "screen", upTo = pages, ahead = false) => {
      const { ms, opened } = (await page.evaluate(`bench.${way}(${state.id}, ${upTo}, ${ahead})`)) as { ms: number; opened: number };
      const expected = Math.min(MESSAGES, upTo * 50);
      if (opened !== expected) throw new Error(`${way} opened ${opened} of ${expected} messages`);
      return ms;
    };
    // The first open of each (Ben's pins made, the identities looked up, the server's caches warm):
    // reported, not compared.
    const first = { verified_ms: Math.round(await run("verified")), plain_ms: Math.round(await run("plain")) };
    const verified: number[] = [];
    const plain: number[] = [];
    const newestVerified: number[] = [];
    const newestPlain: number[] = [];
    const verifiedAhead: number[] = [];
    const plainAhead: number[] = [];
    const screen: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const order = i % 2 === 0 ? (["verified", "plain"] as const) : (["plain", "verified"] as const);
      for (const way of order) (way === "verified" ? verified : plain).push(await run(way));
      // The same, each next page asked for while this one opens (as the screen pages back).
      for (const way of order) (way === "verified" ? verifiedAhead : plainAhead).push(await run(way, pages, true));
      // What opening shows first: the newest page (and, verified, the log, record and copy).
      for (const way of order) (way === "verified" ? newestVerified : newestPlain).push(await run(way, 1));
      screen.push(await run("screen"));
    }
    return {
      pages,
      seed_seconds: Math.round(seedSeconds),
      first_open: first,
      ...compare(verified, plain),
      fetched_ahead: compare(verifiedAhead, plainAhead),
      newest_page: compare(newestVerified, newestPlain),
      screen_query_function: figures(screen),
    };
  } finally {
    await browser.close();
    await runtime.stop();
  }
}

export async function runSignaturesBench(): Promise<void> {
  const spa = await inTheSpa();
  const alone = await cryptoAlone();
  write(spa, alone);
}

function write(spa: Awaited<ReturnType<typeof inTheSpa>>, alone: Awaited<ReturnType<typeof cryptoAlone>>): void {
  const result = {
    measuredAt: new Date().toISOString(),
    browser: alone.browser,
    node: process.version,
    cpus: cpus().length,
    messages: MESSAGES,
    runs: RUNS,
    target_percent: 20,
    opening_in_the_spa: spa,
    cryptography_alone: alone,
  };
  const brief = (r: ReturnType<typeof compare>) => ({ verified_ms: r.verified.median_ms, plain_ms: r.plain.median_ms, overhead_percent: r.overhead_percent, paired_overhead_percent: r.paired_overhead_percent });
  console.log(JSON.stringify({ messages: MESSAGES, spa: brief(spa), spa_fetched_ahead: brief(spa.fetched_ahead), alone: brief(alone) }));
  mkdirSync(join(ROOT, "bench"), { recursive: true });
  const file = join(ROOT, "bench", "results-signatures.json");
  writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
  console.log(`written to ${file}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // `npx tsx test/bench/signatures.ts crypto`: the cryptography alone, printed, nothing written.
  if (process.argv[2] === "crypto") console.log(JSON.stringify(await cryptoAlone()));
  else await runSignaturesBench();
}
