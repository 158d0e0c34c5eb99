import { describe, expect, it } from "vitest";
import { signRecordV2 } from "../signatures";
import { expectRefusal } from "../test-support";
import { verifyIdentity } from "./identity-chain";
import { type IdentityKeys, type KeysOf, keyLookup } from "./identity-keys";
import { type MembershipEntry, type SignedMembershipEntry, type VerifiedLog, appendToLog, createLog, entryHash, extendLog, membershipContainer, verifyLog } from "./membership-log";
import { T0, World, recordMutations } from "./v2-test-support";

const CONTAINER = membershipContainer("conversation", 42);

/** Users 1 (root), 2, 3 and 4, with a lookup of their verified keys. */
async function setting() {
  const world = await World.create();
  for (const user of [2, 3, 4]) await world.invite(1, user);
  const keysOf: KeysOf = keyLookup(await Promise.all([1, 2, 3, 4].map((user) => verifyIdentity(world.chain(user), world.trust))));
  const me = async (user: number) => world.me(user);
  return { world, keysOf, me };
}

/** A log built entry by entry, each verified before the next is appended. */
async function build(keysOf: KeysOf, steps: [IdentityKeys, Parameters<typeof appendToLog>[1] | null][]): Promise<{ entries: SignedMembershipEntry[]; log: VerifiedLog }> {
  const entries: SignedMembershipEntry[] = [];
  let log: VerifiedLog | undefined;
  for (const [author, change] of steps) {
    entries.push(change ? await appendToLog(log!, change, author) : await createLog(CONTAINER, author, T0));
    log = await verifyLog(CONTAINER, entries, keysOf);
  }
  return { entries, log: log! };
}

/** Users 1 (a), 2 (b) and 3 (c): a creates the log and adds b and c, then `more` of theirs. */
async function threeMembers(more: (a: IdentityKeys, b: IdentityKeys, c: IdentityKeys) => [IdentityKeys, Parameters<typeof appendToLog>[1]][] = () => []) {
  const { keysOf, me } = await setting();
  const [a, b, c] = [await me(1), await me(2), await me(3)];
  const built = await build(keysOf, [
    [a, null],
    [a, { action: "add", subject: ref(b), at: T0 }],
    [a, { action: "add", subject: ref(c), at: T0 }],
    ...more(a, b, c),
  ]);
  return { keysOf, a, b, c, ...built };
}

/** Signs an entry the makers would refuse to make. */
async function forged(record: MembershipEntry, author: IdentityKeys): Promise<SignedMembershipEntry> {
  return { record, signature: await signRecordV2(author.keys.sign.privateKey, record) };
}

const ref = (me: IdentityKeys) => ({ userId: me.userId, keyId: me.keyId });

