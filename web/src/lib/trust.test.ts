import { type IdentityBundle, keypairRecord } from "@sealwork/contracts";
import {
  type AccountKeys,
  type SignedIdentity,
  accountPublicKeys,
  type SignedLegacyKey,
  certifyLegacyKey,
  createLegacyIdentity,
  createInvitation,
  createLegacyRule,
  createInvitedIdentity,
  createKeyReset,
  createResetIdentity,
  createRootIdentity,
  generateAccountKeys,
  identityKeys,
  keyId,
  openAccountData,
  rotateIdentity,
  signRecord,
} from "@sealwork/crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { UnlockedKeys } from "./unlocked-keys";

// The API answers from the fake server below; texts are their keys; no session store in Node.
const server = vi.hoisted(() => ({
  bundles: new Map<number, unknown>(),
  roots: [] as unknown[],
  legacyRule: null as unknown,
  pins: { data: null as string | null, rev: 0 },
  conflicts: 0,
  saves: 0,
}));
vi.mock("./api", () => ({
  isApiError: (error: unknown, status?: number) => (error as { status?: number })?.status === status,
  call: vi.fn(async (key: string, options: { params?: { id: number }; body?: { data: string; rev: number } } = {}) => {
    if (key === "GET /api/identities/anchors") return { roots: server.roots, setup_user_id: 1, legacy_rule: server.legacyRule };
    if (key === "GET /api/identities/{id}") return server.bundles.get(options.params!.id) ?? { chain: null, legacy: null };
    if (key === "GET /api/identities/pins") return { ...server.pins };
    if (key === "PUT /api/identities/pins") {
      if (server.conflicts > 0 || options.body!.rev !== server.pins.rev) {
        server.conflicts = Math.max(0, server.conflicts - 1);
        throw Object.assign(new Error("pins_conflict"), { status: 409 });
      }
      server.saves++;
      server.pins = { data: options.body!.data, rev: server.pins.rev + 1 };
      return { rev: server.pins.rev };
    }
    throw new Error(`unexpected call ${key}`);
  }),
}));
vi.mock("./i18n", () => ({ i18next: { t: (key: string) => key } }));
vi.mock("./unlocked-keys", () => ({ getUnlockedKeys: () => null }));

const { contactKey, fetchBundle, handOverBundles, pinLegacyRule, setVerified, TrustError } = await import("./trust");
const { call } = await import("./api");
const { forgetPins } = await import("./pins");

const DAY = 86_400_000;

interface Person {
  keys: AccountKeys[];
  records: SignedIdentity[];
}

async function holder(uid: number): Promise<UnlockedKeys> {
  const keys = await generateAccountKeys();
  return { uid, keyId: uid, keys, publicKeys: await accountPublicKeys(keys) };
}

/** The keys `person` holds now, unlocked as user `uid`. */
async function holderOf(uid: number, person: Person): Promise<UnlockedKeys> {
  const keys = person.keys.at(-1)!;
  return { uid, keyId: uid, keys, publicKeys: await accountPublicKeys(keys) };
}

/** An instance: root 1; user 2 invited by the root. */
async function instance() {
  const rootKeys = await generateAccountKeys();
  const root: Person = { keys: [rootKeys], records: [await createRootIdentity({ userId: 1, email: "root@example.org", created: Date.now() }, rootKeys)] };
  const invite = async (userId: number): Promise<Person> => {
    const temp = await generateAccountKeys();
    const invitation = await createInvitation({ inviteId: 100 + userId, email: `u${userId}@example.org`, temp: await accountPublicKeys(temp), expires: Date.now() + DAY }, await identityKeys(1, rootKeys));
    const keys = await generateAccountKeys();
    return { keys: [keys], records: [await createInvitedIdentity({ userId, created: Date.now(), invitation }, keys, temp)] };
  };
  const serve = (userId: number, person: Person) =>
    server.bundles.set(userId, { chain: { userId, records: person.records, issuers: userId === 1 ? [] : [{ userId: 1, records: root.records }], admins: [] }, legacy: null });
  server.roots = root.records;
  serve(1, root);
  return { root, invite, serve };
}

