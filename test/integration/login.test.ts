import { describe, expect, it } from "vitest";
import { ADMIN } from "../support/global-setup";
import { http, login } from "../support/api";
import { PASSWORD, createSession, createUser } from "../support/users";

describe("contact lookup", () => {
  it("finds an account by email, case-insensitively, without revealing the address", async () => {
    const user = await createUser();
    const reply = await http("GET", `/api/users?lookup=${encodeURIComponent(user.email.toUpperCase())}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ id: user.id, recognition: expect.stringMatching(/^u\*+@example\.ch$/), password_empty: false, totp_enabled: false });
  });

  it("finds an account by phone, ignoring spaces", async () => {
    const phone = `+41 79 ${String(Date.now()).slice(-7)}`;
    const user = await createUser({ phone });
    const reply = await http("GET", `/api/users?lookup=${encodeURIComponent(phone.replace(/ /g, ""))}`);
    expect(reply).toMatchObject({ status: 200, body: { id: user.id } });
  });

  it("answers an unknown contact with the spec's text", async () => {
    const reply = await http("GET", "/api/users?lookup=nobody%40example.ch");
    expect(reply).toMatchObject({ status: 404, body: { code: "contact_unknown", message: "Sorry, we do not recognize your contact details..." } });
  });

  it("marks an invited account that has no password yet", async () => {
    const user = await createUser({ password: null });
    const reply = await http("GET", `/api/users?lookup=${encodeURIComponent(user.email)}`);
    expect(reply.body).toMatchObject({ id: user.id, password_empty: true });
  });

  it("looks up #<id> only for oneself or an administrator", async () => {
    const me = await createSession();
    const other = await createUser();
    expect((await http("GET", `/api/users?lookup=%23${me.id}`, { token: me.api_token })).body).toMatchObject({ id: me.id, totp_enabled: false });
    expect((await http("GET", `/api/users?lookup=%23${other.id}`, { token: me.api_token })).status).toBe(404);
    expect((await http("GET", `/api/users?lookup=%23${me.id}`)).status).toBe(404);
  });
});

describe("password login", () => {
  it("returns a token and the role flags", async () => {
    const found = await http<{ id: number }>("GET", `/api/users?lookup=${encodeURIComponent(ADMIN.email)}`);
    const session = await login(found.body.id, ADMIN.password);
    expect(session).toMatchObject({ id: found.body.id, name: expect.any(String), email: ADMIN.email, hasAdminRole: true, hasSuperAdminRole: true, recoveryTOTP: false });
    expect(session.api_token.split(".")).toHaveLength(3);
    const me = await http("GET", `/api/users/${session.id}`, { token: session.api_token });
    expect(me.status).toBe(200);
  });

  it("says 'Incorrect password' for a wrong one", async () => {
    const user = await createUser();
    const reply = await http("POST", `/api/users/${user.id}/login`, { body: { password: "wrong-password" } });
    expect(reply).toMatchObject({ status: 403, body: { code: "password_incorrect", message: "Incorrect password" } });
  });

  it("answers 429 after five failures, for that account only, until the window passes", async () => {
    const user = await createUser();
    const bystander = await createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await http("POST", `/api/users/${user.id}/login`, { body: { password: `wrong-${i}` } })).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    const blocked = await http("POST", `/api/users/${user.id}/login`, { body: { password: PASSWORD } });
    expect(blocked).toMatchObject({
      status: 429,
      body: { code: "too_many_attempts", message: "You are trying too many times - please wait one minute before submitting again." },
    });
    expect((await http("POST", `/api/users/${bystander.id}/login`, { body: { password: PASSWORD } })).status).toBe(200);
  });

  it("refuses a login for an unknown id like a wrong password", async () => {
    const reply = await http("POST", "/api/users/987654321/login", { body: { password: "whatever-123" } });
    expect(reply).toMatchObject({ status: 403, body: { code: "password_incorrect" } });
  });

  it("refuses an account that has not registered yet", async () => {
    const user = await createUser({ password: null });
    expect((await http("POST", `/api/users/${user.id}/login`, { body: { password: "anything-123" } })).status).toBe(403);
  });
});

describe("tokens", () => {
  it("rejects forged, malformed and missing tokens on member routes", async () => {
    const session = await createSession();
    const [header, payload] = session.api_token.split(".");
    const forged = `${header}.${payload}.AAAA`;
    for (const token of [forged, "not-a-token", `${header}.${Buffer.from('{"sub":"1","kind":"user","tv":1}').toString("base64url")}.x`]) {
      expect((await http("GET", `/api/users/${session.id}`, { token })).status).toBe(401);
    }
    expect((await http("GET", `/api/users/${session.id}`)).status).toBe(401);
    expect((await http("GET", `/api/users/${session.id}`, { headers: { authorization: "Basic abc" } })).status).toBe(401);
  });
});
