import { db } from "@sealwork/core/db/service";
import { KEY_RESET_DAYS } from "@sealwork/contracts";
import {
  type SignedIdentity,
  accountPublicKeys,
  createKeyReset,
  createResetIdentity,
  generateAccountKeys,
  grantAdmin,
  identityKeys,
  rotateIdentity,
  verifyIdentity,
} from "@sealwork/crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { http, uniqueEmail } from "../support/api";
import { type Member, chainOf, invitedMember, legacyMember, newSignedInvite, rootAdmin, trustOf } from "../support/identities";
import { currentIdentity, newKeyReset, resetTakeover } from "../support/key-resets";
import { tempKeyBody } from "../support/invites";
import { newKeyBody } from "../support/keys";
import { createSession } from "../support/users";

/**
 * Key resets (docs/protocol.md §14.3, "Key resets"; docs/api.md, "Key resets"): an administrator
 * resets the key of a user who lost their secure code, the user takes the reset over with fresh
 * keys certified by it. On the shared runtime: the resets concern this file's own accounts.
 */

type Json = Record<string, unknown>;
const DAY_MS = 86_400_000;

const post = (token: string, uid: number | string, body: unknown) => http<Json>("POST", `/api/identities/${uid}/reset`, { token, body });
const keyState = async (token: string) => (await http<{ keypair: { id: number; type: string } }>("GET", "/api/keypairs", { token })).body.keypair;
const stored = async (uid: number) => (await db().entities.keyreset.get({ userId: uid }).go()).data;
const transitOf = async (keyId: number) => (await db().entities.transit.get({ keyId }).go()).data;