async function legacy(uid: number) {
  const keys = await generateAccountKeys();
  const pub = await accountPublicKeys(keys);
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = await signRecord(keys.sign.privateKey, keypairRecord({ uid, ...pub, timestamp }));
  server.bundles.set(uid, { chain: null, legacy: { id: 50 + uid, encrypt_public: pub.encryptPublic, sign_public: pub.signPublic, timestamp, signature: { ...signature } } });
  return keys;
}

/** Bob (2), invited by the root, pinned by user 4 and marked verified. */
async function verifiedBob() {
  const world = await instance();
  const bob = await world.invite(2);
  world.serve(2, bob);
  const me = await holder(4);
  const first = await contactKey(me, 2);
  await setVerified(me, 2, first.keyId, true);
  return { world, bob, me, first };
}

/** `person`'s next key, certified by their current one. */
async function rotate(person: Person): Promise<Person> {
  const next = await generateAccountKeys();
  return { keys: [...person.keys, next], records: [...person.records, await rotateIdentity(person.records.at(-1)!, person.keys.at(-1)!, { created: Date.now() }, next)] };
}

/** The root resets the key of `uid` (`person`'s chain, or none with `email`), and they take the reset over with fresh keys. */
async function resetByRoot(world: Awaited<ReturnType<typeof instance>>, uid: number, person: Person | null, email?: string): Promise<Person> {
  const temp = await generateAccountKeys();
  const current = person?.records.at(-1) ?? null;
  const reset = await createKeyReset({ userId: uid, current, email, temp: await accountPublicKeys(temp), expires: Date.now() + DAY }, await identityKeys(1, world.root.keys[0]!));
  const fresh = await generateAccountKeys();
  const record = await createResetIdentity({ current, created: Date.now(), reset }, fresh, temp);
  return { keys: [...(person?.keys ?? []), fresh], records: [...(person?.records ?? []), record] };
}

/** The administrator `issuer` (the root unless said) certifies the v1 key served for `uid`, served with it from now on. */
async function certify(world: Awaited<ReturnType<typeof instance>>, uid: number, issuer: { userId: number; person: Person } = { userId: 1, person: world.root }) {
  const bundle = server.bundles.get(uid) as { legacy: IdentityBundle["legacy"] & object };
  const keys = { encryptPublic: bundle.legacy.encrypt_public, signPublic: bundle.legacy.sign_public };
  const me = await identityKeys(issuer.userId, issuer.person.keys.at(-1)!);
  const certificate = await certifyLegacyKey({ userId: uid, keys, anchor: await keyId(await accountPublicKeys(world.root.keys[0]!)), certified: Date.now() }, me);
  const issuerChain = { userId: issuer.userId, records: issuer.person.records, issuers: issuer.userId === 1 ? [] : [{ userId: 1, records: world.root.records }], admins: [] };
  server.bundles.set(uid, { ...bundle, legacy: { ...bundle.legacy, certificate, issuer: issuerChain } });
}

/** The anchors answer as the key popup passes it to pinLegacyRule after an unlock. */
const anchorsAnswer = () => ({ roots: server.roots, legacy_rule: server.legacyRule });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(TrustError);
  return (error as InstanceType<typeof TrustError>).reason;
}

beforeEach(() => {
  server.bundles.clear();
  server.roots = [];
  server.legacyRule = null;
  server.pins = { data: null, rev: 0 };
  server.conflicts = 0;
  server.saves = 0;
  forgetPins();
});

