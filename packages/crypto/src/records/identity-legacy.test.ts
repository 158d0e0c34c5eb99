import { describe, expect, it } from "vitest";
import { type AccountKeys, accountPublicKeys, generateAccountKeys } from "../account-keys";
import { keyId } from "../digests";
import { signRecordV2 } from "../signatures";
import { expectRefusal } from "../test-support";
import { type IdentityRecord, type SignedIdentity, createLegacyIdentity } from "./identity";
import { verifyIdentity } from "./identity-chain";
import { checkPin } from "./identity-pin";
import { type LegacyKeyRecord, type SignedLegacyKey, certifyLegacyKey } from "./legacy-key";
import { DAY, T0, World, refuseEveryMutation, replaced } from "./v2-test-support";

// A version 1 user's own move to a certified identity (docs/protocol.md §14.14): a birth record
// of fresh keys certified by their v1 key, which an administrator's certificate chains to the anchors.

/** Signs a record as its own key and the certifier would, to build records the maker refuses to build. */
async function handMade(record: IdentityRecord, keys: AccountKeys, certifier: AccountKeys): Promise<SignedIdentity> {
  return { record, self: await signRecordV2(keys.sign.privateKey, record), certifier: await signRecordV2(certifier.sign.privateKey, record) };
}

/** An instance (root 1, administrator 2, member 3) and Vera (7), who kept her v1 key, certified by `issuer`. */
async function scene(issuer = 2) {
  const world = await World.create();
  await world.invite(1, 2);
  await world.promote(1, 2);
  await world.invite(1, 3);
  const v1 = await generateAccountKeys();
  const v1Public = await accountPublicKeys(v1);
  const certify = async (by: number, userId = 7, keys = v1Public) => certifyLegacyKey({ userId, keys, anchor: world.anchors[0]!, certified: T0 + 5 * DAY }, await world.me(by));
  const certificate = await certify(issuer);
  const keys = await generateAccountKeys();
  const birth = await createLegacyIdentity({ userId: 7, email: "vera@example.org", created: T0 + 6 * DAY, certificate }, keys, v1);
  /** What a server would serve for Vera with `records` as her chain (everyone else as issuers). */
  const chain = (...records: SignedIdentity[]) => {
    world.people.set(7, { keys: [keys], records });
    return world.chain(7);
  };
  return { world, v1, v1Public, keys, certificate, certify, birth, chain };
}

