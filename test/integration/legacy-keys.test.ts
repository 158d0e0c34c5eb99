import {
  type IdentityChain,
  type SignedLegacyKey,
  type SignedLegacyRule,
  accountPublicKeys,
  certifyLegacyKey,
  createLegacyRule,
  createRootIdentity,
  generateAccountKeys,
  grantAdmin,
  identityKeys,
  rootAnchor,
  verifyLegacyKey,
  verifyLegacyRule,
} from "@sealwork/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, login, useRuntime } from "../support/api";
import { type Member, anchorsOf, chainOf, invitedMember, legacyMember, openBackup, registerInvitee } from "../support/identities";
import { type CreatedInvite, newInviteBody } from "../support/invites";
import { newKeyReset } from "../support/key-resets";
import { BROWSER_SECURE_CODE, registerKey } from "../support/keys";
import { type SpawnedRuntime, spawnRuntime } from "../support/runtime";

/**
 * Certificates for version 1 keys and the instance's legacy rule (docs/protocol.md §14.14), on an
 * instance of their own: the rule changes what every client of an instance accepts, so it is not
 * published on the shared runtime, whose other tests seal for version 1 members.
 */

type Json = Record<string, unknown>;
const ADMIN = { name: "Rule Root", email: "rule.root@example.ch", password: "rule-root-pw-1" };

/** A flipped bit in a record-signature envelope's `sig`. */
function flipped(signature: string): string {
  const envelope = JSON.parse(signature) as { sig: string };
  const last = envelope.sig.at(-2) === "A" ? "B" : "A";
  return signature.replace(envelope.sig, `${envelope.sig.slice(0, -2)}${last}${envelope.sig.at(-1)}`);
}

