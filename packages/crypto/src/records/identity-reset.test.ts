import { describe, expect, it } from "vitest";
import { type AccountKeys, accountPublicKeys, generateAccountKeys } from "../account-keys";
import { signRecordV2 } from "../signatures";
import { expectRefusal } from "../test-support";
import { type IdentityRecord, type KeyResetRecord, type SignedIdentity, type SignedKeyReset, createKeyReset, createResetIdentity } from "./identity";
import { verifyIdentity, verifyKeyReset } from "./identity-chain";
import { identityKeys } from "./identity-keys";
import { checkPin } from "./identity-pin";
import { DAY, T0, World, recordMutations } from "./v2-test-support";

// Key resets (docs/protocol.md §14.3, "Key resets"): a user who lost their key gets a new one
// certified by an administrator's reset instead of by the key they no longer have.

/** Signs a record as its own key and the certifier would, to build chains the makers refuse to build. */
async function handMade(record: IdentityRecord, keys: AccountKeys, certifier: AccountKeys): Promise<SignedIdentity> {
  return { record, self: await signRecordV2(keys.sign.privateKey, record), certifier: await signRecordV2(certifier.sign.privateKey, record) };
}

/** A reset record signed by whoever `issuer` is, with any fields. */
async function handSigned(record: KeyResetRecord, issuer: AccountKeys): Promise<SignedKeyReset> {
  return { record, signature: await signRecordV2(issuer.sign.privateKey, record) };
}

/** An instance with the root (1), an administrator (2) and a user (3) who rotated once. */
async function instance() {
  const world = await World.create();
  await world.invite(1, 2);
  await world.promote(1, 2);
  await world.invite(2, 3);
  await world.rotate(3);
  return world;
}

/** What a reset of user 3's key by `issuer` would be, and the keys to make the new record with: to change before signing. */
async function pieces(world: World, issuer = 2) {
  const temp = await generateAccountKeys();
  const keys = await generateAccountKeys();
  const reset = await createKeyReset({ userId: 3, current: world.person(3).records.at(-1)!, temp: await accountPublicKeys(temp), expires: T0 + 40 * DAY }, await world.me(issuer));
  const honest = await createResetIdentity({ current: world.person(3).records.at(-1)!, created: T0 + 10 * DAY, reset }, keys, temp);
  return { temp, keys, reset, honest };
}

/** User 3's chain with `records` after what they had. */
function chainWith(world: World, ...records: SignedIdentity[]) {
  const chain = world.chain(3);
  return { ...chain, records: [...chain.records, ...records] };
}