describe("a version 1 user's certified identity", () => {
  it("verifies to the anchors through the administrator's certificate, and names the v1 key", async () => {
    const { world, v1Public, keys, birth, chain } = await scene();
    expect(birth.record).toMatchObject({ userId: 7, seq: 0, email: "vera@example.org", certifiedBy: { kind: "legacy" } });
    const identity = await verifyIdentity(chain(birth), world.trust);
    expect(identity).toMatchObject({ userId: 7, seq: 0, keyId: await keyId(await accountPublicKeys(keys)), anchor: world.anchors[0], admin: false });
    expect(identity.keys[0]!.legacy).toBe(await keyId(v1Public));
    expect(JSON.parse(JSON.stringify(identity))).toEqual(identity);
    // Certified by the root itself too; and it rotates on as any chain.
    const byRoot = await scene(1);
    expect((await verifyIdentity(byRoot.chain(byRoot.birth), byRoot.world.trust)).userId).toBe(7);
    const next = await world.rotate(7);
    const rotated = await verifyIdentity(world.chain(7), world.trust);
    expect(rotated).toMatchObject({ seq: 1, keyId: await keyId(await accountPublicKeys(world.person(7).keys[1]!)) });
    expect(rotated.keys.map((key) => key.legacy)).toEqual([await keyId(v1Public), undefined]);
    expect(next.record.certifiedBy).toMatchObject({ kind: "previous" });
  });

  it("every field changed is refused, the certificate's included", { timeout: 120_000 }, async () => {
    const { world, v1, keys, birth, chain } = await scene();
    // The record as sent: its own signature catches every change (the certificate's too).
    expect(await refuseEveryMutation(birth, (value) => verifyIdentity(chain(value), world.trust))).toBeGreaterThan(40);
    // The certificate changed and the record signed again by both keys: the certificate's own checks.
    const special = (label: string) =>
      ({ "record.issuerUserId + 1": ["bad_chain" as const], "record.issuerKeyId bit flipped": ["bad_chain" as const] })[label];
    const resigned = async (certificate: SignedLegacyKey) => handMade({ ...birth.record, certifiedBy: { kind: "legacy", certificate } }, keys, v1);
    const count = await refuseEveryMutation(birth.record.certifiedBy.kind === "legacy" ? birth.record.certifiedBy.certificate : (undefined as never), async (certificate) => verifyIdentity(chain(await resigned(certificate)), world.trust), special);
    expect(count).toBeGreaterThan(15);
  });

  it("refuses the wrong certifier, a certificate of another user or key, by a non-administrator, and kept keys", async () => {
    const { world, v1, v1Public, keys, certificate, certify, birth, chain } = await scene();
    const other = await generateAccountKeys();
    // Certified by another key than the certified v1 key (the administrator's, a stranger's).
    await expectRefusal(verifyIdentity(chain({ ...birth, certifier: (await handMade(birth.record, keys, other)).certifier! }), world.trust), "bad_signature");
    await expectRefusal(verifyIdentity(chain({ ...birth, certifier: (await handMade(birth.record, keys, world.person(2).keys[0]!)).certifier! }), world.trust), "bad_signature");
    // No certifier at all.
    await expectRefusal(verifyIdentity(chain(replaced(birth, ["certifier"], undefined)), world.trust), "malformed_record");
    const withCertificate = async (cert: SignedLegacyKey, certifier = v1, fresh = keys) =>
      handMade({ ...birth.record, encryptPublic: (await accountPublicKeys(fresh)).encryptPublic, signPublic: (await accountPublicKeys(fresh)).signPublic, certifiedBy: { kind: "legacy", certificate: cert } }, fresh, certifier);
    // A certificate of another user (Walt, 8, with Vera's key) or another key of Vera's.
    await expectRefusal(verifyIdentity(chain(await withCertificate(await certify(2, 8))), world.trust), "bad_chain");
    const otherKey = await certify(2, 7, await accountPublicKeys(other));
    await expectRefusal(verifyIdentity(chain(await withCertificate(otherKey)), world.trust), "bad_signature");
    // ... even signed by that other key: it is not Vera's certified v1 key unless certified, and then it is (it certifies).
    expect((await verifyIdentity(chain(await withCertificate(otherKey, other)), world.trust)).userId).toBe(7);
    // A certificate by a member who is no administrator (3), or by the user herself.
    await expectRefusal(verifyIdentity(chain(await withCertificate(await certify(3))), world.trust), "untrusted_key");
    // The v1 keys kept instead of fresh ones.
    await expectRefusal(verifyIdentity(chain(await withCertificate(certificate, v1, v1)), world.trust), "bad_chain");
    // An uncertified v1 key: a certificate signed by the v1 key itself (no administrator) does not chain.
    const own: LegacyKeyRecord = { ...certificate.record, issuerUserId: 7, issuerKeyId: await keyId(v1Public) };
    const selfSigned = { record: own, signature: await signRecordV2(v1.sign.privateKey, own) };
    await expectRefusal(verifyIdentity(chain(await withCertificate(selfSigned)), world.trust), "bad_chain");
    // Not pinned: another instance's root.
    await expectRefusal(verifyIdentity(chain(birth), { anchors: [] }), "untrusted_key");
    // A certificate at a later seq: only a birth is certified by a v1 key.
    const next = await generateAccountKeys();
    const later = await handMade({ ...birth.record, seq: 1, ...(await accountPublicKeys(next)) }, next, v1);
    await expectRefusal(verifyIdentity(chain(birth, later), world.trust), "bad_chain");
  });

  it("the maker refuses what would not verify", async () => {
    const { v1, keys, certificate, certify } = await scene();
    const other = await generateAccountKeys();
    await expect(createLegacyIdentity({ userId: 8, email: "vera@example.org", created: T0, certificate }, keys, v1)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(createLegacyIdentity({ userId: 7, email: "vera@example.org", created: T0, certificate }, keys, other)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(createLegacyIdentity({ userId: 7, email: "vera@example.org", created: T0, certificate }, v1, v1)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(createLegacyIdentity({ userId: 7, email: "vera@example.org", created: T0, certificate: replaced(certificate, ["signature"], undefined) }, keys, v1)).rejects.toMatchObject({ code: "invalid_input" });
    expect((await createLegacyIdentity({ userId: 7, email: "vera@example.org", created: T0, certificate: await certify(1) }, keys, v1)).record.seq).toBe(0);
  });

  it("a pinned v1 key moves to the identity it certified, the verified mark carried; another v1 key does not", async () => {
    const { world, v1Public, birth, chain } = await scene();
    const identity = await verifyIdentity(chain(birth), world.trust);
    const v1Pin = { userId: 7, keyId: await keyId(v1Public), seq: 0, verified: true };
    expect(checkPin(v1Pin, identity)).toEqual({ status: "rotated", pin: { userId: 7, keyId: identity.keyId, seq: 0, verified: true } });
    expect(checkPin({ ...v1Pin, verified: false }, identity).pin.verified).toBe(false);
    // Later rotations: still a chain from the pinned v1 key; a reset after it: "reset".
    await world.rotate(7);
    const rotated = await verifyIdentity(world.chain(7), world.trust);
    expect(checkPin(v1Pin, rotated)).toMatchObject({ status: "rotated", pin: { keyId: rotated.keyId, seq: 1, verified: true } });
    await world.reset(2, 7);
    expect(checkPin(v1Pin, await verifyIdentity(world.chain(7), world.trust))).toMatchObject({ status: "reset", pin: { seq: 2, verified: false } });
    // A pin of another v1 key: no chain from it.
    const stranger = await keyId(await accountPublicKeys(await generateAccountKeys()));
    expect(() => checkPin({ ...v1Pin, keyId: stranger }, identity)).toThrow(expect.objectContaining({ code: "untrusted_key" }));
  });
});
