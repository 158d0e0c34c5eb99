import { describe, expect, it } from "vitest";
import { accountPublicKeys, generateAccountKeys } from "../account-keys";
import { keyId } from "../digests";
import { signRecordV2 } from "../signatures";
import { expectRefusal } from "../test-support";
import { type IdentityRecord, type SignedIdentity, createInvitation, createInvitedIdentity, createRootIdentity, grantAdmin, rotateIdentity } from "./identity";
import { MAX_CHAIN_DEPTH, rootAnchor, verifyIdentity, verifyInvitation } from "./identity-chain";
import { identityKeys } from "./identity-keys";
import { DAY, T0, World, recordMutations, replaced } from "./v2-test-support";

/** Signs a hand-made identity record as `createInvitedIdentity` would, to build chains the makers refuse to build. */
async function handMade(record: IdentityRecord, keys: Awaited<ReturnType<typeof generateAccountKeys>>, certifierKeys: typeof keys): Promise<SignedIdentity> {
  return { record, self: await signRecordV2(keys.sign.privateKey, record), certifier: await signRecordV2(certifierKeys.sign.privateKey, record) };
}

describe("identity records and chains", () => {
  it("a root is its own admin and is trusted only where its key id is pinned", async () => {
    const world = await World.create();
    const root = world.person(1).records[0]!;
    expect(await rootAnchor(root)).toBe(world.anchors[0]);
    const identity = await verifyIdentity(world.chain(1), world.trust);
    expect(identity).toMatchObject({ userId: 1, seq: 0, keyId: world.anchors[0], anchor: world.anchors[0], admin: true, email: "user1@example.org" });
    expect(identity.keys).toHaveLength(1);
    await expectRefusal(verifyIdentity(world.chain(1), { anchors: [] }), "untrusted_key");
    await expectRefusal(rootAnchor(replaced(root, ["record", "created"], T0 + 1)), "bad_signature");
    await world.invite(1, 2);
    await expectRefusal(rootAnchor(world.person(2).records[0]!), "bad_chain");
  });

  it("an invited user chains through the inviting administrator's certificate to the anchor", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.promote(1, 2);
    await world.invite(2, 3, { email: "  Carol.Example@EXAMPLE.org " });
    const carol = await verifyIdentity(world.chain(3), world.trust);
    expect(carol).toMatchObject({ userId: 3, seq: 0, email: "carol.example@example.org", anchor: world.anchors[0], admin: false });
    expect(carol.keyId).toBe(await keyId(carol));
    expect((await verifyIdentity(world.chain(2), world.trust)).admin).toBe(true);
  });

  it("rotations chain each key to the one before; the answer is the current key and the whole chain", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.rotate(2);
    await world.rotate(2);
    const bob = await verifyIdentity(world.chain(2), world.trust);
    expect(bob.seq).toBe(2);
    expect(bob.keys.map((k) => k.seq)).toEqual([0, 1, 2]);
    expect(bob.keyId).toBe((await world.me(2)).keyId);
    expect(bob.keys[0]!.keyId).toBe((await world.me(2, 0)).keyId);
    // An administrator stays one across their own rotations, from the certified key on.
    await world.promote(1, 2, 1);
    await world.invite(2, 3);
    expect((await verifyIdentity(world.chain(3), world.trust)).userId).toBe(3);
  });

  it("every field of every record, invitation and certificate changed is refused", { timeout: 120_000 }, async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.promote(1, 2);
    await world.invite(2, 3);
    await world.rotate(3);
    const chain = world.chain(3);
    let count = 0;
    for (const [index, signed] of chain.records.entries()) {
      for (const mutation of recordMutations(signed, ["bad_signature", "invalid_key"])) {
        const records = chain.records.map((r, i) => (i === index ? mutation.value : r)) as SignedIdentity[];
        await expectRefusal(verifyIdentity({ ...chain, records }, world.trust), ...mutation.codes!).catch((failure: Error) => {
          throw new Error(`record ${index}: ${mutation.label}: ${failure.message}`);
        });
        count++;
      }
    }
    const admin = world.admins.get(2)!;
    for (const mutation of recordMutations(admin, ["bad_signature"])) {
      // A certificate moved to another user no longer makes user 2 an administrator; one naming
      // another issuer key names a key that is not in that issuer's chain.
      const codes = { "record.userId + 1": ["untrusted_key" as const], "record.issuerUserId + 1": ["bad_chain" as const], "record.issuerKeyId bit flipped": ["bad_chain" as const] }[mutation.label] ?? mutation.codes!;
      await expectRefusal(verifyIdentity({ ...chain, admins: [mutation.value as typeof admin] }, world.trust), ...codes).catch((failure: Error) => {
        throw new Error(`admin: ${mutation.label}: ${failure.message}`);
      });
      count++;
    }
    expect(count).toBeGreaterThan(100);
  });

  it("refuses a gap, a repeat, another order and a birth certified as a rotation", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.rotate(2);
    await world.rotate(2);
    const chain = world.chain(2);
    const [r0, r1, r2] = chain.records;
    for (const records of [[r0, r2], [r0, r1, r1, r2], [r0, r2, r1], [r1, r2]]) {
      await expectRefusal(verifyIdentity({ ...chain, records: records as SignedIdentity[] }, world.trust), "bad_chain");
    }
  });

  it("refuses a loop of invitations, and admin rights that rest on each other", async () => {
    const world = await World.create();
    const [a, b] = [await generateAccountKeys(), await generateAccountKeys()];
    const [tempA, tempB] = [await generateAccountKeys(), await generateAccountKeys()];
    const invite = async (temp: typeof a, issuerId: number, issuerKeys: typeof a, email: string) =>
      createInvitation({ inviteId: 9, email, temp: await accountPublicKeys(temp), expires: T0 + DAY }, await identityKeys(issuerId, issuerKeys));
    const birthA = await createInvitedIdentity({ userId: 4, created: T0, invitation: await invite(tempA, 5, b, "a@example.org") }, a, tempA);
    const birthB = await createInvitedIdentity({ userId: 5, created: T0, invitation: await invite(tempB, 4, a, "b@example.org") }, b, tempB);
    world.people.set(4, { keys: [a], records: [birthA] });
    world.people.set(5, { keys: [b], records: [birthB] });
    await expectRefusal(verifyIdentity(world.chain(4), world.trust), "bad_chain");

    // Admins 2 and 3 were invited by the root, but each one's rights come from the other.
    const other = await World.create();
    await other.invite(1, 2);
    await other.invite(1, 3);
    await other.promote(3, 2);
    await other.promote(2, 3);
    await other.invite(2, 4);
    const error = await expectRefusal(verifyIdentity(other.chain(4), other.trust), "bad_chain");
    expect(error.message).toMatch(/loops/);
  });

  it("refuses an address other than the invitation's, an expired invitation, kept temporary keys", async () => {
    const world = await World.create();
    await expectRefusal(verifyIdentity((await world.invite(1, 2, { created: T0 + 31 * DAY }), world.chain(2)), world.trust), "bad_chain");

    const temp = await generateAccountKeys();
    const keys = await generateAccountKeys();
    const invitation = await createInvitation({ inviteId: 3, email: "carol@example.org", temp: await accountPublicKeys(temp), expires: T0 + DAY }, await world.me(1));
    const honest = await createInvitedIdentity({ userId: 3, created: T0, invitation }, keys, temp);
    const otherAddress = await handMade({ ...honest.record, email: "mallory@example.org" }, keys, temp);
    const keptTemp = await handMade({ ...honest.record, ...(await accountPublicKeys(temp)) }, temp, temp);
    for (const records of [[otherAddress], [keptTemp]]) {
      world.people.set(3, { keys: [keys], records });
      await expectRefusal(verifyIdentity(world.chain(3), world.trust), "bad_chain");
    }
    world.people.set(3, { keys: [keys], records: [honest] });
    await verifyIdentity(world.chain(3), world.trust);
  });

  it("refuses an invitation by someone who is not an administrator (or was not yet at that key)", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.invite(2, 3);
    await expectRefusal(verifyIdentity(world.chain(3), world.trust), "untrusted_key");
    // Promoted only at a later key: the invitation signed with the earlier one still does not count.
    await world.rotate(2);
    await world.promote(1, 2, 1);
    await expectRefusal(verifyIdentity(world.chain(3), world.trust), "untrusted_key");
    await world.invite(2, 4);
    await verifyIdentity(world.chain(4), world.trust);
  });

  it("refuses a key of another user in the chain, and another user's chain served as this one's", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.invite(1, 3);
    const mallory = await world.rotate(3);
    const chain = world.chain(2);
    await expectRefusal(verifyIdentity({ ...chain, records: [...chain.records, mallory] }, world.trust), "bad_chain");
    await expectRefusal(verifyIdentity({ ...chain, records: world.person(3).records }, world.trust), "bad_chain");
    // A rotation of user 2 certified by user 3's key (a colluding user) does not link either.
    const keys = await generateAccountKeys();
    const forged = await rotateIdentity(world.person(3).records[1]!, world.person(3).keys[1]!, { created: T0 + 9 * DAY }, keys);
    const relabelled = await handMade({ ...forged.record, userId: 2, email: "user2@example.org", seq: 1 }, keys, world.person(3).keys[1]!);
    await expectRefusal(verifyIdentity({ ...chain, records: [...chain.records, relabelled] }, world.trust), "bad_chain");
  });

  it("refuses signatures by the wrong key: the certifier, the invitation's issuer, the previous key, the admin's issuer", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.promote(1, 2);
    const [stranger, keys, temp] = [await generateAccountKeys(), await generateAccountKeys(), await generateAccountKeys()];
    const invitation = await createInvitation({ inviteId: 3, email: "carol@example.org", temp: await accountPublicKeys(temp), expires: T0 + DAY }, await world.me(2));
    const honest = await createInvitedIdentity({ userId: 3, created: T0, invitation }, keys, temp);
    // The invitation claims user 2's key but was signed by another one.
    const forgedInvitation = { ...invitation, signature: await signRecordV2(stranger.sign.privateKey, invitation.record) };
    const withForged = { ...honest.record, certifiedBy: { kind: "invitation" as const, invitation: forgedInvitation } };
    const cases: SignedIdentity[][] = [
      [await handMade(honest.record, keys, stranger)],
      [await handMade(withForged, keys, temp)],
    ];
    const next = await generateAccountKeys();
    const rotation = await rotateIdentity(honest, keys, { created: T0 + DAY }, next);
    cases.push([honest, await handMade(rotation.record, next, stranger)]);
    for (const records of cases) {
      world.people.set(3, { keys: [keys], records });
      await expectRefusal(verifyIdentity(world.chain(3), world.trust), "bad_signature");
    }
    const admin = world.admins.get(2)!;
    world.people.set(3, { keys: [keys], records: [honest] });
    world.admins.set(2, { ...admin, signature: await signRecordV2(stranger.sign.privateKey, admin.record) });
    await expectRefusal(verifyIdentity(world.chain(3), world.trust), "bad_signature");
  });

  it("refuses missing issuers, certificates for keys outside the chain, two chains or certificates for one user", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    await world.promote(1, 2);
    await world.invite(2, 3);
    const chain = world.chain(3);
    await expectRefusal(verifyIdentity({ ...chain, issuers: chain.issuers!.filter((i) => i.userId !== 2) }, world.trust), "bad_chain");
    const stranger = await grantAdmin({ userId: 2, keyId: (await identityKeys(2, await generateAccountKeys())).keyId, granted: T0 }, await world.me(1));
    await expectRefusal(verifyIdentity({ ...chain, admins: [stranger] }, world.trust), "bad_chain");
    await expectRefusal(verifyIdentity({ ...chain, admins: [...chain.admins!, world.admins.get(2)!] }, world.trust), "malformed_record");
    await expectRefusal(verifyIdentity({ ...chain, issuers: [...chain.issuers!, chain.issuers![0]!] }, world.trust), "malformed_record");
    await expectRefusal(verifyIdentity({ ...chain, records: [] }, world.trust), "malformed_record");
    await expectRefusal(verifyIdentity(chain, { anchors: ["not a key id"] }), "invalid_input");
  });

  it(`gives up on a delegation deeper than ${MAX_CHAIN_DEPTH} steps`, async () => {
    const world = await World.create();
    let issuer = 1;
    for (let user = 2; user < 36; user++) {
      await world.invite(issuer, user);
      await world.promote(issuer, user);
      issuer = user;
    }
    await verifyIdentity(world.chain(20), world.trust);
    const error = await expectRefusal(verifyIdentity(world.chain(35), world.trust), "bad_chain");
    expect(error.message).toMatch(/too deep/);
  });

  it("an invitee checks the invitation before taking it over", async () => {
    const world = await World.create();
    await world.invite(1, 2);
    const temp = await accountPublicKeys(await generateAccountKeys());
    const invitation = await createInvitation({ inviteId: 7, email: "dora@example.org", temp, expires: T0 + DAY }, await world.me(1));
    expect((await verifyInvitation(invitation, world.chain(1), world.trust, T0)).userId).toBe(1);
    await expectRefusal(verifyInvitation(invitation, world.chain(1), world.trust, T0 + 2 * DAY), "bad_chain");
    await expectRefusal(verifyInvitation(invitation, world.chain(2), world.trust, T0), "bad_chain");
    await expectRefusal(verifyInvitation(replaced(invitation, ["record", "email"], "eve@example.org"), world.chain(1), world.trust, T0), "bad_signature");
    const byUser = await createInvitation({ inviteId: 8, email: "dora@example.org", temp, expires: T0 + DAY }, await world.me(2));
    await expectRefusal(verifyInvitation(byUser, world.chain(2), world.trust, T0), "untrusted_key");
  });

  it("the makers refuse what would not verify", async () => {
    const world = await World.create();
    const me = await world.me(1);
    const temp = await generateAccountKeys();
    const other = await generateAccountKeys();
    const invitation = await createInvitation({ inviteId: 7, email: "x@example.org", temp: await accountPublicKeys(temp), expires: T0 }, me);
    await expectRefusal(createInvitedIdentity({ userId: 2, created: T0, invitation }, other, other), "invalid_input");
    await expectRefusal(createInvitedIdentity({ userId: 2, created: T0, invitation }, temp, temp), "invalid_input");
    await expectRefusal(rotateIdentity(world.person(1).records[0]!, other, { created: T0 }, other), "invalid_input");
    await expectRefusal(rotateIdentity(world.person(1).records[0]!, world.person(1).keys[0]!, { created: T0 }, world.person(1).keys[0]!), "invalid_input");
    for (const email of ["", "no-at-sign", "a b@example.org", "+12"]) {
      await expectRefusal(createInvitation({ inviteId: 7, email, temp: await accountPublicKeys(temp), expires: T0 }, me), "invalid_input");
    }
    await expectRefusal(createInvitation({ inviteId: 0, email: "x@example.org", temp: await accountPublicKeys(temp), expires: T0 }, me), "invalid_input");
    await expectRefusal(createRootIdentity({ userId: 1, email: "x@example.org", created: -1 }, other), "invalid_input");
    await expectRefusal(grantAdmin({ userId: 2, keyId: "short", granted: T0 }, me), "invalid_input");
    // An invitation by phone binds the number as the API normalises it.
    const byPhone = await createInvitation({ inviteId: 7, email: " +41 79 123 45 67", temp: await accountPublicKeys(temp), expires: T0 }, me);
    expect(byPhone.record.email).toBe("+41791234567");
  });
});
