import { type SignedIdentity, type SignedLegacyKey, certifyLegacyKey, createLegacyIdentity, generateAccountKeys, verifyIdentity } from "@sealwork/crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { type Member, chainOf, invitedMember, legacyMember, rootAdmin, trustOf } from "../support/identities";
import { newKeyBody } from "../support/keys";

/**
 * A version 1 user's own move to a certified identity (docs/protocol.md §14.14): POST
 * /api/keypairs in place of their v1 key, with a birth record certified by that key and carrying
 * the certificate an administrator stored for it.
 */

type Json = Record<string, unknown>;
let counter = 0;

describe("a version 1 user renews their key into a certified identity", () => {
  let root: Member;
  beforeAll(async () => {
    root = await rootAdmin();
  });

  /** A v1 member, certified by the root unless `certified` is false. */
  async function v1Member(certified = true) {
    const member = await legacyMember(root, `v1.rotation.${Date.now()}.${counter++}@example.ch`);
    const certificate = await certifyLegacyKey({ userId: member.session.id, keys: member.keys, anchor: root.me.keyId, certified: Date.now() }, root.me);
    if (certified) expect((await http("POST", `/api/identities/${member.session.id}/legacy`, { token: root.session.api_token, body: { certificate } })).status).toBe(200);
    return { ...member, certificate };
  }

  /** The registration of fresh keys with a birth record certified by the v1 key (or as `make` changes it). */
  async function renewal(member: Awaited<ReturnType<typeof v1Member>>, options: { certificate?: SignedLegacyKey; lastKey?: number; identity?: (birth: SignedIdentity) => unknown } = {}) {
    const keys = await generateAccountKeys();
    const birth = await createLegacyIdentity({ userId: member.session.id, email: member.email, created: Date.now(), certificate: options.certificate ?? member.certificate }, keys, member.accountKeys);
    const { body } = await newKeyBody(member.session.id, options.lastKey ?? member.keypairId, { keys });
    const identity = options.identity ? options.identity(birth) : birth;
    return http<Json>("POST", "/api/keypairs", { token: member.session.api_token, body: { ...body, identity } });
  }

  /** Nothing was stored: still the v1 key, no chain. */
  async function unchanged(member: Awaited<ReturnType<typeof v1Member>>) {
    const bundle = await chainOf(root.session.api_token, member.session.id);
    expect(bundle.chain).toBeNull();
    expect(bundle.legacy).toMatchObject({ id: member.keypairId });
  }

  it("a certified v1 key certifies its successor's birth record: stored with the key, served as a chain others verify", { timeout: 120_000 }, async () => {
    const vera = await v1Member();
    const reply = await renewal(vera);
    expect(reply.status).toBe(200);
    const bundle = await chainOf(root.session.api_token, vera.session.id);
    expect(bundle.legacy).toBeNull();
    expect(bundle.chain!.records.map((r) => r.record.certifiedBy.kind)).toEqual(["legacy"]);
    // The bundle brings the certifying administrator's chain; a client verifies it to its anchors.
    const identity = await verifyIdentity(bundle.chain!, await trustOf(root.session.api_token));
    expect(identity).toMatchObject({ userId: vera.session.id, seq: 0, keyId: expect.any(String) });
    expect(identity.keys[0]!.legacy).toBeDefined();
    // The v1 key is gone: doing it again from it is a stale key or an existing birth.
    expect([409]).toContain((await renewal(vera)).status);
  });

  it("refuses an uncertified v1 key, another certificate, the wrong certifier and a wrong last key, storing nothing", { timeout: 180_000 }, async () => {
    const walt = await v1Member(false);
    expect((await renewal(walt)).body).toMatchObject({ code: "legacy_key_uncertified" });
    await unchanged(walt);

    const vera = await v1Member();
    // A certificate that is not the stored one (another administrator's for the same key, signed later).
    const carol = await invitedMember(root);
    const byRootAgain = await certifyLegacyKey({ userId: vera.session.id, keys: vera.keys, anchor: root.me.keyId, certified: Date.now() + 1000 }, root.me);
    expect((await renewal(vera, { certificate: byRootAgain })).body).toMatchObject({ code: "legacy_certificate_mismatch" });
    // Another user's certificate (Walt's key is not Vera's): the maker refuses it; hand-made, the server does too.
    const paul = await v1Member();
    expect((await renewal(vera, { identity: (birth) => ({ ...birth, record: { ...birth.record, certifiedBy: { kind: "legacy", certificate: paul.certificate } } }) })).body).toMatchObject({
      code: "legacy_certificate_mismatch",
    });
    // The record certified by another signature than the v1 key's.
    const forged = await renewal(vera, {
      identity: (birth) => ({ ...birth, certifier: JSON.stringify({ ...JSON.parse(birth.certifier!), sig: JSON.parse(birth.self).sig }) }),
    });
    expect(forged.body).toMatchObject({ code: "identity_signature_invalid" });
    // Not in place of the certified key (a last key that is not the current one).
    expect((await renewal(vera, { lastKey: carol.keyId })).body).toMatchObject({ code: "legacy_key_uncertified" });
    // A record naming someone else.
    expect((await renewal(vera, { identity: (birth) => ({ ...birth, record: { ...birth.record, userId: paul.session.id } }) })).status).toBe(403);
    await unchanged(vera);
    // Paul's stored certificate stays his: Vera's refusals left it, and it still works for him.
    expect((await renewal(paul)).status).toBe(200);
  });

  it("parallel renewals from the same certified v1 key: one wins", { timeout: 120_000 }, async () => {
    const vera = await v1Member();
    const attempts = await Promise.all(Array.from({ length: 4 }, () => renewal(vera)));
    expect(attempts.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const reply of attempts.filter((r) => r.status === 409)) expect(["keypair_stale", "identity_conflict"]).toContain(reply.body.code);
    const bundle = await chainOf(root.session.api_token, vera.session.id);
    expect(bundle.chain!.records).toHaveLength(1);
    const winner = attempts.find((r) => r.status === 200)!.body as { id: number };
    const identity = await verifyIdentity(bundle.chain!, await trustOf(root.session.api_token));
    const current = await http<{ keypair: { id: number } }>("GET", "/api/keypairs", { token: vera.session.api_token });
    expect(current.body.keypair.id).toBe(winner.id);
    expect(identity.seq).toBe(0);
  });
});
