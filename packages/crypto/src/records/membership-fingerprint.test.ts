import { describe, expect, it } from "vitest";
import { expectRefusal } from "../test-support";
import vectors from "../vectors.json";
import { verifyIdentity } from "./identity-chain";
import { type KeysOf, keyLookup } from "./identity-keys";
import { membershipFingerprint } from "./membership-fingerprint";
import { type LogHead, type SignedMembershipEntry, appendToLog, createLog, membershipContainer, verifyLog } from "./membership-log";
import { T0, World } from "./v2-test-support";

const known = vectors.v2.membershipFingerprints;
const SHAPE = /^\d{4} \d{4} \d{4}$/;

/** A conversation's log forked after its first add: one branch adds user 3, the other user 4 (both signed by its creator). */
async function forked() {
  const world = await World.create();
  for (const user of [2, 3, 4]) await world.invite(1, user);
  const keysOf: KeysOf = keyLookup(await Promise.all([1, 2, 3, 4].map((user) => verifyIdentity(world.chain(user), world.trust))));
  const [a, b, c, d] = [await world.me(1), await world.me(2), await world.me(3), await world.me(4)];
  const container = membershipContainer("conversation", 42);
  const entries: SignedMembershipEntry[] = [await createLog(container, a, T0)];
  entries.push(await appendToLog(await verifyLog(container, entries, keysOf), { action: "add", subject: { userId: b.userId, keyId: b.keyId }, at: T0 }, a));
  const common = await verifyLog(container, entries, keysOf);
  const branch = async (userId: number, keyId: string) => verifyLog(container, [...entries, await appendToLog(common, { action: "add", subject: { userId, keyId }, at: T0 + 1 }, a)], keysOf);
  return { common, left: await branch(c.userId, c.keyId), right: await branch(d.userId, d.keyId) };
}

describe("membershipFingerprint", () => {
  it("gives the known answers of the second implementation (scripts/make-vectors.mjs)", async () => {
    expect(known.length).toBeGreaterThan(0);
    for (const v of known) expect(await membershipFingerprint({ container: v.container, head: v.head })).toBe(v.fingerprint);
  });

  it("is the vectors' verified logs' own: the conversation's and the group's heads", async () => {
    expect(known[0]!.head).toEqual(vectors.v2.membershipLog.state.head);
    expect(known[0]!.container).toBe(vectors.v2.membershipLog.container);
    expect(known[1]!.head).toEqual(vectors.v2.group.log.state.head);
    expect(known[1]!.container).toBe(vectors.v2.group.log.container);
  });

  it("tells the two branches of a forked log apart, and is the same for the same head", async () => {
    const { common, left, right } = await forked();
    const [shared, l, r] = await Promise.all([common, left, right].map(membershipFingerprint));
    for (const value of [shared, l, r]) expect(value).toMatch(SHAPE);
    expect(l).not.toBe(r);
    expect(l).not.toBe(shared);
    // The same head verified again (another member's client) gives the same digits.
    expect(await membershipFingerprint({ container: left.container, head: { ...left.head } })).toBe(l);
  });

  it("changes with the head's hash, its seq, the container's id and its kind", async () => {
    const { container, head, fingerprint } = known[0]!;
    const other = (change: { container?: string; head?: LogHead }) => membershipFingerprint({ container, head, ...change });
    const flipped = (head.hash[0] === "A" ? "B" : "A") + head.hash.slice(1);
    const variants = await Promise.all([
      other({ head: { ...head, hash: flipped } }),
      other({ head: { ...head, hash: known[1]!.head.hash } }),
      other({ head: { ...head, seq: head.seq + 1 } }),
      other({ head: { ...head, seq: head.seq - 1 } }),
      other({ container: "conversation:43" }),
      other({ container: "group:42" }),
    ]);
    for (const value of variants) {
      expect(value).toMatch(SHAPE);
      expect(value).not.toBe(fingerprint);
    }
    expect(new Set(variants).size).toBe(variants.length);
  });

  it("refuses what is not a container and a head", async () => {
    const { container, head } = known[0]!;
    for (const bad of ["conversation:042", "conversation:0", "page:42", "conversation:99999999999999999", "", " conversation:42"]) {
      await expectRefusal(membershipFingerprint({ container: bad, head }), "invalid_input");
    }
    for (const bad of [{ seq: -1, hash: head.hash }, { seq: 1.5, hash: head.hash }, { seq: 1, hash: "short" }, { seq: 1 }, null]) {
      await expectRefusal(membershipFingerprint({ container, head: bad as never }), "invalid_input");
    }
    await expectRefusal(membershipFingerprint(null as never), "invalid_input");
  });
});
