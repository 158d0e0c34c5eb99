import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Session, WRAPS_MAX } from "@sealwork/contracts";
import { launchBrowser } from "../support/browser";
import { ROOT, type SpawnedRuntime, spawnRuntime } from "../support/runtime";
import { client } from "./client";
import { PEOPLE, benchPage } from "./browser-bundle";
import { figures } from "./keys";

/**
 * What a member change costs as a group grows (issue 12, "Must show"), on a runtime of its own:
 *
 * 1. **Adding a member** to a group that holds no records and to one that holds
 *    BENCH_GROUP_RECORDS (default 100,000) records (the group conversation's messages, the only
 *    records a group has before issue 13), BENCH_GROUP_ADDS times each, taking turns: the verb the
 *    groups area runs for POST …/assignMember (the `add` entry, the new member's wrap and the
 *    epoch's record in one transaction), called in this process on the runtime's DynamoDB Local
 *    with a middleware on the client that counts every item written. Beside it, the same
 *    transaction's items sent bare (no access check, no reads): the floor on this machine.
 * 2. **Removing a member** from a group of BENCH_GROUP_MEMBERS (default 1,000) in Chromium: what the
 *    administrator's browser does (web/…/groups/keys/group-changes.ts, nextEpoch) from the group's
 *    verified log its ring holds: the log extended by `remove` and `rekey` (each new entry checked,
 *    as `extend` does), a fresh key, the signed
 *    record, a signed wrap for each remaining member and the link to the previous key; then the
 *    requests to the runtime (revokeMember with the entry, the log with the rekey, the wraps in
 *    requests of WRAPS_MAX: one for 1,000). Beside it, in the same page and run, the bare sealing of the same key for the
 *    same members (one HPKE seal each, nothing signed, nothing verified).
 *
 * Figures, not assertions: bench/results-groups.json.
 */
const RECORDS = Number(process.env.BENCH_GROUP_RECORDS ?? 100_000);
const ADDS = Number(process.env.BENCH_GROUP_ADDS ?? 9);
const MEMBERS = Number(process.env.BENCH_GROUP_MEMBERS ?? 1000);
const RUNS = Number(process.env.BENCH_GROUP_RUNS ?? 3);
const WRAPS_CHUNK = WRAPS_MAX;
const ADMIN = { email: "bench-groups@example.ch", password: "bench-password-1" };

type Json = Record<string, unknown>;
const blob = (label: string, n = 0): Json => ({ v: 1, kind: "stand-in", label, n, signature: `sig-${label}-${n}` });

/** Counts the items written to the table while `work` runs (a transaction's items, a batch's requests, single writes). */
async function countWrites<T>(work: () => Promise<T>): Promise<{ result: T; writes: number; ms: number }> {
  const { dynamo } = await import("@sealwork/core/db/client");
  let writes = 0;
  const name = `count-writes-${Math.random()}`;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TransactItems?: unknown[]; RequestItems?: Record<string, unknown[]> };
      const command = context.commandName ?? "";
      if (command === "TransactWriteItemsCommand") writes += input.TransactItems?.length ?? 0;
      else if (command === "BatchWriteItemCommand") writes += Object.values(input.RequestItems ?? {}).reduce((n, list) => n + list.length, 0);
      else if (["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand"].includes(command)) writes += 1;
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    const started = performance.now();
    const result = await work();
    return { result, writes, ms: performance.now() - started };
  } finally {
    dynamo().middlewareStack.remove(name);
  }
}

