import { Invite } from "@sealwork/core";
import { db } from "@sealwork/core/db/service";
import {
  type SignedIdentity,
  accountPublicKeys,
  createInvitation,
  createInvitedIdentity,
  createRootIdentity,
  generateAccountKeys,
  grantAdmin,
  identityKeys,
  rootAnchor,
  rotateIdentity,
  sealAccountData,
  verifyIdentity,
} from "@sealwork/crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import {
  type Member,
  anchorsOf,
  chainOf,
  invitedMember,
  newSignedInvite,
  registerInvitee,
  reserveInviteId,
  rootAdmin,
  trustOf,
  openBackup,
} from "../support/identities";
import { newInviteBody } from "../support/invites";
import { TEST_CODE, newKeyBody, registerKey } from "../support/keys";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;
const DAY_MS = 86_400_000;

async function verified(viewer: Member, uid: number) {
  const { chain } = await chainOf(viewer.session.api_token, uid);
  return verifyIdentity(chain!, await trustOf(viewer.session.api_token));
}

describe("identities: the root, invitations and takeovers (protocol v2)", () => {
  let root: Member;
  beforeAll(async () => {
    root = await rootAdmin();
  });

  it("serves the setup administrator's root as the instance anchor; nobody publishes another", async () => {
    const roots = await anchorsOf(root.session.api_token);
    expect(roots).toHaveLength(1);
    expect(roots[0]!.record).toMatchObject({ userId: 1, seq: 0, certifiedBy: { kind: "root" } });
    expect(await rootAnchor(roots[0]!)).toBe(root.me.keyId);
    expect((await http<Json>("GET", "/api/identities/anchors", { token: root.session.api_token })).body).toMatchObject({ setup_user_id: 1 });
    expect(await verified(root, 1)).toMatchObject({ userId: 1, seq: 0, admin: true, keyId: root.me.keyId });

    // A second root of the setup administrator: that seq exists.
    const again = await createRootIdentity({ userId: 1, email: root.email, created: Date.now() }, root.keys);
    expect(await http("POST", "/api/identities", { token: root.session.api_token, body: { identity: again } })).toMatchObject({ status: 409, body: { code: "identity_conflict" } });
    // Anyone else's root: refused, whatever keys.
    const other = await createSession({ admin: true, superAdmin: true });
    const keys = await generateAccountKeys();
    const { body } = await newKeyBody(other.id, null, { keys });
    const own = await createRootIdentity({ userId: other.id, email: other.email!, created: Date.now() }, keys);
    expect(await http("POST", "/api/keypairs", { token: other.api_token, body: { ...body, identity: own } })).toMatchObject({ status: 403, body: { code: "identity_root_forbidden" } });
    // Nothing was stored: the key registers without it.
    expect((await http("POST", "/api/keypairs", { token: other.api_token, body })).status).toBe(200);
    expect(await http("POST", "/api/identities", { token: other.api_token, body: { identity: own } })).toMatchObject({ status: 403, body: { code: "identity_root_forbidden" } });
  });

  it("an invitee takes a signed invitation over with fresh keys: the chain verifies, the temporary key and its transit are gone", async () => {
    const invite = await newSignedInvite(root);
    const made = await http<{ account: { id: number }; keypair: { id: number }; transit: { id: number; expires_at: number } }>("POST", "/api/instance/invite", {
      token: root.session.api_token,
      body: invite.body,
    });
    expect(made.status).toBe(200);
    expect(made.body.transit.id).toBe(invite.invitation.record.inviteId);
    expect(Math.abs(made.body.transit.expires_at - invite.invitation.record.expires / 1000)).toBeLessThan(2);
    const tempId = made.body.keypair.id;
    const session = await registerInvitee(made.body.account.id, invite.body.email);
    // The invitee finds their invitation; nobody else's.
    expect((await http<Json>("GET", "/api/identities/invitation", { token: session.api_token })).body).toEqual({ invitation: invite.invitation, reset: null });
    expect((await http<Json>("GET", "/api/identities/invitation", { token: root.session.api_token })).body).toEqual({ invitation: null, reset: null });
    const transit = await http<{ recover: Json }>("POST", `/api/keypairs/${tempId}/recover`, { token: session.api_token });
    expect(transit.status).toBe(200);
    expect(await db().entities.transit.get({ keyId: tempId }).go()).toMatchObject({ data: { keyId: tempId } });

    const fresh = await generateAccountKeys();
    const birth = await createInvitedIdentity({ userId: session.id, created: Date.now(), invitation: invite.invitation }, fresh, invite.temp);
    // The temporary keys themselves: refused, the invitee makes fresh ones.
    const same = await newKeyBody(session.id, tempId, { keys: invite.temp });
    expect(await http("POST", "/api/keypairs", { token: session.api_token, body: same.body })).toMatchObject({ status: 422, body: { code: "takeover_fresh_keys" } });
    // Fresh keys without the birth record the signed invitation requires.
    const own = await newKeyBody(session.id, tempId, { keys: fresh });
    expect(await http("POST", "/api/keypairs", { token: session.api_token, body: own.body })).toMatchObject({ status: 422, body: { code: "invitation_required" } });
    // A birth record certified by another invitation (signed by the same administrator, the same temporary keys).
    const other = await createInvitation({ ...invite.invitation.record, temp: await accountPublicKeys(invite.temp), inviteId: invite.invitation.record.inviteId + 1 }, root.me);
    const wrong = await createInvitedIdentity({ userId: session.id, created: Date.now(), invitation: other }, fresh, invite.temp);
    expect(await http("POST", "/api/keypairs", { token: session.api_token, body: { ...own.body, identity: wrong } })).toMatchObject({ status: 422, body: { code: "invitation_invalid" } });
    // A record for other keys than the ones registered.
    const another = await newKeyBody(session.id, tempId);
    expect(await http("POST", "/api/keypairs", { token: session.api_token, body: { ...another.body, identity: birth } })).toMatchObject({ status: 422, body: { code: "identity_keys_mismatch" } });

    const taken = await http<{ id: number; type: string }>("POST", "/api/keypairs", { token: session.api_token, body: { ...own.body, identity: birth } });
    expect(taken).toMatchObject({ status: 200, body: { type: "public" } });
    expect((await http("GET", `/api/keypairs/${tempId}`, { token: session.api_token })).status).toBe(404);
    expect((await http("POST", `/api/keypairs/${tempId}/recover`, { token: session.api_token })).status).toBe(404);
    expect((await db().entities.transit.get({ keyId: tempId }).go()).data).toBeNull();
    expect((await http<Json>("GET", "/api/identities/invitation", { token: session.api_token })).body).toEqual({ invitation: null, reset: null });

    const member = { session, keys: fresh, me: await identityKeys(session.id, fresh), email: invite.body.email, keyId: taken.body.id };
    const identity = await verified(root, session.id);
    expect(identity).toMatchObject({ userId: session.id, seq: 0, keyId: member.me.keyId, anchor: root.me.keyId, admin: false, email: invite.body.email });
    const bundle = await chainOf(root.session.api_token, session.id);
    expect(bundle.legacy).toBeNull();
    expect(bundle.chain!.issuers.map((i) => i.userId)).toEqual([1]);
  });

  it("refuses invitations that are not the administrator's to sign, or do not fit the invite", async () => {
    const post = (token: string, body: unknown) => http<Json>("POST", "/api/instance/invite", { token, body });
    const good = await newSignedInvite(root);
    // Another address, other temporary keys, an unreserved id, a long expiry, a changed field.
    const retarget = async (changes: Partial<Parameters<typeof createInvitation>[0]>) =>
      createInvitation({ inviteId: good.invitation.record.inviteId, email: good.body.email, temp: await accountPublicKeys(good.temp), expires: good.invitation.record.expires, ...changes }, root.me);
    expect(await post(root.session.api_token, { ...good.body, invitation: await retarget({ email: "someone.else@example.org" }) })).toMatchObject({ status: 422, body: { code: "invitation_invalid" } });
    expect(await post(root.session.api_token, { ...good.body, invitation: await retarget({ temp: await accountPublicKeys(await generateAccountKeys()) }) })).toMatchObject({
      status: 422,
      body: { code: "invitation_invalid" },
    });
    expect(await post(root.session.api_token, { ...good.body, invitation: await retarget({ expires: Date.now() + 60 * DAY_MS }) })).toMatchObject({ status: 422, body: { code: "invitation_invalid" } });
    expect(await post(root.session.api_token, { ...good.body, invitation: await retarget({ inviteId: 987654321 }) })).toMatchObject({ status: 422, body: { code: "invite_reservation_invalid" } });
    const tampered = { ...good.invitation, record: { ...good.invitation.record, expires: good.invitation.record.expires - 1000 } };
    expect(await post(root.session.api_token, { ...good.body, invitation: tampered })).toMatchObject({ status: 422, body: { code: "identity_signature_invalid" } });
    expect(await post(root.session.api_token, { ...good.body, invitation: { ...good.invitation, extra: 1 } })).toMatchObject({ status: 422, body: { code: "identity_malformed" } });

    // An administrator without a certified identity cannot sign one that verifies (a legacy administrator).
    const legacyAdmin = await createSession({ admin: true });
    const keys = await generateAccountKeys();
    await http("POST", "/api/keypairs", { token: legacyAdmin.api_token, body: (await newKeyBody(legacyAdmin.id, null, { keys })).body });
    const theirs = await newInviteBody();
    const id = await reserveInviteId(legacyAdmin.api_token);
    const unsigned = await createInvitation({ inviteId: id, email: theirs.body.email, temp: await accountPublicKeys(theirs.keys), expires: Date.now() + DAY_MS }, await identityKeys(legacyAdmin.id, keys));
    expect(await post(legacyAdmin.api_token, { ...theirs.body, invitation: unsigned })).toMatchObject({ status: 422, body: { code: "identity_untrusted" } });
    // The root's invitation sent by another administrator: not their reservation.
    expect(await post(legacyAdmin.api_token, good.body)).toMatchObject({ status: 422, body: { code: "invite_reservation_invalid" } });
    // They still invite without a signature (a legacy invitation).
    expect((await post(legacyAdmin.api_token, theirs.body)).status).toBe(200);

    // The good one works once; its reserved id is used up.
    expect((await post(root.session.api_token, good.body)).status).toBe(200);
    const twice = await newSignedInvite(root);
    const reused = await createInvitation(
      { inviteId: good.invitation.record.inviteId, email: twice.body.email, temp: await accountPublicKeys(twice.temp), expires: twice.invitation.record.expires },
      root.me,
    );
    expect(await post(root.session.api_token, { ...twice.body, invitation: reused })).toMatchObject({ status: 422, body: { code: "invite_reservation_invalid" } });
  });

  it("deletes the transit envelope once the invitation has expired, and refuses a late takeover", async () => {
    const invite = await newSignedInvite(root);
    const made = await http<{ account: { id: number }; keypair: { id: number } }>("POST", "/api/instance/invite", { token: root.session.api_token, body: invite.body });
    const session = await registerInvitee(made.body.account.id, invite.body.email);
    await Invite.setValidUntil(made.body.account.id, Math.floor(Date.now() / 1000) - 1);
    expect(await http("POST", `/api/keypairs/${made.body.keypair.id}/recover`, { token: session.api_token })).toMatchObject({ status: 403, body: { code: "invite_expired" } });
    expect((await db().entities.transit.get({ keyId: made.body.keypair.id }).go()).data).toBeNull();
    const fresh = await generateAccountKeys();
    const birth = await createInvitedIdentity({ userId: session.id, created: Date.now(), invitation: invite.invitation }, fresh, invite.temp);
    const own = await newKeyBody(session.id, made.body.keypair.id, { keys: fresh });
    expect(await http("POST", "/api/keypairs", { token: session.api_token, body: { ...own.body, identity: birth } })).toMatchObject({ status: 403, body: { code: "invite_expired" } });
  });

  it("issues an expired signed invitation again with new temporary keys and a new signed invitation", async () => {
    const invite = await newSignedInvite(root);
    const made = await http<{ account: { id: number }; keypair: { id: number }; transit: { id: number } }>("POST", "/api/instance/invite", { token: root.session.api_token, body: invite.body });
    await Invite.setValidUntil(made.body.account.id, Math.floor(Date.now() / 1000) - 60);
    const path = `/api/instance/invites/${made.body.transit.id}/resend`;
    expect(await http("POST", path, { token: root.session.api_token })).toMatchObject({ status: 409, body: { code: "invite_reissue" } });
    const next = await newInviteBody({ email: invite.body.email });
    const reissue = { public_key: next.body.public_key, transit: next.body.transit };
    expect(await http("POST", path, { token: root.session.api_token, body: reissue })).toMatchObject({ status: 422, body: { code: "invitation_required" } });
    const invitation = await createInvitation({ inviteId: made.body.transit.id, email: invite.body.email, temp: await accountPublicKeys(next.keys), expires: Date.now() + 30 * DAY_MS }, root.me);
    const resent = await http<Json>("POST", path, { token: root.session.api_token, body: { ...reissue, invitation } });
    expect(resent).toMatchObject({ status: 200, body: { status: "pending" } });
    expect((await db().entities.keypair.get({ id: made.body.keypair.id }).go()).data).toBeNull();

    const session = await registerInvitee(made.body.account.id, invite.body.email);
    const state = await http<{ keypair: { id: number; type: string } }>("GET", "/api/keypairs", { token: session.api_token });
    expect(state.body.keypair).toMatchObject({ type: "temp" });
    const fresh = await generateAccountKeys();
    const birth = await createInvitedIdentity({ userId: session.id, created: Date.now(), invitation }, fresh, next.keys);
    const own = await newKeyBody(session.id, state.body.keypair.id, { keys: fresh });
    expect((await http("POST", "/api/keypairs", { token: session.api_token, body: { ...own.body, identity: birth } })).status).toBe(200);
    expect(await verified(root, session.id)).toMatchObject({ userId: session.id, anchor: root.me.keyId });
  });
});