describe("key resets", () => {
  let root: Member;
  /** An administrator with a certified identity and an admin certificate (a v2 administrator). */
  let carol: Member;
  beforeAll(async () => {
    root = await rootAdmin();
    carol = await invitedMember(root, { admin: true });
    const certificate = await grantAdmin({ userId: carol.session.id, keyId: carol.me.keyId, granted: Date.now() }, root.me);
    const granted = await http("POST", `/api/identities/${carol.session.id}/admin`, { token: root.session.api_token, body: { certificate } });
    expect(granted.status).toBe(200);
  }, 120_000);

  it("an administrator resets a user's key; the user takes it over with fresh keys and the chain verifies", { timeout: 120_000 }, async () => {
    const paul = await invitedMember(root);
    const before = await currentIdentity(paul.session.api_token, paul.session.id);
    const made = await newKeyReset(carol, { userId: paul.session.id, current: before });
    const reply = await post(carol.session.api_token, paul.session.id, made.body);
    expect(reply).toMatchObject({ status: 200, body: { user_id: paul.session.id, expires: Math.floor(made.reset.record.expires / 1000) } });
    const tempId = reply.body.keypair_id as number;
    // The temporary key is the user's current key: their key popup asks for the code.
    expect(await keyState(paul.session.api_token)).toMatchObject({ id: tempId, type: "temp" });
    expect(await transitOf(tempId)).toMatchObject({ expiresAt: Math.floor(made.reset.record.expires / 1000) });
    expect(await stored(paul.session.id)).toMatchObject({ keyId: tempId, expiresAt: Math.floor(made.reset.record.expires / 1000) });
    // Only the user gets the reset and the transit envelope.
    expect((await http<Json>("GET", "/api/identities/invitation", { token: paul.session.api_token })).body).toEqual({ invitation: null, reset: made.reset });
    expect((await http<Json>("GET", "/api/identities/invitation", { token: carol.session.api_token })).body).toEqual({ invitation: null, reset: null });
    expect(await http("POST", `/api/keypairs/${tempId}/recover`, { token: carol.session.api_token })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    // Nobody seals for the temporary key, and the bundle still serves the old chain.
    expect((await http<unknown[]>("GET", `/api/keypairs/target?type=user&id=${paul.session.id}`, { token: carol.session.api_token })).body).toEqual([]);

    const takeover = await resetTakeover(paul.session, tempId, made.code, before);
    const { identity, ...bare } = takeover.body;
    // Without the record the reset certifies; with the temporary keys; with a record certified by the lost key.
    expect(await http("POST", "/api/keypairs", { token: paul.session.api_token, body: bare })).toMatchObject({ status: 422, body: { code: "key_reset_required" } });
    const same = await newKeyBody(paul.session.id, tempId, { keys: takeover.temp });
    const kept = await createResetIdentity({ current: before, created: Date.now(), reset: made.reset }, await generateAccountKeys(), takeover.temp);
    expect(await http("POST", "/api/keypairs", { token: paul.session.api_token, body: { ...same.body, identity: kept } })).toMatchObject({ status: 422, body: { code: "takeover_fresh_keys" } });
    const rotated = await rotateIdentity(before!, paul.keys, { created: Date.now() }, takeover.keys);
    expect(await http("POST", "/api/keypairs", { token: paul.session.api_token, body: { ...bare, identity: rotated } })).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    // Nothing of those was stored: the reset is still pending.
    expect(await stored(paul.session.id)).toMatchObject({ keyId: tempId });
    expect(await keyState(paul.session.api_token)).toMatchObject({ id: tempId, type: "temp" });

    const taken = await http<{ id: number; type: string }>("POST", "/api/keypairs", { token: paul.session.api_token, body: { ...bare, identity } });
    expect(taken).toMatchObject({ status: 200, body: { type: "public" } });
    // The temporary key, its transit and the reset are gone.
    expect((await http("GET", `/api/keypairs/${tempId}`, { token: paul.session.api_token })).status).toBe(404);
    expect(await http("POST", `/api/keypairs/${tempId}/recover`, { token: paul.session.api_token })).toMatchObject({ status: 404, body: { code: "keypair_not_found" } });
    expect(await transitOf(tempId)).toBeNull();
    expect(await stored(paul.session.id)).toBeNull();
    expect((await http<Json>("GET", "/api/identities/invitation", { token: paul.session.api_token })).body).toEqual({ invitation: null, reset: null });

    // Everyone gets a chain that verifies: the new key current, certified by the reset, its issuer's chain included.
    const { chain } = await chainOf(root.session.api_token, paul.session.id);
    expect(chain!.issuers.map((i) => i.userId).sort((a, b) => a - b)).toEqual([1, carol.session.id]);
    const verified = await verifyIdentity(chain!, await trustOf(root.session.api_token));
    const me = await identityKeys(paul.session.id, takeover.keys);
    expect(verified).toMatchObject({ userId: paul.session.id, seq: 1, keyId: me.keyId, anchor: root.me.keyId, admin: false });
    expect(verified.keys.map((k) => k.reset ?? false)).toEqual([false, true]);
    expect((await http<unknown[]>("GET", `/api/keypairs/target?type=user&id=${paul.session.id}`, { token: carol.session.api_token })).body).toMatchObject([{ id: taken.body.id }]);
  });

  it("resets a version 1 account without an identity: the reset certifies its birth record", { timeout: 120_000 }, async () => {
    const email = uniqueEmail("vera.v1");
    const vera = await legacyMember(root, email);
    expect(await currentIdentity(root.session.api_token, vera.session.id)).toBeNull();
    // The account's address is what it names; another one is refused.
    const elsewhere = await newKeyReset(root, { userId: vera.session.id, current: null, email: "someone.else@example.org" });
    expect(await post(root.session.api_token, vera.session.id, elsewhere.body)).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    const made = await newKeyReset(root, { userId: vera.session.id, current: null, email: email.toUpperCase() });
    const reply = await post(root.session.api_token, vera.session.id, made.body);
    expect(reply.status).toBe(200);
    const takeover = await resetTakeover(vera.session, reply.body.keypair_id as number, made.code, null);
    expect((await http("POST", "/api/keypairs", { token: vera.session.api_token, body: takeover.body })).status).toBe(200);
    const { chain, legacy } = await chainOf(carol.session.api_token, vera.session.id);
    expect(legacy).toBeNull();
    expect(await verifyIdentity(chain!, await trustOf(carol.session.api_token))).toMatchObject({ userId: vera.session.id, seq: 0, email, anchor: root.me.keyId });
  });

  it("refuses resets with stable codes, and stores nothing of them", { timeout: 180_000 }, async () => {
    const paul = await invitedMember(root);
    const walt = await invitedMember(root);
    const dan = await invitedMember(root, { admin: true }); // an administrator without an admin certificate
    const current = await currentIdentity(root.session.api_token, paul.session.id);
    const target = { userId: paul.session.id, current };
    const good = await newKeyReset(carol, target);
    const uid = paul.session.id;
    const carolPost = (body: unknown, id: number | string = uid) => post(carol.session.api_token, id, body);
    const resign = async (changes: Partial<Parameters<typeof createKeyReset>[0]>, issuer = carol) =>
      ({ ...good.body, reset: { ...(await createKeyReset({ ...target, temp: await accountPublicKeys(good.temp), expires: good.reset.record.expires, ...changes }, issuer.me)) } });

    // Who: a member who is no administrator, oneself, nobody, odd spellings of an id.
    expect(await post(paul.session.api_token, walt.session.id, good.body)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await post(carol.session.api_token, carol.session.id, good.body)).toMatchObject({ status: 403, body: { code: "key_reset_own" } });
    expect(await carolPost(good.body, 987654321)).toMatchObject({ status: 404, body: { code: "user_not_found" } });
    for (const odd of ["01", "1e0", "%201", "0x1", "-1", "1.0"]) expect((await carolPost(good.body, odd)).status, odd).toBe(422);
    // A super administrator's key is reset only by a super administrator.
    const other = await createSession({ superAdmin: true });
    expect(await carolPost(good.body, other.id)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    // An invitee who has not taken their invitation over: the invitation is resent instead.
    const invite = await newSignedInvite(root);
    const invited = await http<{ account: { id: number } }>("POST", "/api/instance/invite", { token: root.session.api_token, body: invite.body });
    const pendingReset = await newKeyReset(carol, { userId: invited.body.account.id, current: null, email: invite.body.email });
    expect(await carolPost(pendingReset.body, invited.body.account.id)).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });

    // What: a reset for another user, for other temporary keys, replacing another key, ended, too long, forged, by a non-administrator, by someone else, malformed.
    const forWalt = await newKeyReset(carol, { userId: walt.session.id, current: await currentIdentity(root.session.api_token, walt.session.id) });
    expect(await carolPost({ ...good.body, reset: forWalt.body.reset })).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    expect(await carolPost(await resign({ temp: await accountPublicKeys(await generateAccountKeys()) }))).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    expect(await carolPost(await resign({ current: null, email: paul.email }))).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    expect(await carolPost(await resign({ expires: Date.now() - 1000 }))).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    expect(await carolPost(await resign({ expires: Date.now() + (KEY_RESET_DAYS + 1) * DAY_MS }))).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    const forged = { ...good.reset, record: { ...good.reset.record, expires: good.reset.record.expires - 1000 } };
    expect(await carolPost({ ...good.body, reset: forged })).toMatchObject({ status: 422, body: { code: "identity_signature_invalid" } });
    expect(await post(dan.session.api_token, uid, await resign({}, dan))).toMatchObject({ status: 422, body: { code: "identity_untrusted" } });
    expect(await post(root.session.api_token, uid, good.body)).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    expect(await carolPost({ ...good.body, reset: { ...good.reset, extra: 1 } })).toMatchObject({ status: 422, body: { code: "identity_malformed" } });
    expect(await carolPost({ ...good.body, reset: "{}" })).toMatchObject({ status: 422, body: { code: "validation" } });
    // The temporary key: its signature, a transit envelope of other keys.
    const stranger = await tempKeyBody();
    expect(await carolPost({ ...good.body, public_key: { ...good.body.public_key, signature: stranger.public_key.signature } })).toMatchObject({ status: 422, body: { code: "keypair_signature_invalid" } });
    expect(await carolPost({ ...good.body, transit: stranger.transit })).toMatchObject({ status: 422, body: { code: "backup_invalid" } });

    // Nothing was written: Paul's key is his, and no reset is pending.
    expect(await keyState(paul.session.api_token)).toMatchObject({ id: paul.keyId, type: "public" });
    expect(await stored(uid)).toBeNull();
    expect((await http<Json>("GET", "/api/identities/invitation", { token: paul.session.api_token })).body).toEqual({ invitation: null, reset: null });
    // The good one still works.
    expect((await carolPost(good.body)).status).toBe(200);
  });

  it("of parallel resets of the same user exactly one is stored", { timeout: 120_000 }, async () => {
    const paul = await invitedMember(root);
    const current = await currentIdentity(root.session.api_token, paul.session.id);
    const resets = await Promise.all([carol, root, carol, root].map((issuer) => newKeyReset(issuer, { userId: paul.session.id, current })));
    const replies = await Promise.all(
      resets.map((made, i) => http<Json>("POST", `/api/identities/${paul.session.id}/reset`, { token: [carol, root][i % 2]!.session.api_token, body: made.body })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body).toMatchObject({ code: "identity_conflict" });
    const winner = replies.find((r) => r.status === 200)!.body.keypair_id as number;
    expect(await keyState(paul.session.api_token)).toMatchObject({ id: winner, type: "temp" });
    expect(await stored(paul.session.id)).toMatchObject({ keyId: winner });
    // The losers' temporary keys and envelopes were never stored.
    const { data: keys } = await db().entities.keypair.query.byUser({ userId: paul.session.id }).go({ pages: "all" });
    expect(keys.map((k) => k.id).sort((a, b) => a - b)).toEqual([paul.keyId, winner]);
  });

  it("a new reset supersedes a pending one: the first code's envelope is gone and its reset certifies nothing", { timeout: 120_000 }, async () => {
    const paul = await invitedMember(root);
    const current = await currentIdentity(root.session.api_token, paul.session.id);
    const first = await newKeyReset(carol, { userId: paul.session.id, current });
    const firstId = (await post(carol.session.api_token, paul.session.id, first.body)).body.keypair_id as number;
    const firstTakeover = await resetTakeover(paul.session, firstId, first.code, current);
    const second = await newKeyReset(root, { userId: paul.session.id, current });
    const reply = await post(root.session.api_token, paul.session.id, second.body);
    expect(reply.status).toBe(200);
    const secondId = reply.body.keypair_id as number;
    // The first temporary key, its envelope and its reset are gone; the second is pending.
    expect(await http("POST", `/api/keypairs/${firstId}/recover`, { token: paul.session.api_token })).toMatchObject({ status: 404, body: { code: "keypair_not_found" } });
    expect(await transitOf(firstId)).toBeNull();
    expect((await db().entities.keypair.get({ id: firstId }).go()).data).toBeNull();
    expect(await stored(paul.session.id)).toMatchObject({ keyId: secondId });
    expect((await http<Json>("GET", "/api/identities/invitation", { token: paul.session.api_token })).body).toEqual({ invitation: null, reset: second.reset });
    // A record certified by the first reset, on the second temporary key: refused.
    const late = { ...firstTakeover.body, last_key: secondId };
    expect(await http("POST", "/api/keypairs", { token: paul.session.api_token, body: late })).toMatchObject({ status: 422, body: { code: "key_reset_invalid" } });
    const takeover = await resetTakeover(paul.session, secondId, second.code, current);
    expect((await http("POST", "/api/keypairs", { token: paul.session.api_token, body: takeover.body })).status).toBe(200);
    expect(await verifyIdentity((await chainOf(carol.session.api_token, paul.session.id)).chain!, await trustOf(carol.session.api_token))).toMatchObject({ seq: 1 });
  });

  it("the administrators' users list shows a pending reset with its end until the user takes it over", { timeout: 120_000 }, async () => {
    const paul = await invitedMember(root);
    const rita = await invitedMember(root);
    type Listed = { id: number; key_reset: { expires: number } | null };
    const listed = async (token: string, query = "") => http<{ users: Listed[] }>("GET", `/api/instance/users${query}`, { token });
    const resetOf = async (uid: number) => (await listed(root.session.api_token)).body.users.find((user) => user.id === uid)?.key_reset;
    expect(await resetOf(paul.session.id)).toBeNull();
    const current = await currentIdentity(root.session.api_token, paul.session.id);
    const made = await newKeyReset(carol, { userId: paul.session.id, current });
    const tempId = (await post(carol.session.api_token, paul.session.id, made.body)).body.keypair_id as number;
    const expires = Math.floor(made.reset.record.expires / 1000);
    // Another administrator sees it, in the whole list and for the one account; others have none; a member gets no list.
    expect(await resetOf(paul.session.id)).toEqual({ expires });
    expect(await resetOf(rita.session.id)).toBeNull();
    expect((await listed(carol.session.api_token, `?singleuser=${paul.session.id}`)).body.users).toMatchObject([{ id: paul.session.id, key_reset: { expires } }]);
    expect((await listed(root.session.api_token, `?singleuser=${rita.session.id}`)).body.users).toMatchObject([{ id: rita.session.id, key_reset: null }]);
    expect(await listed(rita.session.api_token)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    // A reset whose end has passed is still pending (with that end) until a new one or a takeover.
    await db().entities.keyreset.patch({ userId: paul.session.id }).set({ expiresAt: expires - 8 * 86_400 }).go();
    expect(await resetOf(paul.session.id)).toEqual({ expires: expires - 8 * 86_400 });
    await db().entities.keyreset.patch({ userId: paul.session.id }).set({ expiresAt: expires }).go();
    const takeover = await resetTakeover(paul.session, tempId, made.code, current);
    expect((await http("POST", "/api/keypairs", { token: paul.session.api_token, body: takeover.body })).status).toBe(200);
    expect(await resetOf(paul.session.id)).toBeNull();
  });

  it("after its end a reset hands out nothing and certifies nothing; a new one replaces it", { timeout: 120_000 }, async () => {
    const paul = await invitedMember(root);
    const current: SignedIdentity | null = await currentIdentity(root.session.api_token, paul.session.id);
    const made = await newKeyReset(carol, { userId: paul.session.id, current });
    const tempId = (await post(carol.session.api_token, paul.session.id, made.body)).body.keypair_id as number;
    const takeover = await resetTakeover(paul.session, tempId, made.code, current);
    await db().entities.keyreset.patch({ userId: paul.session.id }).set({ expiresAt: Math.floor(Date.now() / 1000) - 1 }).go();
    expect((await http<Json>("GET", "/api/identities/invitation", { token: paul.session.api_token })).body).toEqual({ invitation: null, reset: null });
    expect(await http("POST", `/api/keypairs/${tempId}/recover`, { token: paul.session.api_token })).toMatchObject({ status: 403, body: { code: "key_reset_expired" } });
    expect(await transitOf(tempId)).toBeNull();
    expect(await http("POST", "/api/keypairs", { token: paul.session.api_token, body: takeover.body })).toMatchObject({ status: 403, body: { code: "key_reset_expired" } });
    expect(await keyState(paul.session.api_token)).toMatchObject({ id: tempId, type: "temp" });
    // The administrator makes a new one.
    const again = await newKeyReset(carol, { userId: paul.session.id, current });
    const reply = await post(carol.session.api_token, paul.session.id, again.body);
    expect(reply.status).toBe(200);
    expect((await db().entities.keypair.get({ id: tempId }).go()).data).toBeNull();
    const next = await resetTakeover(paul.session, reply.body.keypair_id as number, again.code, current);
    expect((await http("POST", "/api/keypairs", { token: paul.session.api_token, body: next.body })).status).toBe(200);
  });
});