/** 1. Adding a member: writes and time, empty group beside a group of RECORDS records, and the bare transaction. */
async function memberAdds(runtime: SpawnedRuntime) {
  Object.assign(process.env, runtime.env);
  const { User } = await import("@sealwork/core");
  const { Group, GroupMembers } = await import("@sealwork/core/group");
  const { getUser } = await import("@sealwork/core/user/read");
  const { db } = await import("@sealwork/core/db/service");
  const sue = await User.create({ name: "Sue", email: "bench-groups-sue@example.ch", admin: true, superAdmin: true });
  const actor = { kind: "super" as const, ip: "127.0.0.1", uid: sue.id, user: (await getUser(sue.id))! };
  const empty = await Group.create(actor, { name: "Empty", members: [] });
  const full = await Group.create(actor, { name: "Full", members: [] });

  // The full group's records, written straight to the table (the conversation's messages).
  const seeded = performance.now();
  const now = Math.floor(Date.now() / 1000);
  for (let start = 0; start < RECORDS; start += 5000) {
    const items = Array.from({ length: Math.min(5000, RECORDS - start) }, (_, i) => ({
      groupId: full.id,
      id: start + i + 1,
      sourceId: sue.id,
      timestamp: now,
      payload: "x".repeat(200),
      localid: `seed-${start + i}`,
      epoch: 0,
      signature: "s",
      senderKeyId: "k",
    }));
    await db().entities.groupmote.put(items).go({ concurrency: 8 });
  }
  const seedMs = performance.now() - seeded;

  const heads = new Map<number, number>([
    [empty.id, -1],
    [full.id, -1],
  ]);
  const add = async (groupId: number, n: number) => {
    const person = await User.create({ name: `Member ${n}`, email: `bench-groups-${groupId}-${n}@example.ch` });
    const head = heads.get(groupId)!;
    const run = await countWrites(() =>
      GroupMembers.assign(actor, groupId, { member_uid: person.id, log: { head, entries: [blob("add", n)] }, wrap: { epoch: 0, wrap: blob("wrap", n), record: blob("record", n) } }),
    );
    heads.set(groupId, head + 1);
    return run;
  };
  // The same items as the add's transaction, sent bare.
  const bare = async (n: number) => {
    const person = await User.create({ name: `Bare ${n}`, email: `bench-groups-bare-${n}@example.ch` });
    return countWrites(() =>
      db()
        .transaction.write(({ groupmember, group, grouplog, groupwrap, groupepoch }) => [
          groupmember.create({ groupId: empty.id, userId: person.id, admin: false, joinedAt: now, lastSeenMote: 0, lastVisit: 0 }).commit(),
          group.patch({ id: empty.id }).add({ memberCount: 0 }).commit(),
          grouplog.create({ groupId: empty.id, first: 1_000_000 + n, count: 1, entries: JSON.stringify([blob("add", n)]), authorId: sue.id }).commit(),
          groupwrap.put({ groupId: empty.id, epoch: 0, userId: person.id, wrap: JSON.stringify(blob("wrap", n)), sealerId: sue.id }).commit(),
          groupepoch.update({ groupId: empty.id, epoch: 0 }).set({ record: JSON.stringify(blob("record", n)) }).commit(),
        ])
        .go(),
    );
  };
  await add(empty.id, 0);
  await add(full.id, 0);
  await bare(0);
  const rows = { empty: [] as Awaited<ReturnType<typeof add>>[], full: [] as Awaited<ReturnType<typeof add>>[], bare: [] as Awaited<ReturnType<typeof bare>>[] };
  for (let i = 1; i <= ADDS; i++) {
    const order = i % 2 === 0 ? (["empty", "full", "bare"] as const) : (["bare", "full", "empty"] as const);
    for (const which of order) {
      if (which === "bare") rows.bare.push(await bare(i));
      else rows[which].push(await add(which === "empty" ? empty.id : full.id, i));
    }
  }
  const summary = (list: Array<{ writes: number; ms: number }>) => ({ writes: [...new Set(list.map((r) => r.writes))], ...figures(list.map((r) => r.ms)) });
  const result = { records: RECORDS, seed_ms: Math.round(seedMs), empty_group: summary(rows.empty), full_group: summary(rows.full), bare_transaction: summary(rows.bare) };
  return { ...result, full_to_empty: ratio(result.full_group.median_ms, result.empty_group.median_ms), empty_to_bare: ratio(result.empty_group.median_ms, result.bare_transaction.median_ms) };
}

const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 1)) * 100) / 100;