describe("key resets", () => {
  it("an administrator's reset continues the chain with a key the lost one never signed", async () => {
    const world = await instance();
    const before = await verifyIdentity(world.chain(3), world.trust);
    const { record, reset } = await world.reset(2, 3);
    expect(reset.record).toMatchObject({ type: "key-reset", userId: 3, email: "user3@example.org", replaces: before.keyId, issuerUserId: 2 });
    expect(record.record).toMatchObject({ seq: 2, certifiedBy: { kind: "reset" } });
    const after = await verifyIdentity(world.chain(3), world.trust);
    expect(after).toMatchObject({ userId: 3, seq: 2, keyId: (await world.me(3)).keyId, anchor: world.anchors[0], admin: false });
    expect(after.keys.map((key) => key.reset ?? false)).toEqual([false, false, true]);
    // Plain JSON: the mark survives being stored (the client keeps verified identities).
    expect(JSON.parse(JSON.stringify(after))).toEqual(after);
    // The chain goes on: a rotation after the reset is certified by the new key.
    await world.rotate(3);
    expect((await verifyIdentity(world.chain(3), world.trust)).keys.map((key) => key.reset ?? false)).toEqual([false, false, true, false]);
  });

  it("an administrator stays one across a reset of their key by another", async () => {
    const world = await instance();
    await world.reset(1, 2);
    expect(await verifyIdentity(world.chain(2), world.trust)).toMatchObject({ seq: 1, admin: true });
    await world.invite(2, 4);
    await verifyIdentity(world.chain(4), world.trust);
  });

  it("a version 1 account without an identity gets a birth record certified by the reset", async () => {
    const world = await World.create();
    const temp = await generateAccountKeys();
    const reset = await createKeyReset({ userId: 7, current: null, email: " Vera@Example.org", temp: await accountPublicKeys(temp), expires: T0 + DAY }, await world.me(1));
    expect(reset.record).toMatchObject({ replaces: null, email: "vera@example.org" });
    const keys = await generateAccountKeys();
    const birth = await createResetIdentity({ current: null, created: T0, reset }, keys, temp);
    expect(birth.record.seq).toBe(0);
    world.people.set(7, { keys: [keys], records: [birth] });
    expect(await verifyIdentity(world.chain(7), world.trust)).toMatchObject({ userId: 7, seq: 0, anchor: world.anchors[0] });
  });

  it("refuses a reset by someone who is not an administrator at that key", async () => {
    const world = await instance();
    await world.invite(1, 4);
    await world.reset(4, 3);
    await expectRefusal(verifyIdentity(world.chain(3), world.trust), "untrusted_key");
  });

  it("refuses a reset that names another key, user, address, or a birth, expired, kept temporary keys", async () => {
    const world = await instance();
    const { temp, keys, reset, honest } = await pieces(world);
    const admin = world.person(2).keys[0]!;
    const first = (await identityKeys(3, world.person(3).keys[0]!)).keyId;
    const variants: Partial<KeyResetRecord>[] = [{ replaces: first }, { replaces: null }, { userId: 4 }, { email: "mallory@example.org" }, { expires: T0 + 9 * DAY }];
    for (const change of variants) {
      const forged = await handSigned({ ...reset.record, ...change }, admin);
      const record = { ...honest.record, certifiedBy: { kind: "reset" as const, reset: forged } };
      await expectRefusal(verifyIdentity(chainWith(world, await handMade(record, keys, temp)), world.trust), "bad_chain").catch((failure: Error) => {
        throw new Error(`${JSON.stringify(change)}: ${failure.message}`);
      });
    }
    // The new record keeps the temporary keys.
    const kept = await handMade({ ...honest.record, ...(await accountPublicKeys(temp)) }, temp, temp);
    await expectRefusal(verifyIdentity(chainWith(world, kept), world.trust), "bad_chain");
    // A reset at a birth that names a key to replace; a reset record moved to another place in the chain.
    const birthWithReplaces = await handMade({ ...honest.record, seq: 0 }, keys, temp);
    await expectRefusal(verifyIdentity({ ...world.chain(3), records: [birthWithReplaces] }, world.trust), "bad_chain");
    await expectRefusal(verifyIdentity({ ...world.chain(3), records: [world.person(3).records[0]!, await handMade({ ...honest.record, seq: 1 }, keys, temp)] }, world.trust), "bad_chain");
    // The honest one verifies, so the refusals above are the changes'.
    await verifyIdentity(chainWith(world, honest), world.trust);
  });

  it("refuses a reset certified by another key than the temporary one, or signed by another key than the issuer's", async () => {
    const world = await instance();
    const { temp, keys, reset, honest } = await pieces(world);
    const stranger = await generateAccountKeys();
    await expectRefusal(verifyIdentity(chainWith(world, await handMade(honest.record, keys, stranger)), world.trust), "bad_signature");
    // The lost key itself cannot stand in for the temporary one either.
    await expectRefusal(verifyIdentity(chainWith(world, await handMade(honest.record, keys, world.person(3).keys[1]!)), world.trust), "bad_signature");
    const forged = { ...reset, signature: await signRecordV2(stranger.sign.privateKey, reset.record) };
    const record = { ...honest.record, certifiedBy: { kind: "reset" as const, reset: forged } };
    await expectRefusal(verifyIdentity(chainWith(world, await handMade(record, keys, temp)), world.trust), "bad_signature");
  });

  it("refuses a user's reset of their own key (the chain would rest on itself)", async () => {
    const world = await instance();
    await world.promote(1, 3);
    const temp = await generateAccountKeys();
    const keys = await generateAccountKeys();
    const me = await world.me(3);
    const own = await handSigned(
      { type: "key-reset", v: 2, userId: 3, email: "user3@example.org", replaces: me.keyId, tempSignPublic: (await accountPublicKeys(temp)).signPublic, tempEncryptPublic: (await accountPublicKeys(temp)).encryptPublic, issuerUserId: 3, issuerKeyId: me.keyId, expires: T0 + 40 * DAY },
      me.keys,
    );
    const record = await createResetIdentity({ current: world.person(3).records.at(-1)!, created: T0 + 10 * DAY, reset: own }, keys, temp);
    await expectRefusal(verifyIdentity(chainWith(world, record), world.trust), "bad_chain");
  });

  it("every field of the reset and of the record it certifies changed is refused", { timeout: 120_000 }, async () => {
    const world = await instance();
    const { honest } = await pieces(world);
    let count = 0;
    for (const mutation of recordMutations(honest, ["bad_signature", "invalid_key"])) {
      await expectRefusal(verifyIdentity(chainWith(world, mutation.value as SignedIdentity), world.trust), ...mutation.codes!, "bad_chain", "untrusted_key").catch((failure: Error) => {
        throw new Error(`${mutation.label}: ${failure.message}`);
      });
      count++;
    }
    expect(count).toBeGreaterThan(20);
  });

  it("the user checks the reset before taking it over", async () => {
    const world = await instance();
    const { reset } = await pieces(world);
    expect((await verifyKeyReset(reset, 3, world.chain(2), world.trust, T0)).userId).toBe(2);
    await expectRefusal(verifyKeyReset(reset, 3, world.chain(2), world.trust, T0 + 41 * DAY), "bad_chain");
    await expectRefusal(verifyKeyReset(reset, 4, world.chain(2), world.trust, T0), "bad_chain");
    await expectRefusal(verifyKeyReset(reset, 3, world.chain(1), world.trust, T0), "bad_chain");
    await expectRefusal(verifyKeyReset({ ...reset, record: { ...reset.record, expires: T0 + 50 * DAY } }, 3, world.chain(2), world.trust, T0), "bad_signature");
    await world.invite(1, 4);
    const byUser = await createKeyReset({ userId: 3, current: world.person(3).records.at(-1)!, temp: await accountPublicKeys(await generateAccountKeys()), expires: T0 + DAY }, await world.me(4));
    await expectRefusal(verifyKeyReset(byUser, 3, world.chain(4), world.trust, T0), "untrusted_key");
  });

  it("a pin across a reset moves to the new key and loses its verified mark", async () => {
    const world = await instance();
    const verified = { ...checkPin(undefined, await verifyIdentity(world.chain(3), world.trust)).pin, verified: true };
    await world.reset(2, 3);
    const afterReset = await verifyIdentity(world.chain(3), world.trust);
    expect(checkPin(verified, afterReset)).toEqual({ status: "reset", pin: { userId: 3, keyId: afterReset.keyId, seq: 2, verified: false } });
    // A rotation after the reset: still a reset for a pin from before it, a rotation for one after it.
    await world.rotate(3);
    const rotated = await verifyIdentity(world.chain(3), world.trust);
    expect(checkPin(verified, rotated).status).toBe("reset");
    expect(checkPin({ ...checkPin(verified, afterReset).pin, verified: true }, rotated)).toEqual({ status: "rotated", pin: { userId: 3, keyId: rotated.keyId, seq: 3, verified: true } });
  });

  it("the makers refuse what would not verify", async () => {
    const world = await instance();
    const current = world.person(3).records.at(-1)!;
    const temp = await generateAccountKeys();
    const tempPublic = await accountPublicKeys(temp);
    await expectRefusal(createKeyReset({ userId: 2, current: world.person(2).records[0]!, temp: tempPublic, expires: T0 }, await world.me(2)), "invalid_input");
    await expectRefusal(createKeyReset({ userId: 4, current, temp: tempPublic, expires: T0 }, await world.me(2)), "invalid_input");
    await expectRefusal(createKeyReset({ userId: 7, current: null, temp: tempPublic, expires: T0 }, await world.me(2)), "invalid_input");
    const reset = await createKeyReset({ userId: 3, current, temp: tempPublic, expires: T0 }, await world.me(2));
    const keys = await generateAccountKeys();
    await expectRefusal(createResetIdentity({ current, created: T0, reset }, keys, keys), "invalid_input");
    await expectRefusal(createResetIdentity({ current, created: T0, reset }, temp, temp), "invalid_input");
    await expectRefusal(createResetIdentity({ current: world.person(3).records[0]!, created: T0, reset }, keys, temp), "invalid_input");
    await expectRefusal(createResetIdentity({ current: null, created: T0, reset }, keys, temp), "invalid_input");
    expect((await createResetIdentity({ current, created: T0, reset }, keys, temp)).record.seq).toBe(2);
  });
});
