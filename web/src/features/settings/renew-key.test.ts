import {
  type SignedIdentity,
  accountPublicKeys,
  checkPin,
  createInvitation,
  createInvitedIdentity,
  createRootIdentity,
  certifyLegacyKey,
  generateAccountKeys,
  identityKeys,
  keyId,
  lockAccountKeys,
  openAccountData,
  unwrapAccountKeys,
  verifyIdentity,
} from "@sealwork/crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";

// A fake server: the user's chain, their keypairs and their sealed pins; the device's vault.
const fake = vi.hoisted(() => ({
  chain: null as { userId: number; records: unknown[]; issuers: unknown[]; admins: unknown[] } | null,
  legacy: null as Record<string, unknown> | null,
  anchors: [] as string[],
  pins: { data: null as string | null, rev: 0 },
  posted: [] as { last_key: number | null; identity?: unknown; backup: unknown }[],
  vault: new Map<number, { keyId: number; envelope: unknown }>(),
  failRegister: false,
  failPins: false,
}));
vi.mock("../../lib/api", () => ({
  isApiError: (error: unknown, status?: number) => (error as { status?: number })?.status === status,
  call: vi.fn(async (key: string, options: { body?: Record<string, unknown> } = {}) => {
    if (key === "GET /api/identities/pins") return { ...fake.pins };
    if (key === "PUT /api/identities/pins") {
      if (fake.failPins) throw Object.assign(new Error("server error"), { status: 500 });
      const body = options.body as { data: string; rev: number };
      if (body.rev !== fake.pins.rev) throw Object.assign(new Error("conflict"), { status: 409 });
      fake.pins = { data: body.data, rev: fake.pins.rev + 1 };
      return { rev: fake.pins.rev };
    }
    if (key === "GET /api/users/{id}") return { id: 2, email: "vera@example.org", phone: null };
    // No groups and no conversations to carry over (features/groups, features/conversations test theirs).
    if (key === "GET /api/users/{id}/groups") return { groups: [] };
    if (key === "GET /api/users/{id}/conversations") return { conversations: [] };
    if (key === "POST /api/keypairs") {
      if (fake.failRegister) throw Object.assign(new Error("refused"), { status: 400 });
      const body = options.body as (typeof fake.posted)[number];
      fake.posted.push(body);
      return { id: 20 + fake.posted.length };
    }
    throw new Error(`unexpected call ${key}`);
  }),
}));
vi.mock("../../lib/i18n", () => ({ i18next: { t: (key: string) => key }, addTranslations: () => undefined }));
vi.mock("../../lib/session", () => ({ getSession: () => ({ id: 2 }), subscribeSession: () => () => undefined }));
vi.mock("../../lib/trust", () => ({
  fetchBundle: async () => ({ chain: fake.chain, legacy: fake.legacy }),
  instanceAnchors: async () => fake.anchors,
}));
vi.mock("../../lib/vault", () => ({
  saveLocalKey: async (uid: number, keyId: number, envelope: unknown) => void fake.vault.set(uid, { keyId, envelope }),
}));

const { PinsLeftBehind, renewAvailability, renewKey } = await import("./renew-key");
const { forgetPins, pinBook, updatePins } = await import("../../lib/pins");
const { getUnlockedKeys, setUnlockedKeys } = await import("../../lib/unlocked-keys");

const NEW_CODE = "a new secure code, long enough 42";

/** The instance's root (1) and Bob (2, whom the root invited), Bob's keys held unlocked (key 11). */
async function bobHolding() {
  const rootKeys = await generateAccountKeys();
  const root = await createRootIdentity({ userId: 1, email: "root@example.org", created: Date.now() }, rootKeys);
  const temp = await generateAccountKeys();
  const invitation = await createInvitation({ inviteId: 9, email: "bob@example.org", temp: await accountPublicKeys(temp), expires: Date.now() + 86_400_000 }, await identityKeys(1, rootKeys));
  const keys = await generateAccountKeys();
  const bob = await createInvitedIdentity({ userId: 2, created: Date.now(), invitation }, keys, temp);
  fake.chain = { userId: 2, records: [bob], issuers: [{ userId: 1, records: [root] }], admins: [] };
  fake.anchors = [await keyId(await accountPublicKeys(rootKeys))];
  const holder = { uid: 2, keyId: 11, keys: await lockAccountKeys(keys), publicKeys: await accountPublicKeys(keys) };
  setUnlockedKeys(holder);
  return { holder, bob, rootKeys };
}

beforeEach(() => {
  fake.legacy = null;
  fake.pins = { data: null, rev: 0 };
  fake.posted = [];
  fake.vault.clear();
  fake.failRegister = false;
  fake.failPins = false;
  forgetPins();
});