describe("identities: rotations, records of others, certificates, pins", () => {
  let root: Member;
  beforeAll(async () => {
    root = await rootAdmin();
  });

  it("lets exactly one of several windows publish the next seq", async () => {
    const member = await invitedMember(root);
    const birth = (await chainOf(member.session.api_token, member.session.id)).chain!.records[0]!;
    // Five windows rotate at once, each to keys of its own: one key and one seq 1 win.
    const attempts = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const keys = await generateAccountKeys();
        const next = await rotateIdentity(birth, member.keys, { created: Date.now() }, keys);
        const { body } = await newKeyBody(member.session.id, member.keyId, { keys });
        return http<Json>("POST", "/api/keypairs", { token: member.session.api_token, body: { ...body, identity: next } });
      }),
    );
    expect(attempts.filter((r) => r.status === 200)).toHaveLength(1);
    expect(attempts.filter((r) => r.status === 409)).toHaveLength(4);
    const after = await chainOf(member.session.api_token, member.session.id);
    expect(after.chain!.records.map((r) => r.record.seq)).toEqual([0, 1]);
    expect((await verified(root, member.session.id)).seq).toBe(1);

    // The same race on POST /api/identities: a key registered without its record, then two
    // windows publish seq 2 for it at once.
    const current = after.chain!.records[1]!;
    const winner = attempts.find((r) => r.status === 200)!.body as { id: number };
    const currentKeys = await findKeys(member, current, winner.id);
    const newest = await generateAccountKeys();
    const plain = await newKeyBody(member.session.id, winner.id, { keys: newest });
    expect((await http("POST", "/api/keypairs", { token: member.session.api_token, body: plain.body })).status).toBe(200);
    const records = await Promise.all([0, 1].map((n) => rotateIdentity(current, currentKeys, { created: Date.now() + n }, newest)));
    const published = await Promise.all(records.map((identity) => http<Json>("POST", "/api/identities", { token: member.session.api_token, body: { identity } })));
    expect(published.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(published.find((r) => r.status === 409)!.body).toMatchObject({ code: "identity_conflict" });
    // A gap (seq 4 after 2) and an old seq again.
    const gap = { ...records[0]!, record: { ...records[0]!.record, seq: 4 } };
    expect((await http<Json>("POST", "/api/identities", { token: member.session.api_token, body: { identity: gap } })).body).toMatchObject({ code: "identity_chain_invalid" });
  });

  it("refuses another user's record, records for other keys, and shapes that are not a record", async () => {
    const alice = await invitedMember(root);
    const bob = await invitedMember(root);
    const bobsBirth = (await chainOf(bob.session.api_token, bob.session.id)).chain!.records[0]!;
    // Alice publishes Bob's record: not hers.
    expect(await http("POST", "/api/identities", { token: alice.session.api_token, body: { identity: bobsBirth } })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    // Bob's next record for keys that are not his current key.
    const keys = await generateAccountKeys();
    const rotation = await rotateIdentity(bobsBirth, bob.keys, { created: Date.now() }, keys);
    expect(await http("POST", "/api/identities", { token: bob.session.api_token, body: { identity: rotation } })).toMatchObject({ status: 422, body: { code: "identity_keys_mismatch" } });
    // Shapes: not an object, extra fields, a changed signature, a created time far off.
    for (const identity of [null, "x", [], { ...bobsBirth, extra: 1 }, { record: bobsBirth.record }]) {
      const reply = await http<Json>("POST", "/api/identities", { token: bob.session.api_token, body: { identity } });
      expect([422], JSON.stringify(identity)).toContain(reply.status);
      expect(["validation", "identity_malformed"]).toContain(reply.body.code);
    }
    const { body } = await newKeyBody(bob.session.id, bob.keyId, { keys });
    const forged = { ...rotation, certifier: rotation.self };
    expect(await http("POST", "/api/keypairs", { token: bob.session.api_token, body: { ...body, identity: forged } })).toMatchObject({ status: 422, body: { code: "identity_signature_invalid" } });
    const late = await rotateIdentity(bobsBirth, bob.keys, { created: Date.now() + 3 * DAY_MS }, keys);
    expect(await http("POST", "/api/keypairs", { token: bob.session.api_token, body: { ...body, identity: late } })).toMatchObject({ status: 422, body: { code: "clock_skew" } });
  });

  it("answers one spelling of an id, and refuses bodies that are too big", async () => {
    const token = root.session.api_token;
    for (const id of ["01", "1e0", "0x1", "0", "-1", "1.0", "%201", "abc", "99999999999999999"]) {
      expect((await http("GET", `/api/identities/${id}`, { token })).status, id).toBe(422);
      expect((await http("POST", `/api/identities/${id}/admin`, { token, body: { certificate: {} } })).status, id).toBe(422);
    }
    expect(await http("GET", "/api/identities/987654321", { token })).toMatchObject({ status: 404, body: { code: "user_not_found" } });
    const big = { record: { type: "identity", padding: "x".repeat(9000) }, self: "x" };
    expect(await http("POST", "/api/identities", { token, body: { identity: big } })).toMatchObject({ status: 422, body: { code: "validation" } });
    expect((await http("POST", "/api/identities", { token, body: { identity: { padding: "x".repeat(1100 * 1024) } } })).status).toBe(413);
    expect(await http("PUT", "/api/identities/pins", { token, body: { data: "x".repeat(513 * 1024), rev: 0 } })).toMatchObject({ status: 422, body: { code: "validation" } });
    expect(await http("POST", "/api/keypairs", { token, body: { ...(await newKeyBody(1, root.keyId)).body, identity: big } })).toMatchObject({ status: 422, body: { code: "validation" } });
  });

  it("serves a v1 account's key as a legacy contact, and nothing for an account without a key", async () => {
    const legacy = await createSession();
    expect(await chainOf(root.session.api_token, legacy.id)).toEqual({ chain: null, legacy: null });
    const keyId = await registerKey(legacy);
    const bundle = await chainOf(root.session.api_token, legacy.id);
    expect(bundle.chain).toBeNull();
    expect(bundle.legacy).toMatchObject({ id: keyId });
  });

  it("an administrator certifies another administrator once; their invitations then verify", async () => {
    const admin = await invitedMember(root, { admin: true });
    const plain = await invitedMember(root);
    expect((await verified(root, admin.session.id)).admin).toBe(false);
    const certificate = await grantAdmin({ userId: admin.session.id, keyId: admin.me.keyId, granted: Date.now() }, root.me);
    const path = `/api/identities/${admin.session.id}/admin`;
    // Not for a key of their chain; not by the one who sends it; not for someone else; not by a non-admin.
    const strange = await grantAdmin({ userId: admin.session.id, keyId: plain.me.keyId, granted: Date.now() }, root.me);
    expect(await http("POST", path, { token: root.session.api_token, body: { certificate: strange } })).toMatchObject({ status: 422, body: { code: "identity_chain_invalid" } });
    expect(await http("POST", `/api/identities/${plain.session.id}/admin`, { token: root.session.api_token, body: { certificate } })).toMatchObject({ status: 403 });
    expect((await http("POST", path, { token: plain.session.api_token, body: { certificate } })).status).toBe(403);
    expect(await http("POST", path, { token: root.session.api_token, body: { certificate } })).toMatchObject({ status: 200, body: { user_id: admin.session.id, key_id: admin.me.keyId } });
    expect(await http("POST", path, { token: root.session.api_token, body: { certificate } })).toMatchObject({ status: 409, body: { code: "admin_certificate_exists" } });
    expect((await verified(root, admin.session.id)).admin).toBe(true);

    const invitee = await invitedMember(admin);
    const bundle = await chainOf(plain.session.api_token, invitee.session.id);
    expect(bundle.chain!.issuers.map((i) => i.userId).sort((a, b) => a - b)).toEqual([1, admin.session.id]);
    expect(bundle.chain!.admins).toHaveLength(1);
    expect(await verified(plain, invitee.session.id)).toMatchObject({ userId: invitee.session.id, anchor: root.me.keyId });
  });

  it("keeps each user's encrypted pins with a revision; a stale revision is refused", async () => {
    const me = await createSession();
    const other = await createSession();
    const pins = (token: string) => http<Json>("GET", "/api/identities/pins", { token });
    const save = (token: string, data: string, rev: number) => http<Json>("PUT", "/api/identities/pins", { token, body: { data, rev } });
    const keys = await generateAccountKeys();
    const envelope = (n: number) => sealAccountData(keys, { userId: me.id, kind: "pins" }, { n });
    expect((await pins(me.api_token)).body).toEqual({ data: null, rev: 0 });
    expect(await save(me.api_token, "plain text pins", 0)).toMatchObject({ status: 422, body: { code: "pins_invalid" } });
    expect(await save(me.api_token, await envelope(2), 0)).toMatchObject({ status: 200, body: { rev: 1 } });
    expect(await save(me.api_token, await envelope(2), 0)).toMatchObject({ status: 409, body: { code: "pins_conflict" } });
    const racing = await Promise.all([save(me.api_token, await envelope(6), 1), save(me.api_token, await envelope(10), 1)]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await pins(me.api_token)).body).toMatchObject({ rev: 2 });
    expect((await pins(other.api_token)).body).toEqual({ data: null, rev: 0 });
  });
});

/** The private keys of the record `current` (the winning window's), recovered from its backup. */
async function findKeys(member: Member, current: SignedIdentity, keyId: number) {
  const backup = await http<{ recover: Json }>("POST", `/api/keypairs/${keyId}/recover`, { token: member.session.api_token });
  const keys = await openBackup(backup.body.recover, TEST_CODE, member.session.api_token);
  const pub = await accountPublicKeys(keys);
  if (pub.signPublic !== current.record.signPublic) throw new Error("the recovered key is not the current record's");
  return keys;
}