const ENTRY = `
import {
  accountPublicKeys, appendToLog, createGroupRecord, createLog, entryHash, extendLog, generateAccountKeys, generateSymmetricKey, identityKeys,
  membershipContainer, sealConversationKey, sealGroupEpochLink, sealGroupKey, verifyLog,
} from "@sealwork/crypto";

let made;

${PEOPLE}
const ref = (p) => ({ userId: p.key.userId, keyId: p.key.keyId });

globalThis.bench = {
  /** The group: ids[0] its creator and admin, the others added one by one (the state kept here, the log verified once at the end). */
  async make(groupId, ids) {
    const people = [];
    for (let i = 0; i < ids.length; i += 50) people.push(...(await Promise.all(ids.slice(i, i + 50).map(person))));
    const keysOf = lookup(people);
    const container = membershipContainer("group", groupId);
    const admin = people[0];
    const entries = [await createLog(container, admin.me, 1)];
    let state = { container, head: { seq: 0, hash: await entryHash(entries[0]) }, epoch: 0, members: [ref(admin)], admins: [admin.key.userId], needsRekey: false, history: [] };
    for (const p of people.slice(1)) {
      const entry = await appendToLog(state, { action: "add", subject: ref(p), at: 2 }, admin.me);
      entries.push(entry);
      state = { ...state, head: { seq: entry.record.seq, hash: await entryHash(entry) }, members: [...state.members, ref(p)].sort((a, b) => a.userId - b.userId) };
    }
    const log = await verifyLog(container, entries, keysOf);
    const key = await generateSymmetricKey();
    made = { groupId, people, keysOf, container, entries, log, key };
    return entries.length;
  },

  /** What nextEpoch does for a removal of \`index\`: answers what it would post, and the time. */
  async remove(index) {
    const { groupId, people, keysOf, entries, log: verified, key: previous } = made;
    const admin = people[0];
    const gone = people[index];
    const started = performance.now();
    const all = [...entries];
    let log = verified;
    for (const change of [{ action: "remove", subject: ref(gone), at: 3 }, { action: "rekey", subject: null, at: 4 }]) {
      const entry = await appendToLog(log, change, admin.me);
      all.push(entry);
      log = await extendLog(log, [entry], keysOf);
    }
    const stay = people.filter((p) => p !== gone);
    const key = await generateSymmetricKey();
    const signed = await createGroupRecord(key, stay.map(ref), log, admin.me);
    const wraps = await Promise.all(stay.map(async (p) => ({ user_id: p.key.userId, wrap: await sealGroupKey(key, signed.record, log, p.key, admin.me) })));
    const link = await sealGroupEpochLink(key, previous, { groupId, epoch: log.epoch });
    const ms = performance.now() - started;
    return { ms, remove: all[entries.length], rekey: all[entries.length + 1], record: signed, link, epoch: log.epoch, wraps };
  },

  /** The floor: the same fresh key sealed for the same members, one HPKE seal each. */
  async bare(index) {
    const { groupId, people } = made;
    const stay = people.filter((_, i) => i !== index);
    const started = performance.now();
    const key = await generateSymmetricKey();
    const sealed = await Promise.all(stay.map((p) => sealConversationKey(key, p.key.encryptPublic, { conversationId: groupId, epoch: 1 })));
    return { ms: performance.now() - started, count: sealed.length };
  },
};
`;