describe("certified version 1 keys and the legacy rule", () => {
  let runtime: SpawnedRuntime;
  let root: Member;
  const trust = async () => ({ anchors: await Promise.all((await anchorsOf(root.session.api_token)).map((r) => rootAnchor(r))) });
  const certificateFor = async (person: { session: { id: number }; keys: { encryptPublic: string; signPublic: string } }, issuer: Member, certified = Date.now()) =>
    certifyLegacyKey({ userId: person.session.id, keys: person.keys, anchor: root.me.keyId, certified }, issuer.me);
  const post = (token: string, uid: number, certificate: unknown) => http<Json>("POST", `/api/identities/${uid}/legacy`, { token, body: { certificate } });

  beforeAll(async () => {
    runtime = await spawnRuntime({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name } });
    useRuntime(runtime.url);
    const session = await login(1, ADMIN.password);
    const keypairId = await registerKey(session, null, BROWSER_SECURE_CODE);
    const backup = await http<{ recover: Json }>("POST", `/api/keypairs/${keypairId}/recover`, { token: session.api_token });
    const keys = await openBackup(backup.body.recover, BROWSER_SECURE_CODE, session.api_token);
    const identity = await createRootIdentity({ userId: 1, email: ADMIN.email, created: Date.now() }, keys);
    expect((await http("POST", "/api/identities", { token: session.api_token, body: { identity } })).status).toBe(200);
    root = { session, keys, me: await identityKeys(1, keys), email: ADMIN.email, keyId: keypairId };
  }, 120_000);
  afterAll(async () => {
    useRuntime(undefined);
    await runtime?.stop();
  });

  it("GET /api/identities/uncertified lists exactly the version 1 accounts without a certificate, to administrators only", { timeout: 120_000 }, async () => {
    const listed = async (token: string) => http<{ accounts: { user: { id: number; email: string | null; name: string }; keypair_id: number }[] }>("GET", "/api/identities/uncertified", { token });
    // The instance holds only the root (an identity): nobody to certify.
    expect(await listed(root.session.api_token)).toMatchObject({ status: 200, body: { accounts: [] } });
    const ulla = await legacyMember(root, "ulla.legacy@example.ch");
    const otto = await legacyMember(root, "otto.legacy@example.ch");
    const cert = await legacyMember(root, "cert.legacy@example.ch");
    const gone = await legacyMember(root, "gone.legacy@example.ch");
    const vince = await invitedMember(root);
    const carol = await invitedMember(root, { admin: true });
    const grant = await grantAdmin({ userId: carol.session.id, keyId: carol.me.keyId, granted: Date.now() }, root.me);
    expect((await http("POST", `/api/identities/${carol.session.id}/admin`, { token: root.session.api_token, body: { certificate: grant } })).status).toBe(200);
    expect((await post(root.session.api_token, cert.session.id, await certificateFor(cert, root))).status).toBe(200);
    // Pending invitees: one not registered yet, one registered who has not taken the invitation over (temporary keys, nothing to certify).
    const invited = await http<CreatedInvite>("POST", "/api/instance/invite", { token: root.session.api_token, body: (await newInviteBody({ email: "pending.legacy@example.ch" })).body });
    expect(invited.status).toBe(200);
    const waiting = await http<CreatedInvite>("POST", "/api/instance/invite", { token: root.session.api_token, body: (await newInviteBody({ email: "waiting.legacy@example.ch" })).body });
    await registerInvitee(waiting.body.account.id, "waiting.legacy@example.ch");
    // A version 1 account whose key an administrator reset (a temporary key until it is taken over).
    const reset = await newKeyReset(root, { userId: gone.session.id, current: null, email: gone.email });
    expect((await http("POST", `/api/identities/${gone.session.id}/reset`, { token: root.session.api_token, body: reset.body })).status).toBe(200);

    // Members (a v2 one, a v1 one) are refused; administrators (with or without an identity of their own) see the same list.
    expect(await listed(vince.session.api_token)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await listed(ulla.session.api_token)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    const answer = await listed(root.session.api_token);
    expect(answer.status).toBe(200);
    expect(answer.body.accounts.map((account) => [account.user.id, account.keypair_id])).toEqual([
      [ulla.session.id, ulla.keypairId],
      [otto.session.id, otto.keypairId],
    ]);
    expect(answer.body.accounts[0]!.user).toMatchObject({ email: "ulla.legacy@example.ch", name: "Invited Person", hasAdminRole: false, password_empty: false });
    expect((await listed(carol.session.api_token)).body).toEqual(answer.body);
    // Several windows asking at once get the same answer; certifying one takes it off.
    const together = await Promise.all([0, 1, 2].map(() => listed(carol.session.api_token)));
    for (const reply of together) expect(reply.body).toEqual(answer.body);
    expect((await post(carol.session.api_token, otto.session.id, await certificateFor(otto, carol))).status).toBe(200);
    expect((await listed(root.session.api_token)).body.accounts.map((account) => account.user.id)).toEqual([ulla.session.id]);
    expect((await post(root.session.api_token, ulla.session.id, await certificateFor(ulla, root))).status).toBe(200);
    expect((await listed(root.session.api_token)).body.accounts).toEqual([]);
  });

  it("an administrator certifies a version 1 key once; the bundle serves it with the administrator's chain, and it verifies", { timeout: 120_000 }, async () => {
    const vera = await legacyMember(root, "vera.legacy@example.ch");
    const walt = await legacyMember(root, "walt.legacy@example.ch");
    const carol = await invitedMember(root, { admin: true });
    const cert = await grantAdmin({ userId: carol.session.id, keyId: carol.me.keyId, granted: Date.now() }, root.me);
    expect((await http("POST", `/api/identities/${carol.session.id}/admin`, { token: root.session.api_token, body: { certificate: cert } })).status).toBe(200);
    const dan = await invitedMember(root, { admin: true });
    const paul = await invitedMember(root);
    expect((await chainOf(root.session.api_token, vera.session.id)).legacy).toMatchObject({ id: vera.keypairId, certificate: null, issuer: null });

    // A member who is no administrator (refused by the API), an administrator without an admin
    // certificate (refused as a client would: identity_untrusted).
    expect(await post(paul.session.api_token, vera.session.id, await certificateFor(vera, paul))).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await post(dan.session.api_token, vera.session.id, await certificateFor(vera, dan))).toMatchObject({ status: 422, body: { code: "identity_untrusted" } });
    // A wrong signature, another key, another account, someone else's certificate, a time far off, a shape that is not one.
    const good = await certificateFor(vera, carol);
    expect(await post(carol.session.api_token, vera.session.id, { ...good, signature: flipped(good.signature) })).toMatchObject({ status: 422, body: { code: "identity_signature_invalid" } });
    expect(await post(carol.session.api_token, vera.session.id, await certificateFor({ session: vera.session, keys: walt.keys }, carol))).toMatchObject({ status: 422, body: { code: "identity_keys_mismatch" } });
    expect(await post(carol.session.api_token, walt.session.id, good)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await post(root.session.api_token, vera.session.id, good)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await post(carol.session.api_token, vera.session.id, await certificateFor(vera, carol, Date.now() + 3 * 86_400_000))).toMatchObject({ status: 422, body: { code: "clock_skew" } });
    expect(await post(carol.session.api_token, vera.session.id, { ...good, extra: 1 })).toMatchObject({ status: 422, body: { code: "identity_malformed" } });
    const foreign = await certifyLegacyKey({ userId: vera.session.id, keys: vera.keys, anchor: carol.me.keyId, certified: Date.now() }, carol.me);
    expect(await post(carol.session.api_token, vera.session.id, foreign)).toMatchObject({ status: 422, body: { code: "identity_chain_invalid" } });
    // An account with a certified identity needs no such certificate.
    expect(await post(carol.session.api_token, paul.session.id, await certificateFor({ session: paul.session, keys: await accountPublicKeys(paul.keys) }, carol))).toMatchObject({ status: 409, body: { code: "legacy_has_identity" } });

    // Several windows (and administrators) at once: one certificate is stored.
    const racing = await Promise.all([
      post(carol.session.api_token, vera.session.id, good),
      post(carol.session.api_token, vera.session.id, await certificateFor(vera, carol, Date.now() + 1)),
      post(root.session.api_token, vera.session.id, await certificateFor(vera, root)),
      post(root.session.api_token, vera.session.id, await certificateFor(vera, root, Date.now() + 1)),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const reply of racing.filter((r) => r.status === 409)) expect(reply.body).toMatchObject({ code: "legacy_certificate_exists" });
    expect(await post(carol.session.api_token, vera.session.id, good)).toMatchObject({ status: 409, body: { code: "legacy_certificate_exists" } });

    // Every member gets it with Vera's key, with the certifying administrator's chain to check it.
    const { legacy } = (await http<{ legacy: { certificate: SignedLegacyKey; issuer: IdentityChain } }>("GET", `/api/identities/${vera.session.id}`, { token: paul.session.api_token })).body;
    const verified = await verifyLegacyKey(legacy.certificate, { userId: vera.session.id, ...vera.keys }, legacy.issuer, await trust());
    expect(verified).toMatchObject({ userId: vera.session.id, anchor: root.me.keyId });
    expect([carol.session.id, 1]).toContain(verified.issuer.userId);
    expect((await chainOf(paul.session.api_token, walt.session.id)).legacy).toMatchObject({ certificate: null, issuer: null });
  });

  it("only the root publishes the legacy rule, once; the anchors serve it", { timeout: 120_000 }, async () => {
    const anchors = () => http<{ legacy_rule: SignedLegacyRule | null }>("GET", "/api/identities/anchors", { token: root.session.api_token });
    expect((await anchors()).body.legacy_rule).toBeNull();
    const carol = await invitedMember(root, { admin: true });
    const publish = (token: string, rule: unknown) => http<Json>("POST", "/api/identities/legacy-rule", { token, body: { rule } });
    const rule = await createLegacyRule({ made: Date.now() }, root.me);
    expect(await publish(carol.session.api_token, await createLegacyRule({ made: Date.now() }, carol.me))).toMatchObject({ status: 403, body: { code: "identity_root_forbidden" } });
    expect(await publish(root.session.api_token, await createLegacyRule({ made: Date.now() }, carol.me))).toMatchObject({ status: 422, body: { code: "identity_untrusted" } });
    expect(await publish(root.session.api_token, { ...rule, signature: flipped(rule.signature) })).toMatchObject({ status: 422, body: { code: "identity_signature_invalid" } });
    expect(await publish(root.session.api_token, { record: rule.record })).toMatchObject({ status: 422, body: { code: "identity_malformed" } });
    const other = await createLegacyRule({ made: Date.now() }, await identityKeys(1, await generateAccountKeys()));
    expect(await publish(root.session.api_token, other)).toMatchObject({ status: 422, body: { code: "identity_untrusted" } });

    const racing = await Promise.all([0, 1, 2].map(async (n) => publish(root.session.api_token, await createLegacyRule({ made: Date.now() + n }, root.me))));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const reply of racing.filter((r) => r.status === 409)) expect(reply.body).toMatchObject({ code: "legacy_rule_exists" });
    const served = (await anchors()).body.legacy_rule!;
    expect(await verifyLegacyRule(served, await anchorsOf(root.session.api_token), await trust())).toBe(root.me.keyId);
    expect(await publish(root.session.api_token, rule)).toMatchObject({ status: 409, body: { code: "legacy_rule_exists" } });
  });
});
