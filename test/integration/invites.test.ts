import { INVITE_GROUPS_DISABLED, keypairRecord } from "@sealwork/contracts";
import { Invite } from "@sealwork/core";
import { accountPublicKeys, parseEnvelope, signRecord, unwrapAccountKeys } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { http, outboxFor } from "../support/api";
import { newKeyBody } from "../support/keys";
import { invite, newInviteBody } from "../support/invites";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;
type InviteRow = { id: number; user_id: number; status: string; expires_at: number; invited_by: { id: number; name: string } | null };

/** Waits for the registration email (the invitation email may be there first) and returns its code. */
async function registrationCode(email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = await outboxFor(email, { wait: false });
    const code = mails.map((m) => /verification code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no verification code for ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function register(uid: number, email: string, password = "invitee-password-1") {
  const sent = await http("POST", "/api/verification/register", { body: { uid, contact: email } });
  expect(sent.status).toBe(200);
  const vericode = await registrationCode(email);
  return http<Json & { id: number; api_token: string }>("POST", "/api/users/register", { body: { name: "Ada Invited", password, contact: email, vericode } });
}

async function listed(token: string, id: number): Promise<InviteRow> {
  const reply = await http<{ invites: InviteRow[] }>("GET", "/api/instance/invites", { token });
  expect(reply.status).toBe(200);
  const row = reply.body.invites.find((i) => i.id === id);
  expect(row, `invite ${id} listed`).toBeDefined();
  return row!;
}

describe("invitations", () => {
  it("creates the account, its temporary key and the invite, and emails the invitee without the code", async () => {
    const admin = await createSession({ admin: true, name: "Ines Admin" });
    const { body, code } = await newInviteBody({ message: "Hello from the office" });
    const reply = await http<Json>("POST", "/api/instance/invite", { token: admin.api_token, body });
    expect(reply).toMatchObject({
      status: 200,
      body: {
        account: { email: body.email, password_empty: true, hasAdminRole: false, hasSuperAdminRole: false },
        keypair: { id: expect.any(Number), type: "temp" },
        transit: { id: expect.any(Number), expires_at: expect.any(Number) },
        vericode: null,
      },
    });
    const expires = (reply.body.transit as { expires_at: number }).expires_at;
    expect(Math.abs(expires - (Date.now() / 1000 + 30 * 86400))).toBeLessThan(120);

    const [mail] = await outboxFor(body.email);
    expect(mail!.text).toContain("Ines Admin");
    expect(mail!.text).toContain("Hello from the office");
    expect(mail!.text).toMatch(/https?:\/\/[^\s]+\/login/);
    expect(mail!.text).not.toContain(code);
    expect(mail!.subject).not.toContain(code);

    const lookup = await http("GET", `/api/users?lookup=${encodeURIComponent(body.email)}`);
    expect(lookup.body).toMatchObject({ password_empty: true });
  });

  it("sends no email when sendEmail is off", async () => {
    const admin = await createSession({ admin: true });
    const { body } = await invite(admin.api_token, { sendEmail: false });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await outboxFor(body.email, { wait: false })).toEqual([]);
  });

  it("is for administrators only", async () => {
    const user = await createSession();
    const { body } = await newInviteBody();
    expect(await http("POST", "/api/instance/invite", { token: user.api_token, body })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect((await http("GET", "/api/instance/invites", { token: user.api_token })).status).toBe(403);
    const lookup = await http("GET", `/api/users?lookup=${encodeURIComponent(body.email)}`);
    expect(lookup.status).toBe(404);
  });

  it("refuses group assignment with the spec's text, and invalid fields with an errors map", async () => {
    const admin = await createSession({ admin: true });
    const { body } = await newInviteBody({ groups: [1] });
    const reply = await http<Json>("POST", "/api/instance/invite", { token: admin.api_token, body });
    expect(reply).toMatchObject({ status: 422, body: { code: "validation", fields: { groups: [INVITE_GROUPS_DISABLED] } } });
    const bad = await newInviteBody({ email: "not-an-email", message: "x".repeat(2001) });
    const invalid = await http<{ fields: Json }>("POST", "/api/instance/invite", { token: admin.api_token, body: bad.body });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.fields).sort()).toEqual(["email", "message"]);
  });

  it("lets only a super administrator grant the super administrator role", async () => {
    const admin = await createSession({ admin: true });
    const superAdmin = await createSession({ admin: true, superAdmin: true });
    const { body } = await newInviteBody({ roles: { superAdmin: true } });
    expect(await http("POST", "/api/instance/invite", { token: admin.api_token, body })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    const asSuper = await http<Json>("POST", "/api/instance/invite", { token: superAdmin.api_token, body });
    expect(asSuper).toMatchObject({ status: 200, body: { account: { hasAdminRole: true, hasSuperAdminRole: true } } });
    const { created } = await invite(admin.api_token, { roles: { admin: true } });
    const listedUsers = await http<{ users: Json[] }>("GET", `/api/instance/users?singleuser=${created.account.id}`, { token: admin.api_token });
    expect(listedUsers.body.users[0]).toMatchObject({ hasAdminRole: true, hasSuperAdminRole: false });
  });

  it("refuses an email address already in use with 409", async () => {
    const admin = await createSession({ admin: true });
    const { body } = await invite(admin.api_token);
    const again = await newInviteBody({ email: body.email.toUpperCase() });
    expect(await http("POST", "/api/instance/invite", { token: admin.api_token, body: again.body })).toMatchObject({ status: 409, body: { code: "contact_taken" } });
  });

  it("checks the transit envelope and the temporary key's signature like a normal key's", async () => {
    const admin = await createSession({ admin: true });
    const { body, keys } = await newInviteBody();
    const other = await newInviteBody();
    const uidSigned = await signRecord(keys.sign.privateKey, keypairRecord({ uid: 1, encryptPublic: body.public_key.encrypt_public, signPublic: body.public_key.sign_public, timestamp: body.public_key.timestamp }));
    const post = (changes: Json) => http<Json>("POST", "/api/instance/invite", { token: admin.api_token, body: { ...body, ...changes } });
    expect(await post({ transit: other.body.transit })).toMatchObject({ status: 422, body: { code: "backup_invalid" } });
    expect(await post({ public_key: { ...body.public_key, signature: { ...uidSigned } } })).toMatchObject({ status: 422, body: { code: "keypair_signature_invalid" } });
    expect(await post({ public_key: { ...body.public_key, timestamp: body.public_key.timestamp - 3 * 86400 } })).toMatchObject({ status: 422, body: { code: "clock_skew" } });
    // Nothing was written by the refused attempts: the address is still free.
    expect((await post({})).status).toBe(200);
  });

  it("lists pending, expired and accepted invitations; resends pending ones and issues expired ones again with new keys", async () => {
    const admin = await createSession({ admin: true, name: "Lister Admin" });
    const { created, body } = await invite(admin.api_token);
    const pending = await listed(admin.api_token, created.transit.id);
    expect(pending).toMatchObject({ user_id: created.account.id, status: "pending", invited_by: { id: admin.id, name: "Lister Admin" } });
    const path = `/api/instance/invites/${created.transit.id}/resend`;
    // A pending one keeps its temporary key: the email again and 30 more days.
    expect(await http("POST", path, { token: admin.api_token })).toMatchObject({ status: 200, body: { status: "pending" } });
    // The invitation's email and the resent one (the mail job runs apart): both out before counting.
    await expect.poll(async () => (await outboxFor(body.email)).length).toBe(2);

    await Invite.setValidUntil(created.account.id, Math.floor(Date.now() / 1000) - 60);
    expect(await listed(admin.api_token, created.transit.id)).toMatchObject({ status: "expired" });

    // The transit envelope went at expiry: resending it takes new temporary keys.
    expect(await http("POST", path, { token: admin.api_token })).toMatchObject({ status: 409, body: { code: "invite_reissue" } });
    const before = (await outboxFor(body.email)).length;
    const next = await newInviteBody();
    const resent = await http<InviteRow>("POST", path, { token: admin.api_token, body: { public_key: next.body.public_key, transit: next.body.transit } });
    expect(resent).toMatchObject({ status: 200, body: { status: "pending" } });
    expect(Math.abs(resent.body.expires_at - (Date.now() / 1000 + 30 * 86400))).toBeLessThan(120);
    const deadline = Date.now() + 15_000;
    while ((await outboxFor(body.email)).length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await outboxFor(body.email)).length).toBe(before + 1);

    expect((await register(created.account.id, body.email)).status).toBe(200);
    expect(await listed(admin.api_token, created.transit.id)).toMatchObject({ status: "accepted" });
    expect(await http("POST", `/api/instance/invites/${created.transit.id}/resend`, { token: admin.api_token })).toMatchObject({
      status: 409,
      body: { code: "invite_accepted" },
    });
    expect((await http("POST", "/api/instance/invites/987654321/resend", { token: admin.api_token })).status).toBe(404);
  });

  it("refuses registration once the invitation has expired", async () => {
    const admin = await createSession({ admin: true });
    const { created, body } = await invite(admin.api_token);
    const sent = await http("POST", "/api/verification/register", { body: { uid: created.account.id, contact: body.email } });
    expect(sent.status).toBe(200);
    const vericode = await registrationCode(body.email);
    await Invite.setValidUntil(created.account.id, Math.floor(Date.now() / 1000) - 1);
    const expiredText = "This invitation has expired - please ask for a new one.";
    const reply = await http("POST", "/api/users/register", { body: { name: "Late", password: "invitee-password-1", contact: body.email, vericode } });
    expect(reply).toMatchObject({ status: 403, body: { code: "invite_expired", message: expiredText } });
    const again = await http("POST", "/api/verification/register", { body: { uid: created.account.id, contact: body.email } });
    expect(again).toMatchObject({ status: 403, body: { code: "invite_expired" } });
  });

  it("hands the transit envelope to the invitee, who takes the invitation over with fresh keys", async () => {
    const admin = await createSession({ admin: true });
    const { created, body, code, keys } = await invite(admin.api_token);
    const me = (await register(created.account.id, body.email)).body;
    const state = await http<{ keypair: Json }>("GET", "/api/keypairs", { token: me.api_token });
    expect(state.body.keypair).toMatchObject({ id: created.keypair.id, uid: me.id, type: "temp", valid: true });
    // Nobody seals to a key its owner has not taken over yet.
    const peek = await http<Json>("GET", `/api/keypairs?fetch_only=1&uid=${me.id}`, { token: admin.api_token });
    expect(peek.body).toMatchObject({ id: created.keypair.id, valid: false });
    expect((await http<Json[]>("GET", `/api/keypairs/target?type=user&id=${me.id}`, { token: admin.api_token })).body).toEqual([]);
    // The administrator cannot fetch the transit envelope; the invitee can.
    expect((await http("POST", `/api/keypairs/${created.keypair.id}/recover`, { token: admin.api_token })).status).toBe(403);
    const recovered = await http<{ recover: Json }>("POST", `/api/keypairs/${created.keypair.id}/recover`, { token: me.api_token });
    const opened = await unwrapAccountKeys(parseEnvelope(recovered.body.recover, "secure-code-wrap"), code);
    expect(await accountPublicKeys(opened)).toEqual(await accountPublicKeys(keys));

    // The temporary keys are the administrator's browser's: the invitee makes fresh ones (issue 11, item 1).
    const same = await newKeyBody(me.id, created.keypair.id, { keys: opened, code: "my-own-code-1" });
    expect(await http("POST", "/api/keypairs", { token: me.api_token, body: same.body })).toMatchObject({ status: 422, body: { code: "takeover_fresh_keys" } });
    const own = await newKeyBody(me.id, created.keypair.id, { code: "my-own-code-1" });
    const taken = await http<Json>("POST", "/api/keypairs", { token: me.api_token, body: own.body });
    expect(taken).toMatchObject({ status: 200, body: { type: "public", encrypt_public: own.body.encrypt_public, valid: true } });
    // The temporary key and its transit envelope are gone (issue 11, item 4).
    expect((await http("GET", `/api/keypairs/${created.keypair.id}`, { token: me.api_token })).status).toBe(404);
    expect((await http("POST", `/api/keypairs/${created.keypair.id}/recover`, { token: me.api_token })).status).toBe(404);
    const after = await http<Json>("GET", `/api/keypairs?fetch_only=1&uid=${me.id}`, { token: admin.api_token });
    expect(after.body).toMatchObject({ id: taken.body.id, valid: true });
  });
});