/** 2. Removing a member from a group of MEMBERS: the browser's work and the requests, beside the bare seals. */
async function memberRemoval(runtime: SpawnedRuntime) {
  Object.assign(process.env, runtime.env);
  const { User } = await import("@sealwork/core");
  const api = client(runtime);
  const adminId = (await api<{ id: number }>("GET", `/api/users?lookup=${encodeURIComponent(ADMIN.email)}`)).id;
  const admin = await api<Session>("POST", `/api/users/${adminId}/login`, null, { password: ADMIN.password });
  const others: number[] = [];
  for (let i = 1; i < MEMBERS; i++) others.push((await User.create({ name: `Person ${i}`, email: `bench-groups-person-${i}@example.ch` })).id);

  const browser = await launchBrowser();
  try {
    const page = await benchPage(browser, "groups", ENTRY);
    const browserRuns: number[] = [];
    const bareRuns: number[] = [];
    const requestRuns: number[] = [];
    const totalRuns: number[] = [];
    let makeMs = 0;
    for (let run = 0; run <= RUNS; run++) {
      // A group of MEMBERS on the runtime (every member added in one call), and the same group in the page.
      const group = await api<{ id: number }>("POST", "/api/groups", admin, { name: `Bench ${run}`, members: [] });
      // One at a time: each add changes the group item (its member count) in its transaction.
      for (const uid of others) await api("POST", `/api/groups/${group.id}/assignMember`, admin, { member_uid: uid });
      const made = performance.now();
      await page.evaluate(`bench.make(${group.id}, ${JSON.stringify([admin.id, ...others])})`);
      makeMs = performance.now() - made;
      const gone = 1 + (run % (MEMBERS - 1));
      const order = run % 2 === 0 ? (["signed", "bare"] as const) : (["bare", "signed"] as const);
      for (const way of order) {
        if (way === "bare") {
          const bare = (await page.evaluate(`bench.bare(${gone})`)) as { ms: number; count: number };
          if (bare.count !== MEMBERS - 1) throw new Error(`bare sealed ${bare.count}`);
          if (run > 0) bareRuns.push(bare.ms);
          continue;
        }
        const started = performance.now();
        const done = (await page.evaluate(`bench.remove(${gone})`)) as { ms: number; remove: Json; rekey: Json; record: Json; link: string; epoch: number; wraps: Array<{ user_id: number; wrap: Json }> };
        if (done.wraps.length !== MEMBERS - 1) throw new Error(`sealed ${done.wraps.length} wraps`);
        // As the SPA posts them. The page's log of the adds stays in the page (the runtime's group has none: its head is -1).
        const requests = performance.now();
        await api("POST", `/api/groups/${group.id}/revokeMember`, admin, { member_uid: others[gone - 1], log: { head: -1, entries: [done.remove] } });
        await api("POST", `/api/groups/${group.id}/log`, admin, { head: 0, entries: [done.rekey], record: done.record, rekey: { epoch: 1, link: done.link } });
        for (let i = 0; i < done.wraps.length; i += WRAPS_CHUNK) await api("POST", `/api/groups/${group.id}/wraps`, admin, { epoch: 1, wraps: done.wraps.slice(i, i + WRAPS_CHUNK) });
        const ended = performance.now();
        if (run > 0) {
          browserRuns.push(done.ms);
          requestRuns.push(ended - requests);
          totalRuns.push(ended - started);
        }
      }
    }
    const browserFigures = figures(browserRuns);
    const bareFigures = figures(bareRuns);
    return {
      browser: `Chromium ${browser.version()} (headless)`,
      members: MEMBERS,
      wraps: MEMBERS - 1,
      make_ms: Math.round(makeMs),
      browser_work: browserFigures,
      bare_seals: bareFigures,
      requests: figures(requestRuns),
      total: figures(totalRuns),
      browser_to_bare: ratio(browserFigures.median_ms, bareFigures.median_ms),
    };
  } finally {
    await browser.close();
  }
}

export async function runGroupsBench(): Promise<void> {
  const runtime = await spawnRuntime({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, POWERTOOLS_LOG_LEVEL: "ERROR" } });
  try {
    const adds = await memberAdds(runtime);
    console.log(JSON.stringify({ adds }));
    const removal = await memberRemoval(runtime);
    console.log(JSON.stringify({ removal }));
    mkdirSync(join(ROOT, "bench"), { recursive: true });
    const file = join(ROOT, "bench", "results-groups.json");
    writeFileSync(file, JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, cpus: cpus().length, adds, removal }, null, 2));
    console.log(`written to ${file}`);
  } finally {
    await runtime.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runGroupsBench();
