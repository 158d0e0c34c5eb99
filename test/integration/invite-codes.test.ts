import { accountPublicKeys, createInvitation, createInvitedIdentity, generateAccountKeys, isCryptoError, parseEnvelope, unwrapAccountKeys } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { type CreatedInvite, invite, tempKeyBody } from "../support/invites";
import { newSignedInvite, registerInvitee, rootAdmin } from "../support/identities";
import { newKeyBody } from "../support/keys";
import { createSession } from "../support/users";

/**
 * POST /api/instance/invites/{id}/code (docs/api.md, Invitations): a new invitation code for an
 * invitee who lost theirs before taking their key over. The old temporary key and its transit go
 * in the same transaction as the new ones are stored, so the old code opens nothing; of two
 * administrators issuing at once one wins; a key taken over (or reset) gets no new code.
 */
type Json = Record<string, unknown>;
type Row = { id: number; status: string; awaiting_key: boolean };

const newCode = (token: string, id: number, body: Json) => http<Row & { code?: string }>("POST", `/api/instance/invites/${id}/code`, { token, body });
const currentKey = async (token: string) => (await http<{ keypair: { id: number; type: string } }>("GET", "/api/keypairs", { token })).body.keypair;
const listed = async (token: string, id: number) => (await http<{ invites: Row[] }>("GET", "/api/instance/invites", { token })).body.invites.find((i) => i.id === id);

/** Opens the transit envelope of the invitee's current temporary key with `code` (null: it does not open). */
async function openTransit(token: string, keyId: number, code: string) {
  const reply = await http<{ recover: Json }>("POST", `/api/keypairs/${keyId}/recover`, { token });
  if (reply.status !== 200) return reply.status;
  return unwrapAccountKeys(parseEnvelope(reply.body.recover, "secure-code-wrap"), code).catch((error: unknown) => {
    if (isCryptoError(error)) return null;
    throw error;
  });
}

describe("a new invitation code", () => {
  it("replaces a registered invitee's temporary key and signed invitation: the new code takes over, the old one is dead", async () => {
    const root = await rootAdmin();
    const first = await newSignedInvite(root);
    const created = (await http<CreatedInvite>("POST", "/api/instance/invite", { token: root.session.api_token, body: first.body })).body;
    const inviteId = created.transit.id;
    // Registered with a password, but the code was lost before it was entered.
    const invitee = await registerInvitee(created.account.id, first.body.email);
    expect(await listed(root.session.api_token, inviteId)).toMatchObject({ status: "accepted", awaiting_key: true });

    const next = await tempKeyBody();
    const invitation = await createInvitation({ inviteId, email: first.body.email, temp: await accountPublicKeys(next.keys), expires: Date.now() + 30 * 86_400_000 }, root.me);
    // A signed invitation is issued again signed.
    const unsigned = await newCode(root.session.api_token, inviteId, { public_key: next.public_key, transit: next.transit });
    expect([unsigned.status, unsigned.body.code]).toEqual([422, "invitation_required"]);
    // Administrators only; a real invite id.
    const member = await createSession();
    expect((await newCode(member.api_token, inviteId, { public_key: next.public_key, transit: next.transit, invitation })).status).toBe(403);
    expect((await newCode(root.session.api_token, 987654321, { public_key: next.public_key, transit: next.transit, invitation })).status).toBe(404);
    expect((await newCode(root.session.api_token, 0, { public_key: next.public_key, transit: next.transit, invitation })).status).toBe(422);
    // The invitation must name these temporary keys.
    const other = await tempKeyBody();
    expect((await newCode(root.session.api_token, inviteId, { public_key: other.public_key, transit: other.transit, invitation })).status).toBe(422);

    const issued = await newCode(root.session.api_token, inviteId, { public_key: next.public_key, transit: next.transit, invitation });
    expect(issued).toMatchObject({ status: 200, body: { id: inviteId, status: "accepted", awaiting_key: true } });

    // The old temporary key and its transit are gone; the new one opens with the new code only.
    expect(await openTransit(invitee.api_token, created.keypair.id, first.code)).toBe(404);
    const key = await currentKey(invitee.api_token);
    expect(key.type).toBe("temp");
    expect(key.id).not.toBe(created.keypair.id);
    expect(await openTransit(invitee.api_token, key.id, first.code)).toBeNull();
    const temp = await openTransit(invitee.api_token, key.id, next.code);
    expect(temp).not.toBeNull();
    // The takeover checks the birth record against the new signed invitation: the old one no longer certifies.
    const own = await generateAccountKeys();
    const stale = await createInvitedIdentity({ userId: invitee.id, created: Date.now(), invitation: first.invitation }, own, first.temp);
    const staleBody = (await newKeyBody(invitee.id, key.id, { keys: own })).body;
    expect((await http("POST", "/api/keypairs", { token: invitee.api_token, body: { ...staleBody, identity: stale } })).status).toBeGreaterThanOrEqual(400);
    const identity = await createInvitedIdentity({ userId: invitee.id, created: Date.now(), invitation }, own, temp as Awaited<ReturnType<typeof generateAccountKeys>>);
    const taken = await http("POST", "/api/keypairs", { token: invitee.api_token, body: { ...staleBody, identity } });
    expect(taken.status).toBe(200);

    // A key taken over gets no new code (a key reset is for that).
    expect(await listed(root.session.api_token, inviteId)).toMatchObject({ awaiting_key: false });
    const late = await tempKeyBody();
    const lateInvitation = await createInvitation({ inviteId, email: first.body.email, temp: await accountPublicKeys(late.keys), expires: Date.now() + 30 * 86_400_000 }, root.me);
    const refused = await newCode(root.session.api_token, inviteId, { public_key: late.public_key, transit: late.transit, invitation: lateInvitation });
    expect([refused.status, refused.body.code]).toEqual([409, "invite_key_taken"]);
  });

  it("of two administrators issuing a code at once, one wins: only the winner's code opens the key", async () => {
    const [one, two] = await Promise.all([createSession({ admin: true }), createSession({ admin: true })]);
    const { created, body } = await invite(one.api_token);
    const [a, b] = await Promise.all([tempKeyBody(), tempKeyBody()]);
    const replies = await Promise.all([
      newCode(one.api_token, created.transit.id, { public_key: a.public_key, transit: a.transit }),
      newCode(two.api_token, created.transit.id, { public_key: b.public_key, transit: b.transit }),
    ]);
    expect(replies.map((r) => `${r.status} ${r.body.code ?? ""}`.trim()).sort()).toEqual(["200", "409 invite_changed"]);
    const winner = replies[0]!.status === 200 ? a : b;
    const loser = winner === a ? b : a;

    // The pending invitee registers and finds the winner's key, which only the winner's code opens.
    const invitee = await registerInvitee(created.account.id, body.email);
    const key = await currentKey(invitee.api_token);
    expect(await openTransit(invitee.api_token, key.id, loser.code)).toBeNull();
    expect(await openTransit(invitee.api_token, key.id, winner.code)).not.toBeNull();
    expect(await openTransit(invitee.api_token, created.keypair.id, "")).toBe(404);
    // A legacy (unsigned) invitation's takeover with fresh keys.
    const own = await newKeyBody(invitee.id, key.id);
    expect((await http("POST", "/api/keypairs", { token: invitee.api_token, body: own.body })).status).toBe(200);
  });
});