describe("renewing one's key (protocol v2 rotation from Settings)", () => {
  it("is offered only for a verified chain whose current record is the held key", async () => {
    const { holder, bob } = await bobHolding();
    expect(await renewAvailability(holder)).toEqual({ ok: true, from: { kind: "identity", current: bob, anchor: fake.anchors[0] } });
    const stranger = { ...holder, publicKeys: await accountPublicKeys(await generateAccountKeys()) };
    expect(await renewAvailability(stranger)).toEqual({ ok: false, reason: "notCurrent" });
    fake.anchors = [await keyId(await accountPublicKeys(await generateAccountKeys()))];
    expect(await renewAvailability(holder)).toEqual({ ok: false, reason: "notVerified" });
    fake.chain = null;
    expect(await renewAvailability(holder)).toEqual({ ok: false, reason: "noIdentity" });
  });

  it("registers a previous-certified record, keeps the new envelope, carries the pins over and switches the keys", async () => {
    const { holder, bob } = await bobHolding();
    const alicePin = { userId: 3, keyId: "alice-key", seq: 0, verified: true };
    await updatePins(holder, (book) => ({ ...book, anchors: fake.anchors, pins: { "3": alicePin }, heads: { "42": { seq: 2, hash: "h".repeat(43) } } }));

    const next = await renewKey(holder, { kind: "identity", current: bob, anchor: fake.anchors[0]! }, NEW_CODE);

    // The server got the next record of Bob's chain, certified by the key he held, in place of key 11.
    expect(fake.posted).toHaveLength(1);
    const posted = fake.posted[0]!;
    expect(posted.last_key).toBe(11);
    const identity = posted.identity as SignedIdentity;
    expect(identity.record.seq).toBe(1);
    expect(identity.record.certifiedBy).toEqual({ kind: "previous", keyId: await keyId(holder.publicKeys) });
    const verified = await verifyIdentity({ ...fake.chain!, records: [bob, identity] } as never, { anchors: fake.anchors });
    expect(verified.keyId).toBe(await keyId(next.publicKeys));
    // A contact's pin of Bob moves to the new key with its verified mark.
    const moved = await checkPin({ userId: 2, keyId: await keyId(holder.publicKeys), seq: 0, verified: true }, verified);
    expect(moved).toMatchObject({ status: "rotated", pin: { verified: true, seq: 1 } });

    // The device keeps the new key's envelope, which the new code opens where the instance's root is named (it is bound to it).
    const stored = fake.vault.get(2)!;
    expect(stored.keyId).toBe(next.keyId);
    await expect(unwrapAccountKeys(stored.envelope as never, NEW_CODE)).rejects.toThrow();
    const opened = await unwrapAccountKeys(stored.envelope as never, NEW_CODE, fake.anchors);
    expect(await accountPublicKeys(opened)).toEqual(next.publicKeys);
    expect(getUnlockedKeys()).toBe(next);

    // The pins are sealed for the new key: it opens them (the old one no longer does), and the
    // cache serves them to the new holder, as a fresh load does.
    const sealed = (await openAccountData(next.keys, { userId: 2, kind: "pins" }, fake.pins.data!)) as { pins: Record<string, unknown>; anchors: string[] };
    expect(sealed.pins["3"]).toEqual(alicePin);
    expect(sealed.anchors).toEqual(fake.anchors);
    await expect(openAccountData(holder.keys, { userId: 2, kind: "pins" }, fake.pins.data!)).rejects.toThrow();
    expect((await pinBook(next)).pins["3"]).toEqual(alicePin);
    // A screen still holding the old key (or the renewal's own work with it) reads and saves the
    // carried book, sealed for the new key: it never starts over an empty one.
    const carolPin = { userId: 4, keyId: "c", seq: 0, verified: false };
    expect((await pinBook(holder)).pins["3"]).toEqual(alicePin);
    await updatePins(holder, (book) => ({ ...book, pins: { ...book.pins, "4": carolPin } }));
    expect(await openAccountData(next.keys, { userId: 2, kind: "pins" }, fake.pins.data!)).toMatchObject({ pins: { "3": alicePin, "4": carolPin } });
    forgetPins();
    const reloaded = await pinBook(next);
    expect(reloaded.pins["3"]).toEqual(alicePin);
    expect(reloaded.heads["42"]).toEqual({ seq: 2, hash: "h".repeat(43) });
  });

  it("saves the pins over another window's change (409) without losing it", async () => {
    const { holder, bob } = await bobHolding();
    await updatePins(holder, (book) => ({ ...book, pins: { "3": { userId: 3, keyId: "a", seq: 0, verified: false } } }));
    // Another window marks a second contact verified after this page loaded the book.
    const { sealAccountData } = await import("@sealwork/crypto");
    const other = { v: 1, anchors: [], pins: { "3": { userId: 3, keyId: "a", seq: 0, verified: false }, "4": { userId: 4, keyId: "b", seq: 0, verified: true } }, heads: {} };
    fake.pins = { data: await sealAccountData(holder.keys, { userId: 2, kind: "pins" }, other), rev: fake.pins.rev + 1 };

    const next = await renewKey(holder, { kind: "identity", current: bob, anchor: fake.anchors[0]! }, NEW_CODE);
    forgetPins();
    expect(Object.keys((await pinBook(next)).pins).sort()).toEqual(["3", "4"]);
  });

  it("changes nothing when the server refuses the new key", async () => {
    const { holder, bob } = await bobHolding();
    await updatePins(holder, (book) => ({ ...book, pins: { "3": { userId: 3, keyId: "a", seq: 0, verified: true } } }));
    const before = fake.pins;
    fake.failRegister = true;
    await expect(renewKey(holder, { kind: "identity", current: bob, anchor: fake.anchors[0]! }, NEW_CODE)).rejects.toThrow("refused");
    expect(fake.pins).toBe(before);
    expect(fake.vault.size).toBe(0);
    expect(getUnlockedKeys()).toBe(holder);
  });

  it("switches to the registered key even when the pins could not be saved for it, and says so", async () => {
    const { holder, bob } = await bobHolding();
    await pinBook(holder);
    fake.failPins = true;
    const failure = await renewKey(holder, { kind: "identity", current: bob, anchor: fake.anchors[0]! }, NEW_CODE).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PinsLeftBehind);
    expect(fake.posted).toHaveLength(1);
    expect(fake.vault.get(2)?.keyId).toBe(21);
    expect(getUnlockedKeys()?.keyId).toBe(21);
  });

  it("refuses a current record that is not the held key's", async () => {
    const { holder } = await bobHolding();
    const someone = await createRootIdentity({ userId: 2, email: "bob@example.org", created: Date.now() }, await generateAccountKeys());
    await expect(renewKey(holder, { kind: "identity", current: someone, anchor: fake.anchors[0]! }, NEW_CODE)).rejects.toThrow();
    expect(fake.posted).toHaveLength(0);
  });

  it("a version 1 account: offered once an administrator's certificate verifies; the birth record is certified by the v1 key", async () => {
    const { rootKeys } = await bobHolding();
    // Bob's keys as a version 1 key (user 2, key 11) without an identity.
    fake.chain = null;
    const holder = getUnlockedKeys()!;
    const v1 = { id: 11, encrypt_public: holder.publicKeys.encryptPublic, sign_public: holder.publicKeys.signPublic, timestamp: 1, signature: {}, certificate: null, issuer: null };
    fake.legacy = v1;
    expect(await renewAvailability(holder)).toEqual({ ok: false, reason: "uncertified" });
    const root = await createRootIdentity({ userId: 1, email: "root@example.org", created: Date.now() }, rootKeys);
    const certificate = await certifyLegacyKey({ userId: 2, keys: holder.publicKeys, anchor: fake.anchors[0]!, certified: Date.now() }, await identityKeys(1, rootKeys));
    fake.legacy = { ...v1, certificate, issuer: { userId: 1, records: [root], issuers: [], admins: [] } };
    const answer = await renewAvailability(holder);
    expect(answer).toEqual({ ok: true, from: { kind: "legacy", certificate, email: "vera@example.org" } });
    // Not the key this browser holds, or a certificate that does not verify to the pinned anchors.
    expect(await renewAvailability({ ...holder, keyId: 12 })).toEqual({ ok: false, reason: "notCurrent" });
    const anchors = fake.anchors;
    fake.anchors = [await keyId(await accountPublicKeys(await generateAccountKeys()))];
    expect(await renewAvailability(holder)).toEqual({ ok: false, reason: "notVerified" });
    fake.anchors = anchors;

    if (!answer.ok) throw new Error("not offered");
    const next = await renewKey(holder, answer.from, NEW_CODE);
    const posted = fake.posted[0]!;
    expect(posted.last_key).toBe(11);
    const identity = posted.identity as SignedIdentity;
    expect(identity.record).toMatchObject({ seq: 0, userId: 2, email: "vera@example.org", certifiedBy: { kind: "legacy", certificate } });
    const verified = await verifyIdentity({ userId: 2, records: [identity], issuers: [{ userId: 1, records: [root] }], admins: [] } as never, { anchors });
    expect(verified.keyId).toBe(await keyId(next.publicKeys));
    // A contact who pinned the v1 key follows it to the new identity, verified mark and all.
    expect(checkPin({ userId: 2, keyId: await keyId(holder.publicKeys), seq: 0, verified: true }, verified)).toMatchObject({ status: "rotated", pin: { verified: true, seq: 0 } });
    expect(getUnlockedKeys()).toBe(next);
  });
});
