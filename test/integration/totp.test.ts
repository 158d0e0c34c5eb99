import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { awayFromStepEdge, codeAt, currentStep, enableTotp, nextCode } from "../support/totp";
import { PASSWORD, createSession } from "../support/users";

type Reply = { status: number; body: Record<string, unknown> };

const loginWith = (uid: number, totp_auth?: string, password = PASSWORD): Promise<Reply> =>
  http("POST", `/api/users/${uid}/login`, { body: { password, totp_auth } });

const lookupSelf = (id: number, token: string) => http<{ totp_enabled: boolean }>("GET", `/api/users?lookup=%23${id}`, { token });

/** A code that belongs to none of the steps the server accepts now. */
function wrongCode(secret: string): string {
  const now = currentStep();
  const accepted = new Set([now - 1, now, now + 1, now + 2].map((s) => codeAt(secret, s)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!accepted.has(candidate)) return candidate;
  }
}

/** A recovery code as a person might type it: lower case, O for 0, l or I for 1, U for V, a hyphen. */
function lookAlike(code: string): string {
  let ones = 0;
  const typed = [...code].map((c) => (c === "0" ? "O" : c === "1" ? (ones++ % 2 ? "I" : "L") : c === "V" ? "U" : c)).join("");
  return `${typed.slice(0, 5)}-${typed.slice(5)}`.toLowerCase();
}

describe("two-factor setup", () => {
  it("starts with a QR code and a secret, without switching 2FA on yet", async () => {
    const me = await createSession();
    const reply = await http<{ qr: string; secret: string }>("POST", "/api/verification/totpSetup", { token: me.api_token, body: {} });
    expect(reply.status).toBe(200);
    // The QR code's content, an otpauth:// URI for the account; the browser draws it.
    const uri = new URL(reply.body.qr);
    expect([uri.protocol, uri.host]).toEqual(["otpauth:", "totp"]);
    expect(decodeURIComponent(uri.pathname)).toContain(me.email!);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret: reply.body.secret, algorithm: "SHA1", digits: "6", period: "30" });
    expect(reply.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await lookupSelf(me.id, me.api_token)).body.totp_enabled).toBe(false);
    // A password alone still signs in.
    expect((await loginWith(me.id)).status).toBe(200);
  });

  it("refuses a wrong code with 403 and the spec's text, and a secret that is not the pending one", async () => {
    const me = await createSession();
    const { body } = await http<{ secret: string }>("POST", "/api/verification/totpSetup", { token: me.api_token, body: {} });
    const wrong = await http("POST", "/api/verification/totpSetup", {
      token: me.api_token,
      body: { totp_secret: body.secret, totp_verify: wrongCode(body.secret) },
    });
    expect(wrong).toMatchObject({ status: 403, body: { code: "totp_incorrect", message: "Incorrect code - please try again." } });

    const other = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const stale = await http("POST", "/api/verification/totpSetup", {
      token: me.api_token,
      body: { totp_secret: other, totp_verify: codeAt(other, currentStep()) },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: "totp_setup_expired" } });

    const half = await http("POST", "/api/verification/totpSetup", { token: me.api_token, body: { totp_secret: body.secret } });
    expect(half.status).toBe(422);
    expect((await lookupSelf(me.id, me.api_token)).body.totp_enabled).toBe(false);
  });

  it("finalizes with a code: ten recovery codes, shown once, and the status says enabled", async () => {
    const me = await createSession();
    const { recovery } = await enableTotp(me.api_token);
    expect(recovery).toHaveLength(10);
    for (const code of recovery) expect(code).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{10}$/);
    expect(new Set(recovery).size).toBe(10);
    expect((await lookupSelf(me.id, me.api_token)).body).toMatchObject({ id: me.id, totp_enabled: true });
    expect((await http("GET", `/api/users/${me.id}`, { token: me.api_token })).body).toMatchObject({ totp_enabled: true });
    // Once on, another setup is refused rather than replacing the secret.
    expect((await http("POST", "/api/verification/totpSetup", { token: me.api_token, body: {} })).status).toBe(409);
  });
});

