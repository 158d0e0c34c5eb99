import { db } from "@sealwork/core/db/service";
import { describe, expect, it } from "vitest";
import { http, login, mailedCodes, outboxFor } from "../support/api";
import { burst, freshAddress, tally } from "../support/attack";
import { registerKey } from "../support/keys";
import { enableTotp, nextCode } from "../support/totp";
import { PASSWORD, createSession, createUser } from "../support/users";

/** A forgotten password (spec 000 §7): POST /api/verification/forgot, then POST /api/users/reset. */
type Json = Record<string, unknown>;
const NEW_PASSWORD = "a-new-password-7";

async function requestReset(uid: number, contact: string) {
  const reply = await http("POST", "/api/verification/forgot", { body: { uid, contact } });
  expect(reply).toMatchObject({ status: 200, body: { accepted: true } });
}

const RESET_CODE = /set a new password is (\d{6})/;
const resetCodes = (email: string, count = 1) => mailedCodes(email, RESET_CODE, count);
const resetCode = async (email: string) => (await resetCodes(email))[0]!;

describe("a forgotten password", () => {
  it("mails a code, sets a new password with it, answers a session and stops older tokens; the account key stays", async () => {
    const me = await createSession();
    const keyId = await registerKey(me);
    await requestReset(me.id, me.email!.toUpperCase());
    const [mail] = await outboxFor(me.email!);
    expect(mail!.subject).toMatch(/password reset code/);
    expect(mail!.text).toMatch(/secure code does not change/);
    const code = await resetCode(me.email!);

    const reset = await http<Json & { api_token: string }>("POST", "/api/users/reset", { body: { contact: me.email, vericode: code, password: NEW_PASSWORD } });
    expect(reset).toMatchObject({ status: 200, body: { id: me.id, email: me.email, api_token: expect.any(String), recoveryTOTP: false } });
    expect((await http("GET", `/api/users/${me.id}`, { token: me.api_token })).status).toBe(401);
    expect((await http("GET", `/api/users/${me.id}`, { token: reset.body.api_token })).status).toBe(200);
    expect((await http("POST", `/api/users/${me.id}/login`, { body: { password: PASSWORD } })).status).toBe(403);
    const fresh = await login(me.id, NEW_PASSWORD);

    // The account key (and the backup only the secure code opens) is as it was.
    const keys = await http<{ keypair: { id: number; valid: boolean } }>("GET", "/api/keypairs", { token: fresh.api_token });
    expect(keys.body.keypair).toMatchObject({ id: keyId, valid: true });
    expect((await http("POST", `/api/keypairs/${keyId}/recover`, { token: fresh.api_token })).status).toBe(200);

    // The code works once.
    const again = await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: code, password: "yet-another-pw-1" } });
    expect(again).toMatchObject({ status: 403, body: { code: "vericode_incorrect", message: "The verification code used was incorrect..." } });
  });

  it("answers the same for a contact that is not the account's, an unknown account and an unregistered one, and sends nothing", async () => {
    const [me, other, invited] = await Promise.all([createUser(), createUser(), createUser({ password: null })]);
    await requestReset(me.id, other.email);
    await requestReset(987_654_321, me.email);
    await requestReset(invited.id, invited.email);
    await new Promise((r) => setTimeout(r, 1500));
    for (const address of [me.email, other.email, invited.email]) expect(await outboxFor(address, { wait: false })).toEqual([]);
    // Without a code, a reset is just a wrong code.
    expect(await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: "123456", password: NEW_PASSWORD } })).toMatchObject({ status: 403, body: { code: "vericode_incorrect" } });
    expect(await http("POST", "/api/users/reset", { body: { contact: "nobody.at.all@example.ch", vericode: "123456", password: NEW_PASSWORD } })).toMatchObject({ status: 403, body: { code: "vericode_incorrect" } });
  });

  it("of six resets with the right code at once, exactly one succeeds", async () => {
    const me = await createUser();
    await requestReset(me.id, me.email);
    const code = await resetCode(me.email);
    const hits = await burst(6, (i) => ({ method: "POST", path: "/api/users/reset", body: { contact: me.email, vericode: code, password: `parallel-pw-${i}` }, from: freshAddress() }));
    const counts = tally(hits);
    expect(counts["200"], JSON.stringify(counts)).toBe(1);
    // The others lost the race for the code (403) or found the account's tries taken by it (429).
    expect(Object.keys(counts).filter((k) => !["200", "403 vericode_incorrect", "429 verification_limit"].includes(k)), JSON.stringify(counts)).toEqual([]);
    // The winner's password is the one set.
    const winner = hits.findIndex((h) => h.status === 200);
    await login(me.id, `parallel-pw-${winner}`);
  });

  it("a new request replaces the pending code, and an expired code is refused", async () => {
    const me = await createUser();
    await requestReset(me.id, me.email);
    const first = await resetCode(me.email);
    await requestReset(me.id, me.email);
    const [second] = await resetCodes(me.email, 2);
    // (One time in a million the new code is the old one, and this fails.)
    expect(second).not.toBe(first);
    expect((await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: first, password: NEW_PASSWORD } })).status).toBe(403);
    await db().entities.verification.patch({ userId: me.id, purpose: "reset" }).set({ expiresAt: Math.floor(Date.now() / 1000) - 1 }).go();
    expect((await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: second, password: NEW_PASSWORD } })).status).toBe(403);
    await login(me.id, PASSWORD);
  });

  it("with 2FA on, needs a second factor too", async () => {
    const me = await createSession();
    const { secret, lastStep } = await enableTotp(me.api_token);
    await requestReset(me.id, me.email!);
    const code = await resetCode(me.email!);
    const without = await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: code, password: NEW_PASSWORD } });
    expect(without).toMatchObject({ status: 403, body: { code: "totp_incorrect" } });
    const second = await nextCode(secret, lastStep);
    const done = await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: code, password: NEW_PASSWORD, totp_auth: second.code } });
    expect(done).toMatchObject({ status: 200, body: { id: me.id } });
  });

  it("cannot bring a disabled account back: no code is sent, and a code sent before refuses", async () => {
    const [admin, me] = await Promise.all([createSession({ admin: true }), createUser()]);
    await requestReset(me.id, me.email);
    const code = await resetCode(me.email);
    expect((await http("POST", `/api/instance/users/${me.id}/disable`, { token: admin.api_token })).status).toBe(200);
    await requestReset(me.id, me.email);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await resetCodes(me.email)).toEqual([code]);
    expect(await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: code, password: NEW_PASSWORD } })).toMatchObject({ status: 403, body: { code: "account_disabled" } });
    // Enabled again, the old password still works: the reset changed nothing.
    expect((await http("POST", `/api/instance/users/${me.id}/enable`, { token: admin.api_token })).status).toBe(200);
    await login(me.id, PASSWORD);
  });

  it("validates its input like registration", async () => {
    const me = await createUser();
    expect(await http("POST", "/api/users/reset", { body: { contact: me.email, vericode: "12", password: "short" } })).toMatchObject({
      status: 422,
      body: { code: "validation", fields: { vericode: expect.any(Array), password: expect.any(Array) } },
    });
    expect((await http("POST", "/api/verification/forgot", { body: { uid: "1", contact: me.email } })).status).toBe(422);
  });
});