describe("the membership log", () => {
  it("replays create, add, promote, remove and rekey into members, admins, epoch and head", async () => {
    const { keysOf, me } = await setting();
    const [a, b, c] = [await me(1), await me(2), await me(3)];
    const { entries, log } = await build(keysOf, [
      [a, null],
      [a, { action: "add", subject: ref(c), at: T0 + 1 }],
      [a, { action: "add", subject: ref(b), at: T0 + 2 }],
      [a, { action: "promote", subject: ref(b), at: T0 + 3 }],
      [b, { action: "remove", subject: ref(c), at: T0 + 4 }],
    ]);
    expect(log).toMatchObject({ container: CONTAINER, epoch: 0, members: [ref(a), ref(b)], admins: [1, 2], needsRekey: true });
    expect(log.head).toEqual({ seq: 4, hash: await entryHash(entries[4]!) });
    expect(entries[0]!.record.prev).toBe("");
    expect(entries[3]!.record.prev).toBe(await entryHash(entries[2]!));
    expect(log.history.map((s) => s.members.length)).toEqual([1, 2, 3, 3, 2]);

    const rekey = await appendToLog(log, { action: "rekey", subject: null, at: T0 + 5 }, b);
    expect(rekey.record.epoch).toBe(1);
    const after = await verifyLog(CONTAINER, [...entries, rekey], keysOf, log.head);
    expect(after).toMatchObject({ epoch: 1, needsRekey: false });
    expect(after.history[4]).toEqual(log.history[4]);
  });

  it("members leave by themselves only; a leave needs a rekey as a removal does", async () => {
    const { keysOf, a, b, c, entries, log } = await threeMembers((a, b, c) => [[c, { action: "leave", subject: ref(c), at: T0 }]]);
    expect(log).toMatchObject({ members: [ref(a), ref(b)], needsRekey: true });
    // An add before the rekey keeps the flag: the removed member still holds this epoch's key.
    const added = await appendToLog(log, { action: "add", subject: ref(c), at: T0 }, a);
    expect((await verifyLog(CONTAINER, [...entries, added], keysOf)).needsRekey).toBe(true);
    await expectRefusal(appendToLog(log, { action: "leave", subject: ref(a), at: T0 }, b), "not_permitted");
    const other = await forged({ ...entries[3]!.record, subject: ref(a), prev: await entryHash(entries[2]!) }, c);
    await expectRefusal(verifyLog(CONTAINER, [...entries.slice(0, 3), other], keysOf), "not_permitted");
  });

  it("refuses changes by someone without the right at that point", async () => {
    const { keysOf, me } = await setting();
    const [a, b, c, d] = [await me(1), await me(2), await me(3), await me(4)];
    const { entries, log } = await build(keysOf, [
      [a, null],
      [a, { action: "add", subject: ref(b), at: T0 }],
      [a, { action: "add", subject: ref(c), at: T0 }],
    ]);
    const next = (action: MembershipEntry["action"], subject: MembershipEntry["subject"], author: IdentityKeys, epoch = log.epoch): MembershipEntry => ({
      ...entries[2]!.record,
      seq: 3,
      prev: log.head.hash,
      action,
      subject,
      epoch,
      author: author.userId,
      authorKeyId: author.keyId,
    });
    const refusals: [MembershipEntry, IdentityKeys][] = [
      [next("remove", ref(c), b), b], // a member who is not an admin removes someone
      [next("add", ref(d), b), b],
      [next("promote", ref(b), b), b],
      [next("rekey", null, b, 1), b],
      [next("add", ref(d), d), d], // not a member at all
    ];
    for (const [record, author] of refusals) {
      await expectRefusal(verifyLog(CONTAINER, [...entries, await forged(record, author)], keysOf), "not_permitted");
      await expectRefusal(appendToLog(log, { action: record.action as "add", subject: record.subject, at: T0 }, author), "not_permitted");
    }
  });

  it("refuses changes that do not fit the members, an epoch that does not follow, a second create", async () => {
    const { keysOf, me } = await setting();
    const [a, b, c] = [await me(1), await me(2), await me(3)];
    const { entries, log } = await build(keysOf, [
      [a, null],
      [a, { action: "add", subject: ref(b), at: T0 }],
    ]);
    const next = (changes: Partial<MembershipEntry>): MembershipEntry => ({ ...entries[1]!.record, seq: 2, prev: log.head.hash, ...changes });
    const broken = [
      next({ action: "add", subject: ref(b) }),
      next({ action: "remove", subject: ref(c) }),
      next({ action: "remove", subject: { ...ref(b), keyId: a.keyId } }),
      next({ action: "remove", subject: ref(a) }),
      next({ action: "promote", subject: ref(c) }),
      next({ action: "promote", subject: ref(a) }),
      next({ action: "rekey", subject: null, epoch: 2 }),
      next({ action: "add", subject: ref(c), epoch: 1 }),
      next({ action: "create", subject: ref(a) }),
      next({ container: membershipContainer("conversation", 43) }),
      next({ seq: 3 }),
      next({ prev: await entryHash(entries[0]!) }),
    ];
    for (const record of broken) await expectRefusal(verifyLog(CONTAINER, [...entries, await forged(record, a)], keysOf), "bad_chain");
    const create = await createLog(CONTAINER, a, T0);
    await expectRefusal(verifyLog(CONTAINER, [await forged({ ...create.record, epoch: 1 }, a)], keysOf), "bad_chain");
    await expectRefusal(verifyLog(CONTAINER, [await forged({ ...create.record, subject: ref(b) }, a)], keysOf), "bad_chain");
    await expectRefusal(verifyLog(CONTAINER, [await forged({ ...entries[1]!.record, seq: 0, prev: "" }, a)], keysOf), "bad_chain");
    await expectRefusal(verifyLog(CONTAINER, [], keysOf), "bad_chain");
    await expectRefusal(verifyLog(membershipContainer("conversation", 43), entries, keysOf), "bad_chain");
  });

  it("an admin demotes another admin of a conversation, whose changes are refused from then on; never oneself, a member who is no admin, or a group's admin", async () => {
    const { keysOf, a, b, c, entries, log } = await threeMembers((a, b) => [[a, { action: "promote", subject: ref(b), at: T0 }]]);
    expect(log.admins).toEqual([1, 2]);
    const demote = await appendToLog(log, { action: "demote", subject: ref(b), at: T0 + 1 }, a);
    const demoted = await extendLog(log, [demote], keysOf);
    expect(demoted.admins).toEqual([1]);
    expect(demoted.members.map((m) => m.userId)).toEqual([1, 2, 3]);
    expect(await verifyLog(CONTAINER, [...entries, demote], keysOf)).toEqual(demoted);
    // From then on b's changes are not permitted.
    await expectRefusal(appendToLog(demoted, { action: "remove", subject: ref(c), at: T0 + 2 }, b), "not_permitted");
    const next = (changes: Partial<MembershipEntry>): MembershipEntry => ({ ...demote.record, ...changes });
    // b, no admin any more, demotes a; c, never an admin, demotes a.
    await expectRefusal(verifyLog(CONTAINER, [...entries, demote, await forged(next({ seq: 5, prev: demoted.head.hash, author: 2, authorKeyId: b.keyId, subject: ref(a) }), b)], keysOf), "not_permitted");
    await expectRefusal(verifyLog(CONTAINER, [...entries, await forged(next({ author: 3, authorKeyId: c.keyId, subject: ref(a) }), c)], keysOf), "not_permitted");
    for (const broken of [
      next({ subject: ref(a) }), // oneself
      next({ subject: ref(c) }), // a member who is no admin
      next({ subject: { ...ref(b), keyId: c.keyId } }), // b under another key
    ]) {
      await expectRefusal(verifyLog(CONTAINER, [...entries, await forged(broken, a)], keysOf), "bad_chain");
    }
    // A group's admins stay admins.
    const GROUP = membershipContainer("group", 7);
    const group = [await createLog(GROUP, a, T0)];
    let groupLog = await verifyLog(GROUP, group, keysOf);
    for (const change of [{ action: "add" as const, subject: ref(b), at: T0 }, { action: "promote" as const, subject: ref(b), at: T0 }]) {
      group.push(await appendToLog(groupLog, change, a));
      groupLog = await verifyLog(GROUP, group, keysOf);
    }
    await expectRefusal(appendToLog(groupLog, { action: "demote", subject: ref(b), at: T0 }, a), "bad_chain");
  });

  it("refuses a swapped entry, an entry left out, and an entry signed by someone other than its author", async () => {
    const { keysOf, b, entries } = await threeMembers((a, b) => [[a, { action: "promote", subject: ref(b), at: T0 }]]);
    const [e0, e1, e2, e3] = entries as [SignedMembershipEntry, SignedMembershipEntry, SignedMembershipEntry, SignedMembershipEntry];
    for (const order of [[e0, e2, e1, e3], [e0, e1, e3], [e1, e0, e2, e3]]) await expectRefusal(verifyLog(CONTAINER, order, keysOf), "bad_chain");
    const byB = { ...e3, signature: (await forged(e3.record, b)).signature };
    await expectRefusal(verifyLog(CONTAINER, [e0, e1, e2, byB], keysOf), "bad_signature");
  });

  it("extends a verified log by new entries as a replay of the whole log would, and refuses what the replay refuses", async () => {
    const { keysOf, a, b, c, entries, log } = await threeMembers();
    const remove = await appendToLog(log, { action: "remove", subject: ref(c), at: T0 + 1 }, a);
    const removed = await extendLog(log, [remove], keysOf);
    const rekey = await appendToLog(removed, { action: "rekey", subject: null, at: T0 + 2 }, a);
    const extended = await extendLog(removed, [rekey], keysOf);
    expect(extended).toEqual(await verifyLog(CONTAINER, [...entries, remove, rekey], keysOf));
    expect(log.history).toHaveLength(3);

    const byB = { ...remove, signature: (await forged(remove.record, b)).signature };
    await expectRefusal(extendLog(log, [byB], keysOf), "bad_signature");
    await expectRefusal(extendLog(log, [rekey], keysOf), "bad_chain");
    await expectRefusal(extendLog(removed, [remove], keysOf), "bad_chain");
    const bRemoves = await forged({ ...remove.record, author: 2, authorKeyId: b.keyId }, b);
    await expectRefusal(extendLog(log, [bRemoves], keysOf), "not_permitted");
    await expectRefusal(extendLog(log, [{ ...remove, record: { ...remove.record, container: "group:9" } }], keysOf), "bad_signature");
  });

  it("refuses a fork and a rollback of the head this client remembers", async () => {
    const { keysOf, me } = await setting();
    const [a, b, c, d] = [await me(1), await me(2), await me(3), await me(4)];
    const { entries, log } = await build(keysOf, [
      [a, null],
      [a, { action: "add", subject: ref(b), at: T0 }],
    ]);
    // Two entries at seq 2, both validly signed: the server shows Carol's branch to some, Dora's to others.
    const carol = [...entries, await appendToLog(log, { action: "add", subject: ref(c), at: T0 }, a)];
    const dora = [...entries, await appendToLog(log, { action: "add", subject: ref(d), at: T0 }, a)];
    const seen = (await verifyLog(CONTAINER, carol, keysOf)).head;
    expect((await verifyLog(CONTAINER, carol, keysOf, seen)).head).toEqual(seen);
    await expectRefusal(verifyLog(CONTAINER, dora, keysOf, seen), "log_fork");
    // Rolled back to before the remembered head (a shorter, honest-looking prefix).
    await expectRefusal(verifyLog(CONTAINER, entries, keysOf, seen), "log_fork");
    // A head seen earlier is still in the longer log.
    expect((await verifyLog(CONTAINER, carol, keysOf, log.head)).head).toEqual(seen);
    for (const bad of [{ seq: -1, hash: seen.hash }, { seq: 1, hash: "x" }, { seq: 1 }]) {
      await expectRefusal(verifyLog(CONTAINER, carol, keysOf, bad as never), "invalid_input");
    }
  });

  it("every field of an entry changed is refused", { timeout: 120_000 }, async () => {
    const { keysOf, me } = await setting();
    const [a, b, c] = [await me(1), await me(2), await me(3)];
    const { entries } = await build(keysOf, [
      [a, null],
      [a, { action: "add", subject: ref(b), at: T0 }],
      [a, { action: "promote", subject: ref(b), at: T0 }],
      [b, { action: "add", subject: ref(c), at: T0 }],
    ]);
    // Fields that name the author's key: the lookup knows no such key (untrusted_key) or it is
    // another user's (bad_signature). The container's shape allows no prefix.
    const special: Record<string, ("untrusted_key" | "bad_signature" | "malformed_record")[]> = {
      "record.author + 1": ["untrusted_key", "bad_signature"],
      "record.authorKeyId bit flipped": ["untrusted_key"],
      "record.container changed": ["malformed_record"],
    };
    let count = 0;
    for (const [index, entry] of entries.entries()) {
      for (const mutation of recordMutations(entry, ["bad_signature"])) {
        const log = entries.map((e, i) => (i === index ? mutation.value : e)) as SignedMembershipEntry[];
        await expectRefusal(verifyLog(CONTAINER, log, keysOf), ...(special[mutation.label] ?? mutation.codes!)).catch((failure: Error) => {
          throw new Error(`entry ${index}: ${mutation.label}: ${failure.message}`);
        });
        count++;
      }
    }
    expect(count).toBeGreaterThan(100);
  });

  it("refuses malformed input", async () => {
    const { keysOf, me } = await setting();
    const a = await me(1);
    const create = await createLog(CONTAINER, a, T0);
    await expectRefusal(verifyLog("conversation:0", [create], keysOf), "invalid_input");
    await expectRefusal(verifyLog(CONTAINER, "x" as never, keysOf), "malformed_record");
    await expectRefusal(verifyLog(CONTAINER, [{ ...create, record: { ...create.record, subject: null } }], keysOf), "malformed_record");
    await expectRefusal(createLog("room:1", a, T0), "invalid_input");
    expect(() => membershipContainer("conversation", 0)).toThrow(/container/);
    expect(membershipContainer("group", 7)).toBe("group:7");
  });
});
