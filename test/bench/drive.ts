import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Session } from "@sealwork/contracts";
import { launchBrowser } from "../support/browser";
import { ROOT, spawnRuntime } from "../support/runtime";
import { benchPage, spaBundle } from "./browser-bundle";
import { client } from "./client";
import { figures } from "./keys";
import { type ProcessCpu, type ProcessKind, cpuSince, processCpu, splitCores, unsplitCores } from "./process-cpu";

/**
 * A large drive in Chromium (issue 13, "Must show"), in one page, BENCH_DRIVE_RUNS (default 5)
 * runs after a warm-up, taking turns:
 *
 * 1. **Opening BENCH_DRIVE_ITEMS (default 10,000) items** as the drive page does
 *    (`openDriveNodes` of web/src/features/groups/drive/drive-items.ts, bundled with esbuild): the
 *    time to its first step (the drives and the first 250 items below them, level by level: what
 *    the page shows first) and to every name and tag opened and checked. The items were sealed in
 *    the page beforehand with the crypto package (`sealDriveItem`, one epoch key), as the server
 *    would serve them (10 drives, 10 folders in each, the rest below those).
 * 2. Beside it, the **bare WebCrypto** work on the same envelopes: for each item, AES-GCM open of
 *    the dockey, import of the key, AES-GCM open of the payload (the crypto package's `decrypt`,
 *    which binds the envelope's header as associated data): no payload parsed, checked or kept.
 * 3. **A name search over BENCH_DRIVE_SEARCH (default 100,000) items** (`searchDrive` of
 *    drive-tree.ts over decrypted names and tags), for a term that matches a few and one that
 *    matches none.
 *
 * 4. **Uploading a BENCH_DRIVE_UPLOAD_MB (default 256) MB file into a drive** on a runtime of its
 *    own, in a page it serves: the drive page's upload (`uploadFile` over the drive's routes,
 *    `driveSpace`: read, encrypted in 1 MiB chunks, PUT in 8 MiB parts to presigned URLs, completed)
 *    beside the same bytes unencrypted through the same path (the same routes, the same part size,
 *    the same PUTs of Blob parts, completed), taking turns, BENCH_DRIVE_UPLOAD_RUNS (default 2) each
 *    after a warm-up of each; with the CPU time each side's processes used (Chromium's renderer,
 *    network service and browser, the runtime with s3rver, DynamoDB Local: process-cpu.ts) and the
 *    load average at the end; at each uplink of BENCH_DRIVE_UPLINK_MBIT.
 *
 * Figures, not assertions: bench/results-drive.json.
 */
const ITEMS = Number(process.env.BENCH_DRIVE_ITEMS ?? 10_000);
const SEARCH = Number(process.env.BENCH_DRIVE_SEARCH ?? 100_000);
const RUNS = Number(process.env.BENCH_DRIVE_RUNS ?? 5);

const ENTRY = `
import { decrypt, generateRecordId, generateSymmetricKey, sealDriveItem } from "@sealwork/crypto";
import { openDriveNodes } from "./src/features/groups/drive/drive-items";
import { searchDrive } from "./src/features/groups/drive/drive-tree";

const WORDS = ["Verträge", "Offerte", "Budget", "Protokoll", "Bericht", "Rechnung", "Projekt", "Archiv", "Entwurf", "Planung", "Kunde", "Lieferant"];
let made;

globalThis.bench = {
  /** ITEMS sealed drive items as GET /api/drive/{id} lists them: 10 drives, 10 folders in each, the rest spread below those. */
  async make(count) {
    const groupId = 7;
    const key = await generateSymmetricKey({ extractable: true });
    const items = [];
    const add = async (id, kind, parent, name) => {
      const recordId = generateRecordId();
      const sealed = await sealDriveItem(key, { groupId, recordId, epoch: 0 }, { type: kind, name, tags: [WORDS[id % WORDS.length], "Q" + (id % 4 + 1)] });
      items.push({ id, record_id: recordId, kind, parent, source_id: 1, created: id, modified: id, editable: true, ...sealed });
    };
    let id = 1;
    const drives = [];
    for (let d = 0; d < 10 && id <= count; d++) { drives.push(id); await add(id++, "drive", 0, "Laufwerk " + d); }
    const folders = [];
    for (const drive of drives) for (let f = 0; f < 10 && id <= count; f++) { folders.push(id); await add(id++, "folder", drive, WORDS[f] + " " + f); }
    const batch = [];
    for (let i = 0; id <= count; i++, id++) batch.push(add(id, "folder", folders[i % folders.length], WORDS[id % WORDS.length] + " " + id));
    await Promise.all(batch);
    made = { groupId, key, items };
    return items.length;
  },

  /** The drive page's opening: ms to the first step and to all opened. */
  async open() {
    const ring = { groupId: made.groupId, epoch: 0, keyFor: async () => made.key };
    const started = performance.now();
    let first = 0;
    const nodes = await openDriveNodes(ring, made.items, new Map(), () => { if (!first) first = performance.now() - started; });
    const all = performance.now() - started;
    if (nodes.length !== made.items.length || nodes.some((n) => n.name === null)) throw new Error("not every item opened");
    return { first_ms: first, all_ms: all, items: nodes.length };
  },

  /** The bare AEAD work on the same envelopes: two AES-GCM opens (the crypto package's decrypt: WebCrypto and the envelope's header as associated data) and a key import. */
  async bare() {
    const started = performance.now();
    const opened = await Promise.all(made.items.map(async (item) => {
      const raw = await decrypt(made.key, item.dockey, { aad: "dockey:" + made.groupId + ":" + item.record_id + ":0" });
      const dek = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["decrypt"]);
      return decrypt(dek, item.payload, { aad: "mote:" + made.groupId + ":" + item.record_id });
    }));
    return { ms: performance.now() - started, items: opened.length };
  },

  /** SEARCH decrypted items in memory, and the search's time for a rare term and an absent one. */
  search(count) {
    const nodes = [];
    for (let i = 1; i <= count; i++) nodes.push({ id: i, recordId: "r" + i, kind: i <= 10 ? "drive" : "folder", parent: i <= 10 ? 0 : 1 + (i % 10), authorId: 1, created: i, modified: i, editable: true, name: WORDS[i % WORDS.length] + " " + i, tags: [WORDS[(i * 7) % WORDS.length], "Q" + (i % 4 + 1)] });
    const time = (term) => {
      const started = performance.now();
      const { matches } = searchDrive(nodes, term);
      return { ms: performance.now() - started, matches: matches.size };
    };
    return { rare: time("offerte 4242"), none: time("nichtvorhanden"), common: time("vertr") };
  },
};
`;

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