describe("trusting contacts' keys (protocol v2 pins)", () => {
  it("pins the anchors and a contact at first use, in encrypted account data a second browser opens", async () => {
    const world = await instance();
    const bob = await world.invite(2);
    world.serve(2, bob);
    const me = await holder(4);
    const contact = await contactKey(me, 2);
    expect(contact).toMatchObject({ userId: 2, seq: 0, certified: true, verified: false });
    expect(server.pins.data).not.toContain(contact.keyId);
    const book = (await openAccountData(me.keys, { userId: 4, kind: "pins" }, server.pins.data!)) as { anchors: string[]; pins: Record<string, unknown> };
    expect(book.anchors).toHaveLength(1);
    expect(book.pins["2"]).toEqual({ userId: 2, keyId: contact.keyId, seq: 0, verified: false });

    // Another browser of the same user: the same pins from the server; the verified mark too.
    await setVerified(me, 2, contact.keyId, true);
    forgetPins();
    expect(await contactKey(me, 2)).toMatchObject({ verified: true });
  });

  it("follows a rotation signed by the pinned key, keeping the mark; refuses an old record and a key without a chain", async () => {
    const { world, bob, me } = await verifiedBob();
    const rotated = await rotate(bob);
    world.serve(2, rotated);
    expect(await contactKey(me, 2)).toMatchObject({ seq: 1, verified: true, certified: true });

    // The server serves the chain before the rotation again.
    world.serve(2, bob);
    expect(await refusal(contactKey(me, 2))).toBe("stale_key");
    // Or another identity for Bob, certified by an invitation and rotated once (seq 1 as pinned):
    // a key change without a chain from the pinned key.
    const fake = await world.invite(2);
    const fakeNext = await generateAccountKeys();
    world.serve(2, { keys: [...fake.keys, fakeNext], records: [...fake.records, await rotateIdentity(fake.records[0]!, fake.keys[0]!, { created: Date.now() }, fakeNext)] });
    expect(await refusal(contactKey(me, 2))).toBe("untrusted_key");
    // Or a chain that does not verify at all (a record changed).
    world.serve(2, { ...rotated, records: [rotated.records[0]!, { ...rotated.records[1]!, record: { ...rotated.records[1]!.record, created: 5 } }] });
    expect(await refusal(contactKey(me, 2))).toBe("untrusted_key");
  });

  it("refuses a chain resting on a root other than the pinned one", async () => {
    const world = await instance();
    const bob = await world.invite(2);
    world.serve(2, bob);
    const me = await holder(4);
    await contactKey(me, 2);
    // A new instance (another root) serving Carol: her chain ends at a root this client never pinned.
    const other = await instance();
    const carol = await other.invite(3);
    other.serve(3, carol);
    expect(await refusal(contactKey(me, 3))).toBe("untrusted_key");
  });

  it("at first use pins only the root the user's own identity rests on, of the roots the server shows", async () => {
    // Another instance's root, which the server shows beside this one's, with Carol certified under it.
    const other = await instance();
    const carol = await other.invite(3);
    other.serve(3, carol);
    const world = await instance();
    server.roots = [...world.root.records, ...other.root.records];
    const bob = await world.invite(2);
    world.serve(2, bob);
    const mine = await world.invite(4);
    world.serve(4, mine);
    const me = await holderOf(4, mine);

    expect(await refusal(contactKey(me, 3))).toBe("untrusted_key");
    expect(await contactKey(me, 2)).toMatchObject({ certified: true });
    const book = (await openAccountData(me.keys, { userId: 4, kind: "pins" }, server.pins.data!)) as { anchors: string[] };
    expect(book.anchors).toEqual([await keyId(await accountPublicKeys(world.root.keys[0]!))]);
  });

  it("pins no anchors when the user's own identity rests on none of the roots shown, or does not hold their key", async () => {
    const other = await instance();
    const world = await instance();
    const bob = await world.invite(2);
    world.serve(2, bob);
    const mine = await world.invite(4);
    world.serve(4, mine);
    const me = await holderOf(4, mine);
    // Only a root of the server's own.
    server.roots = other.root.records;
    expect(await refusal(contactKey(me, 2))).toBe("untrusted_key");
    expect(server.pins.data).toBeNull();
    // The instance's root, but a chain for user 4 that is not the one their key rests on.
    server.roots = world.root.records;
    world.serve(4, await world.invite(4));
    expect(await refusal(contactKey(me, 2))).toBe("untrusted_key");
    expect(server.pins.data).toBeNull();
    // Their own chain again, with a key reset after their key by an administrator of the server's
    // making, whose root is shown too: the records up to the key they hold decide which is pinned.
    const adminKeys = await generateAccountKeys();
    const adminRoot = await createRootIdentity({ userId: 99, email: "admin99@example.org", created: Date.now() }, adminKeys);
    const temp = await generateAccountKeys();
    const reset = await createKeyReset({ userId: 4, current: mine.records[0]!, temp: await accountPublicKeys(temp), expires: Date.now() + DAY }, await identityKeys(99, adminKeys));
    const forged = await createResetIdentity({ current: mine.records[0]!, created: Date.now(), reset }, await generateAccountKeys(), temp);
    server.roots = [adminRoot, ...world.root.records];
    server.bundles.set(4, { chain: { userId: 4, records: [...mine.records, forged], issuers: [{ userId: 1, records: world.root.records }, { userId: 99, records: [adminRoot] }], admins: [] }, legacy: null });
    expect(await contactKey(me, 2)).toMatchObject({ certified: true });
    const book = (await openAccountData(me.keys, { userId: 4, kind: "pins" }, server.pins.data!)) as { anchors: string[] };
    expect(book.anchors).toEqual([await keyId(await accountPublicKeys(world.root.keys[0]!))]);
  });

  it("pins a v1 contact's key on first use as not certified; refuses another key, and a certified contact going back to v1", async () => {
    const world = await instance();
    const me = await holder(4);
    await legacy(3);
    const first = await contactKey(me, 3);
    expect(first).toMatchObject({ certified: false, verified: false });
    expect((await contactKey(me, 3)).keyId).toBe(first.keyId);
    await legacy(3);
    expect(await refusal(contactKey(me, 3))).toBe("untrusted_key");

    const bob = await world.invite(2);
    world.serve(2, bob);
    await contactKey(me, 2);
    await legacy(2);
    expect(await refusal(contactKey(me, 2))).toBe("untrusted_key");
    // Nobody with no key at all.
    expect(await refusal(contactKey(me, 9))).toBe("no_key");
  });

  it("follows an administrator's key reset: the pin moves, loses its mark and says reset until verified again", async () => {
    const { world, bob, me, first } = await verifiedBob();
    expect(await contactKey(me, 2)).toMatchObject({ verified: true, reset: false });

    // Bob lost his key: the root resets it, Bob takes the reset over with fresh keys.
    const afterReset = await resetByRoot(world, 2, bob);
    world.serve(2, afterReset);
    const reseated = await contactKey(me, 2);
    expect(reseated).toMatchObject({ seq: 1, certified: true, verified: false, reset: true });
    expect(reseated.keyId).not.toBe(first.keyId);
    const book = (await openAccountData(me.keys, { userId: 4, kind: "pins" }, server.pins.data!)) as { pins: Record<string, unknown> };
    expect(book.pins["2"]).toEqual({ userId: 2, keyId: reseated.keyId, seq: 1, verified: false, reset: true });

    // Another browser of the same user: the mark is in the pins. A rotation after the reset keeps it.
    forgetPins();
    expect(await contactKey(me, 2)).toMatchObject({ reset: true });
    const rotatedAfter = await rotate(afterReset);
    world.serve(2, rotatedAfter);
    const rotated = await contactKey(me, 2);
    expect(rotated).toMatchObject({ seq: 2, verified: false, reset: true });

    // Compared and marked verified: the reset is behind them, also once the mark is taken back.
    await setVerified(me, 2, rotated.keyId, true);
    expect(await contactKey(me, 2)).toMatchObject({ verified: true, reset: false });
    await setVerified(me, 2, rotated.keyId, false);
    expect(await contactKey(me, 2)).toMatchObject({ verified: false, reset: false });

    // Someone who meets Bob for the first time right after the reset is told too; not after his rotation.
    forgetPins();
    server.pins = { data: null, rev: 0 };
    world.serve(2, afterReset);
    expect(await contactKey(await holder(5), 2)).toMatchObject({ reset: true, verified: false });
    forgetPins();
    server.pins = { data: null, rev: 0 };
    world.serve(2, rotatedAfter);
    expect(await contactKey(await holder(6), 2)).toMatchObject({ reset: false });
  });

  it("a v1 contact whose key an administrator reset is pinned from the reset's birth record, marked reset", async () => {
    const world = await instance();
    const me = await holder(4);
    await legacy(3);
    const old = await contactKey(me, 3);
    await setVerified(me, 3, old.keyId, true);
    world.serve(3, await resetByRoot(world, 3, null, "u3@example.org"));
    expect(await contactKey(me, 3)).toMatchObject({ seq: 0, certified: true, verified: false, reset: true });
  });

  it("a v1 contact who becomes certified is pinned anew, without the old mark", async () => {
    const world = await instance();
    const me = await holder(4);
    await legacy(2);
    const old = await contactKey(me, 2);
    await setVerified(me, 2, old.keyId, true);
    world.serve(2, await world.invite(2));
    expect(await contactKey(me, 2)).toMatchObject({ certified: true, verified: false });
  });

  it("a v1 contact whose certified v1 key certifies their first identity is followed to it, the verified mark carried", async () => {
    const world = await instance();
    const me = await holder(4);
    const v1 = await legacy(3);
    // Someone who pinned the v1 key before an administrator certified it.
    const early = await holder(5);
    expect(await contactKey(early, 3)).toMatchObject({ certified: false });
    await certify(world, 3);
    const old = await contactKey(me, 3);
    await setVerified(me, 3, old.keyId, true);
    const certificate = (server.bundles.get(3) as { legacy: { certificate: SignedLegacyKey } }).legacy.certificate;
    const fresh = await generateAccountKeys();
    const birth = await createLegacyIdentity({ userId: 3, email: "u3@example.org", created: Date.now(), certificate }, fresh, v1);
    world.serve(3, { keys: [fresh], records: [birth] });
    const moved = await contactKey(me, 3);
    expect(moved).toMatchObject({ keyId: await keyId(await accountPublicKeys(fresh)), seq: 0, certified: true, verified: true, reset: false });
    // Pinned as a certified identity now: going back to the v1 key is refused.
    await legacy(3);
    expect(await refusal(contactKey(me, 3))).toBe("untrusted_key");
    // The one who pinned it uncertified follows it too, without a warning; someone new pins it.
    world.serve(3, { keys: [fresh], records: [birth] });
    expect(await contactKey(early, 3)).toMatchObject({ keyId: moved.keyId, certified: true, verified: false, reset: false });
    expect(await contactKey(await holder(6), 3)).toMatchObject({ keyId: moved.keyId, certified: true, verified: false });
  });

  it("takes a v1 key an administrator certified as certified; refuses a certificate that does not verify, and going back to uncertified", async () => {
    const world = await instance();
    const me = await holder(4);
    await legacy(3);
    // Pinned on first use, compared, then certified: the same key, so the mark stays.
    const first = await contactKey(me, 3);
    await setVerified(me, 3, first.keyId, true);
    await certify(world, 3);
    expect(await contactKey(me, 3)).toMatchObject({ keyId: first.keyId, certified: true, verified: true });
    // The server drops the certificate again: refused, not shown as "not certified".
    const certified = server.bundles.get(3) as { legacy: object };
    server.bundles.set(3, { ...certified, legacy: { ...certified.legacy, certificate: null, issuer: null } });
    expect(await refusal(contactKey(me, 3))).toBe("untrusted_key");

    // A certificate by a member who is no administrator, or for another user's key.
    const bob = await world.invite(2);
    await legacy(5);
    await certify(world, 5, { userId: 2, person: bob });
    expect(await refusal(contactKey(me, 5))).toBe("untrusted_key");
    await legacy(6);
    await certify(world, 6);
    const other = server.bundles.get(6) as { legacy: { certificate: unknown; issuer: unknown } };
    const five = server.bundles.get(5) as { legacy: object };
    server.bundles.set(5, { ...five, legacy: { ...five.legacy, certificate: other.legacy.certificate, issuer: other.legacy.issuer } });
    expect(await refusal(contactKey(me, 5))).toBe("untrusted_key");
    expect(await contactKey(me, 6)).toMatchObject({ certified: true, verified: false });
  });

  it("once the root's legacy rule is pinned, an uncertified v1 key is refused, on first contact too; a certified one is taken", async () => {
    const world = await instance();
    const me = await holder(4);
    // The anchors are pinned at the first unlock, before any rule is looked at.
    await contactKey(me, 1);
    await legacy(3);
    await contactKey(me, 3);
    // A rule not signed by the pinned root is not pinned.
    const stranger = await instance();
    server.roots = stranger.root.records;
    server.legacyRule = await createLegacyRule({ made: Date.now() }, await identityKeys(1, stranger.root.keys[0]!));
    await pinLegacyRule(me, anchorsAnswer());
    expect(await contactKey(me, 3)).toMatchObject({ certified: false });
    server.roots = world.root.records;
    server.legacyRule = await createLegacyRule({ made: Date.now() }, await identityKeys(1, world.root.keys[0]!));
    await pinLegacyRule(me, anchorsAnswer());
    const book = (await openAccountData(me.keys, { userId: 4, kind: "pins" }, server.pins.data!)) as { legacyRule?: boolean };
    expect(book.legacyRule).toBe(true);

    // The contact pinned before, and someone never met: both refused with the rule's text.
    expect(await refusal(contactKey(me, 3))).toBe("untrusted_key");
    await legacy(7);
    const error = await contactKey(me, 7).catch((failure: unknown) => failure);
    expect(error).toMatchObject({ reason: "untrusted_key", message: "common:trust.uncertified_key" });
    // Certified, they are contacts again; the server withholding the rule later changes nothing.
    await certify(world, 7);
    expect(await contactKey(me, 7)).toMatchObject({ certified: true });
    server.legacyRule = null;
    forgetPins();
    await legacy(8);
    expect(await refusal(contactKey(me, 8))).toBe("untrusted_key");
  });

  it("takes a bundle a batch handed over once, verified like any answer, and asks the server after that", async () => {
    const world = await instance();
    const ann = await world.invite(2);
    const me = await holder(4);
    await contactKey(me, 1);
    const lookups = () => vi.mocked(call).mock.calls.filter(([key]) => key === "GET /api/identities/{id}").length;
    const before = lookups();
    const bundle = (userId: number, person: Person, root: Person) =>
      [userId, { chain: { userId, records: person.records, issuers: [{ userId: 1, records: root.records }], admins: [] }, legacy: null } as unknown as IdentityBundle] as const;
    handOverBundles([bundle(2, ann, world.root)]);
    expect(await contactKey(me, 2)).toMatchObject({ certified: true });
    expect(lookups()).toBe(before);
    // Handed over once: the next look-up asks (and the server has nothing for Ann here).
    await refusal(contactKey(me, 2));
    expect(lookups()).toBe(before + 1);
    // A handed bundle is no more trusted than an answer: one on another root is refused.
    const other = await instance();
    const ben = await other.invite(3);
    handOverBundles([bundle(3, ben, other.root)]);
    expect(await refusal(contactKey(me, 3))).not.toBe("lookup");
  });

  it("asks the server, not a handed bundle, when a screen wants the identity as it is now", async () => {
    const world = await instance();
    const ann = await world.invite(2);
    world.serve(2, ann);
    const lookups = () => vi.mocked(call).mock.calls.filter(([key]) => key === "GET /api/identities/{id}").length;
    const before = lookups();
    const stale = { chain: null, legacy: null } as unknown as IdentityBundle;
    handOverBundles([[2, stale]]);
    const now = await fetchBundle(2, true);
    expect(lookups()).toBe(before + 1);
    expect(now).not.toBe(stale);
    expect(now.chain).not.toBeNull();
  });

  it("keeps another window's change when both save at once", async () => {
    const world = await instance();
    world.serve(2, await world.invite(2));
    const me = await holder(4);
    await contactKey(me, 2);
    // Another window saved in between: this save is refused once, reloads theirs and saves again.
    server.conflicts = 1;
    await legacy(3);
    await contactKey(me, 3);
    const book = (await openAccountData(me.keys, { userId: 4, kind: "pins" }, server.pins.data!)) as { pins: Record<string, unknown> };
    expect(Object.keys(book.pins).sort()).toEqual(["2", "3"]);
  });
});
