import { describe, expect, it } from "vitest";
import { accountPublicKeys, generateAccountKeys } from "../account-keys";
import { keyId } from "../digests";
import { expectRefusal } from "../test-support";
import { certifyLegacyKey, createLegacyRule, verifyLegacyKey, verifyLegacyRule } from "./legacy-key";
import { DAY, T0, World, recordMutations, replaced } from "./v2-test-support";

/** An instance (root 1, administrator 2, member 3) and two version 1 accounts, 7 and 8. */
async function scene() {
  const world = await World.create();
  await world.invite(1, 2);
  await world.promote(1, 2);
  await world.invite(1, 3);
  const [vera, walt] = [await accountPublicKeys(await generateAccountKeys()), await accountPublicKeys(await generateAccountKeys())];
  const certify = async (issuer: number, userId: number, keys: typeof vera, anchor = world.anchors[0]!) =>
    certifyLegacyKey({ userId, keys, anchor, certified: T0 + 5 * DAY }, await world.me(issuer));
  return { world, vera: { userId: 7, ...vera }, walt: { userId: 8, ...walt }, certify };
}

describe("certified version 1 keys", () => {
  it("an administrator's certificate verifies for the key it names, through the administrator's chain", async () => {
    const { world, vera, certify } = await scene();
    for (const issuer of [1, 2]) {
      const certificate = await certify(issuer, 7, vera);
      const verified = await verifyLegacyKey(certificate, vera, world.chain(issuer), world.trust);
      expect(verified).toEqual({
        userId: 7,
        keyId: await keyId(vera),
        encryptPublic: vera.encryptPublic,
        signPublic: vera.signPublic,
        anchor: world.anchors[0],
        issuer: { userId: issuer, keyId: (await world.me(issuer)).keyId },
      });
    }
  });

  it("every field changed is refused; so is a certificate for another user, another key, another instance", { timeout: 60_000 }, async () => {
    const { world, vera, walt, certify } = await scene();
    const certificate = await certify(2, 7, vera);
    let count = 0;
    for (const mutation of recordMutations(certificate, ["bad_signature"])) {
      // Another issuer or issuer key: the chain served is not theirs, or the key is not in it.
      const codes = { "record.issuerUserId + 1": ["bad_chain" as const], "record.issuerKeyId bit flipped": ["bad_chain" as const] }[mutation.label] ?? mutation.codes!;
      await expectRefusal(verifyLegacyKey(mutation.value as typeof certificate, vera, world.chain(2), world.trust), ...codes).catch((failure: Error) => {
        throw new Error(`${mutation.label}: ${failure.message}`);
      });
      count++;
    }
    expect(count).toBeGreaterThan(15);
    // Vera's certificate presented with Walt's key, or as Walt's (user 8) with her key.
    await expectRefusal(verifyLegacyKey(certificate, { ...walt, userId: 7 }, world.chain(2), world.trust), "bad_chain");
    await expectRefusal(verifyLegacyKey(certificate, { ...vera, userId: 8 }, world.chain(2), world.trust), "bad_chain");
    await expectRefusal(verifyLegacyKey(certificate, { ...vera, encryptPublic: walt.encryptPublic }, world.chain(2), world.trust), "bad_chain");
    // Another instance: its administrator's chain rests on a root this client did not pin.
    const other = await World.create();
    const foreign = await certifyLegacyKey({ userId: 7, keys: vera, anchor: other.anchors[0]!, certified: T0 }, await other.me(1));
    await expectRefusal(verifyLegacyKey(foreign, vera, other.chain(1), world.trust), "untrusted_key");
    // Naming another instance's anchor while signed by this one's root.
    await expectRefusal(verifyLegacyKey(await certify(1, 7, vera, other.anchors[0]), vera, world.chain(1), world.trust), "bad_chain");
  });

  it("refuses a signer who is no administrator (or not one at that key), and a certificate of one's own key", async () => {
    const { world, vera, certify } = await scene();
    await expectRefusal(verifyLegacyKey(await certify(3, 7, vera), vera, world.chain(3), world.trust), "untrusted_key");
    // Promoted only at a later key: the certificate signed with the earlier one does not count.
    await world.invite(1, 4);
    const early = await certify(4, 7, vera);
    await world.rotate(4);
    await world.promote(1, 4);
    await expectRefusal(verifyLegacyKey(early, vera, world.chain(4), world.trust), "untrusted_key");
    expect((await verifyLegacyKey(await certify(4, 7, vera), vera, world.chain(4), world.trust)).userId).toBe(7);
    // The chain served is not the signer's.
    await expectRefusal(verifyLegacyKey(await certify(2, 7, vera), vera, world.chain(1), world.trust), "bad_chain");
    await expect(certify(2, 2, vera)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(certifyLegacyKey({ userId: 7, keys: { ...vera, signPublic: "short" }, anchor: world.anchors[0]!, certified: T0 }, await world.me(2))).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("the instance's legacy rule is the root's: signed by a pinned anchor, every field bound", async () => {
    const { world } = await scene();
    const roots = [world.person(1).records[0]!];
    const rule = await createLegacyRule({ made: T0 }, await world.me(1));
    expect(await verifyLegacyRule(rule, roots, world.trust)).toBe(world.anchors[0]);
    for (const mutation of recordMutations(rule, ["bad_signature"])) {
      const codes = { "record.anchor bit flipped": ["untrusted_key" as const], "record.userId + 1": ["bad_chain" as const], "record.rule changed": ["malformed_record" as const] }[mutation.label] ?? mutation.codes!;
      await expectRefusal(verifyLegacyRule(mutation.value as typeof rule, roots, world.trust), ...codes).catch((failure: Error) => {
        throw new Error(`${mutation.label}: ${failure.message}`);
      });
    }
    // Not pinned, no root shown for it, or made by an administrator who is not the root.
    await expectRefusal(verifyLegacyRule(rule, roots, { anchors: [] }), "untrusted_key");
    await expectRefusal(verifyLegacyRule(rule, [], world.trust), "untrusted_key");
    await expectRefusal(verifyLegacyRule(await createLegacyRule({ made: T0 }, await world.me(2)), roots, world.trust), "untrusted_key");
    const other = await World.create();
    const foreign = await createLegacyRule({ made: T0 }, await other.me(1));
    await expectRefusal(verifyLegacyRule(foreign, [other.person(1).records[0]!], world.trust), "untrusted_key");
    await expectRefusal(verifyLegacyRule(replaced(rule, ["record", "rule"], "anything"), roots, world.trust), "malformed_record");
  });
});