const UPLOAD_MB = Number(process.env.BENCH_DRIVE_UPLOAD_MB ?? 256);
const UPLOAD_RUNS = Number(process.env.BENCH_DRIVE_UPLOAD_RUNS ?? 2);
/**
 * BENCH_DRIVE_UPLINK_MBIT: the uplinks the upload is measured at, comma separated (default "0":
 * the loopback as it is). Above 0, Chromium sends at most that many megabits a second, with a
 * round trip of 20 ms (network emulation), both sides alike.
 */
const UPLINKS = (process.env.BENCH_DRIVE_UPLINK_MBIT ?? "0").split(",").map(Number);
const ADMIN = { email: "bench-drive@example.ch", password: "bench-password-1" };

const UPLOAD_ENTRY = `
import { uploadFile } from "./src/features/conversations/attachments/transfer";
import { driveSpace } from "./src/features/groups/drive/drive-items";
import { setSession } from "./src/lib/session";
const MB = 1024 * 1024;

function put(url, body) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.onload = () => (xhr.status < 300 ? resolve(xhr.getResponseHeader("ETag") ?? "") : reject(new Error("PUT " + xhr.status)));
    xhr.onerror = () => reject(new Error("PUT failed"));
    xhr.send(body);
  });
}

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
  /** The drive page's upload: encrypted in chunks and sent in parts. */
  async encrypted(session, groupId) {
    setSession(session);
    const started = performance.now();
    await uploadFile(driveSpace(groupId), globalThis.benchFile);
    return performance.now() - started;
  },
  /** The same bytes unencrypted through the same routes and part size. */
  async plain(session, groupId) {
    setSession(session);
    const space = driveSpace(groupId);
    const file = globalThis.benchFile;
    const started = performance.now();
    const upload = await space.start({ size: file.size });
    // As many parts on their way at a time as the SPA's upload sends (transfer.ts, PARTS_IN_FLIGHT).
    const etags = [];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < upload.parts.length; i = next++) etags[i] = await put(upload.parts[i].url, file.slice(i * upload.part_size, (i + 1) * upload.part_size));
    };
    await Promise.all([lane(), lane()]);
    await space.complete(upload.id, upload.multipart ? { etags } : {});
    return performance.now() - started;
  },
};
`;