describe("login with two-factor", () => {
  it("requires the code, refuses a wrong or reused one, and takes each recovery code once", async () => {
    const me = await createSession();
    const { secret, recovery, lastStep } = await enableTotp(me.api_token);
    const refused = { status: 403, body: { code: "password_or_totp_incorrect", message: "Incorrect password or 2FA code" } };

    expect(await loginWith(me.id)).toMatchObject(refused);
    expect(await loginWith(me.id, wrongCode(secret))).toMatchObject(refused);
    // The code that finalized the setup has been used already.
    expect(await loginWith(me.id, codeAt(secret, lastStep))).toMatchObject(refused);

    const next = await nextCode(secret, lastStep);
    // A wrong password does not use the code up.
    expect(await loginWith(me.id, next.code, "wrong-password-1")).toMatchObject(refused);
    const ok = await loginWith(me.id, next.code);
    expect(ok).toMatchObject({ status: 200, body: { id: me.id, recoveryTOTP: false } });
    // The same code again: refused, though it is still within its time step.
    expect(await loginWith(me.id, next.code)).toMatchObject(refused);

    const chosen = recovery.find((c) => /[01V]/.test(c)) ?? recovery[0]!;
    const typed = lookAlike(chosen);
    const rescued = await loginWith(me.id, typed);
    expect(rescued).toMatchObject({ status: 200, body: { id: me.id, recoveryTOTP: true } });
    expect(await loginWith(me.id, typed)).toMatchObject(refused);
    expect(await loginWith(me.id, chosen)).toMatchObject(refused);
    // The other recovery codes still work.
    expect((await loginWith(me.id, recovery.find((c) => c !== chosen)!)).body).toMatchObject({ recoveryTOTP: true });
  });

  it("counts wrong codes in the login limit: 429 after five failures", async () => {
    const me = await createSession();
    const { secret, lastStep } = await enableTotp(me.api_token);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await loginWith(me.id, wrongCode(secret))).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    const { code } = await nextCode(secret, lastStep);
    expect(await loginWith(me.id, code)).toMatchObject({ status: 429, body: { code: "too_many_attempts" } });
  });
});

describe("switching two-factor off", () => {
  it("totpDestroy needs a valid code", async () => {
    const me = await createSession();
    const { secret, lastStep } = await enableTotp(me.api_token);
    const wrong = await http("POST", "/api/verification/totpDestroy", { token: me.api_token, body: { totp_auth: wrongCode(secret) } });
    expect(wrong).toMatchObject({ status: 403, body: { code: "totp_incorrect" } });
    const used = await http("POST", "/api/verification/totpDestroy", { token: me.api_token, body: { totp_auth: codeAt(secret, lastStep) } });
    expect(used.status).toBe(403);

    const { code } = await nextCode(secret, lastStep);
    const off = await http("POST", "/api/verification/totpDestroy", { token: me.api_token, body: { totp_auth: code } });
    expect(off).toMatchObject({ status: 200, body: { totp_enabled: false } });
    expect((await lookupSelf(me.id, me.api_token)).body.totp_enabled).toBe(false);
    expect((await loginWith(me.id)).status).toBe(200);
    const again = await http("POST", "/api/verification/totpDestroy", { token: me.api_token, body: { totp_auth: code } });
    expect(again).toMatchObject({ status: 409, body: { code: "totp_not_enabled" } });
  });

  it("totpDestroy takes a recovery code too, and 2FA can be set up again afterwards", async () => {
    const me = await createSession();
    const { recovery } = await enableTotp(me.api_token);
    const off = await http("POST", "/api/verification/totpDestroy", { token: me.api_token, body: { totp_auth: recovery[3]!.toLowerCase() } });
    expect(off).toMatchObject({ status: 200, body: { totp_enabled: false } });
    await awayFromStepEdge();
    const again = await enableTotp(me.api_token);
    // The old recovery codes went with the old secret.
    expect((await loginWith(me.id, recovery[4])).status).toBe(403);
    expect((await loginWith(me.id, again.recovery[0])).body).toMatchObject({ recoveryTOTP: true });
  });

  it("an administrator switches it off; a plain admin not for a super admin; a user not at all", async () => {
    const admin = await createSession({ admin: true });
    const superAdmin = await createSession({ admin: true, superAdmin: true });
    const target = await createSession();
    const peer = await createSession();
    await enableTotp(target.api_token);
    const listed = await http<{ users: { id: number; totp_enabled: boolean }[] }>("GET", `/api/instance/users?singleuser=${target.id}`, { token: admin.api_token });
    expect(listed.body.users[0]).toMatchObject({ id: target.id, totp_enabled: true });
    expect((await lookupSelf(target.id, admin.api_token)).body.totp_enabled).toBe(true);

    const asUser = await http("POST", "/api/verification/totpDestroyAdmin", { token: peer.api_token, body: { uid: target.id } });
    expect(asUser).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect((await lookupSelf(target.id, target.api_token)).body.totp_enabled).toBe(true);

    const off = await http("POST", "/api/verification/totpDestroyAdmin", { token: admin.api_token, body: { uid: target.id } });
    expect(off).toMatchObject({ status: 200, body: { totp_enabled: false } });
    expect((await lookupSelf(target.id, target.api_token)).body.totp_enabled).toBe(false);
    expect((await loginWith(target.id)).status).toBe(200);

    await enableTotp(superAdmin.api_token);
    const notForSuper = await http("POST", "/api/verification/totpDestroyAdmin", { token: admin.api_token, body: { uid: superAdmin.id } });
    expect(notForSuper).toMatchObject({ status: 403, body: { code: "forbidden" } });
    const missing = await http("POST", "/api/verification/totpDestroyAdmin", { token: admin.api_token, body: { uid: 987654321 } });
    expect(missing.status).toBe(404);
    const bySuper = await http("POST", "/api/verification/totpDestroyAdmin", { token: superAdmin.api_token, body: { uid: superAdmin.id } });
    expect(bySuper).toMatchObject({ status: 200, body: { totp_enabled: false } });
  });
});