/** 4. A large upload into a drive, encrypted beside unencrypted through the same path, over an uplink of `mbit` (0: the loopback). */
async function uploadRatio(mbit: number) {
  const runtime = await spawnRuntime({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, POWERTOOLS_LOG_LEVEL: "ERROR" } });
  const browser = await launchBrowser();
  try {
    const api = client(runtime);
    const adminId = (await api<{ id: number }>("GET", `/api/users?lookup=${encodeURIComponent(ADMIN.email)}`)).id;
    const admin = await api<Session>("POST", `/api/users/${adminId}/login`, null, { password: ADMIN.password });
    const group = await api<{ id: number }>("POST", "/api/groups", admin, { name: "Bench drive", members: [] });
    const page = await browser.newPage({ bypassCSP: true });
    if (mbit > 0) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, uploadThroughput: (mbit * 1_000_000) / 8, downloadThroughput: -1 });
    }
    const split = splitCores();
    await page.goto(`${runtime.url}/login`);
    await page.addScriptTag({ content: (await spaBundle(UPLOAD_ENTRY)).js });
    await page.evaluate(`bench.makeFile(${UPLOAD_MB})`);
    const session = JSON.stringify(admin);
    await page.evaluate(`bench.encrypted(${session}, ${group.id})`);
    await page.evaluate(`bench.plain(${session}, ${group.id})`);
    const encrypted: number[] = [];
    const plain: number[] = [];
    const cpu: { encrypted: ProcessCpu[]; unencrypted: ProcessCpu[] } = { encrypted: [], unencrypted: [] };
    // Each side's wall time, and the CPU its processes used meanwhile (the two sides share the machine's cores).
    const measured = async (side: keyof typeof cpu, call: string) => {
      const before = processCpu();
      const ms = (await page.evaluate(call)) as number;
      cpu[side].push(cpuSince(before));
      return ms;
    };
    for (let run = 0; run < UPLOAD_RUNS; run++) {
      encrypted.push(await measured("encrypted", `bench.encrypted(${session}, ${group.id})`));
      plain.push(await measured("unencrypted", `bench.plain(${session}, ${group.id})`));
    }
    const enc = figures(encrypted);
    const bare = figures(plain);
    const mbps = (ms: number) => Math.round((UPLOAD_MB / (ms / 1000)) * 10) / 10;
    const medianCpu = (runs: ProcessCpu[]) => Object.fromEntries((Object.keys(runs[0] ?? {}) as ProcessKind[]).map((kind) => [kind, figures(runs.map((r) => r[kind] ?? 0)).median_ms]));
    return {
      split_cores: split,
      uplink_mbit: mbit || null,
      file_mb: UPLOAD_MB,
      encrypted: { ...enc, mb_per_s: mbps(enc.median_ms), cpu_ms: medianCpu(cpu.encrypted) },
      unencrypted: { ...bare, mb_per_s: mbps(bare.median_ms), cpu_ms: medianCpu(cpu.unencrypted) },
      encrypted_share_of_unencrypted: ratio(bare.median_ms, enc.median_ms),
      load_average: loadavg().map((n) => Math.round(n * 100) / 100),
    };
  } finally {
    await browser.close();
    unsplitCores();
    await runtime.stop();
  }
}

/** One upload ratio per uplink of UPLINKS: `upload` is the first, `upload_at_uplinks` all of them. */
async function uploads() {
  const runs = [];
  for (const mbit of UPLINKS) runs.push(await uploadRatio(mbit));
  return { upload: runs[0], ...(runs.length > 1 ? { upload_at_uplinks: runs } : {}) };
}

export async function runDriveBench(): Promise<void> {
  const browser = await launchBrowser();
  try {
    const page = await benchPage(browser, "drive", ENTRY, spaBundle);
    const items = (await page.evaluate(`bench.make(${ITEMS})`)) as number;
    // A warm-up of each, not counted.
    await page.evaluate("bench.open()");
    await page.evaluate("bench.bare()");
    const first: number[] = [];
    const all: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const opened = (await page.evaluate("bench.open()")) as { first_ms: number; all_ms: number };
      const plain = (await page.evaluate("bench.bare()")) as { ms: number };
      first.push(opened.first_ms);
      all.push(opened.all_ms);
      bare.push(plain.ms);
    }
    const searches: Record<string, { ms: number; matches: number }>[] = [];
    for (let run = 0; run < RUNS; run++) searches.push((await page.evaluate(`bench.search(${SEARCH})`)) as Record<string, { ms: number; matches: number }>);
    const searchFigures = Object.fromEntries(["rare", "none", "common"].map((term) => [term, { ...figures(searches.map((s) => s[term]!.ms)), matches: searches[0]![term]!.matches }]));
    const result = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      browser: browser.version(),
      cpus: cpus().length,
      items,
      first_rows: figures(first),
      all_opened: figures(all),
      bare_webcrypto: figures(bare),
      all_opened_to_bare: ratio(figures(all).median_ms, figures(bare).median_ms),
      search_items: SEARCH,
      search: searchFigures,
      ...(await uploads()),
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(join(ROOT, "bench"), { recursive: true });
    // A run at other uplinks has a file of its own, so the plain run's figures stay.
    const file = join(ROOT, "bench", UPLINKS.some(Boolean) ? "results-drive-uplinks.json" : "results-drive.json");
    writeFileSync(file, JSON.stringify(result, null, 2));
    console.log(`written to ${file}`);
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runDriveBench();
