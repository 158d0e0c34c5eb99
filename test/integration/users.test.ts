import { describe, expect, it } from "vitest";
import { http, login } from "../support/api";
import { PASSWORD, createSession, createUser } from "../support/users";

describe("settings: one's own account", () => {
  it("changes the name, via PATCH or POST with _method", async () => {
    const me = await createSession();
    const patched = await http("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: { name: "Ada Lovelace" } });
    expect(patched).toMatchObject({ status: 200, body: { reset: false, user: { name: "Ada Lovelace" } } });
    const posted = await http("POST", `/api/users/${me.id}`, { token: me.api_token, body: { _method: "PATCH", name: "Ada King" } });
    expect(posted).toMatchObject({ status: 200, body: { user: { name: "Ada King" } } });
    expect((await http("GET", `/api/users/${me.id}`, { token: me.api_token })).body).toMatchObject({ name: "Ada King" });
  });

  it("refuses a POST without _method on a PATCH route", async () => {
    const me = await createSession();
    expect((await http("POST", `/api/users/${me.id}`, { token: me.api_token, body: { name: "X" } })).status).toBe(405);
    expect((await http("POST", `/api/users/${me.id}`, { token: me.api_token, body: { _method: "DELETE" } })).status).toBe(405);
  });

  it("changes the password only with the old one, and then old tokens stop working", async () => {
    const me = await createSession();
    const wrongOld = await http("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: { password: { old: "not-it-123", new: "brand-new-pw-1" } } });
    expect(wrongOld).toMatchObject({ status: 403, body: { code: "old_password_incorrect" } });
    const noOld = await http("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: { password: { new: "brand-new-pw-1" } } });
    expect(noOld.status).toBe(403);
    const short = await http("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: { password: { old: PASSWORD, new: "short" } } });
    expect(short).toMatchObject({ status: 422, body: { fields: { "password.new": expect.any(Array) } } });

    const changed = await http("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: { password: { old: PASSWORD, new: "brand-new-pw-1" } } });
    expect(changed).toMatchObject({ status: 200, body: { reset: true } });
    expect((await http("GET", `/api/users/${me.id}`, { token: me.api_token })).status).toBe(401);
    expect((await http("POST", `/api/users/${me.id}/login`, { body: { password: PASSWORD } })).status).toBe(403);
    await login(me.id, "brand-new-pw-1");
  });

  it("does not let a user change their own email, another user, or read another user", async () => {
    const me = await createSession();
    const other = await createUser();
    expect((await http("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: { email: "new@example.ch" } })).status).toBe(403);
    expect((await http("PATCH", `/api/users/${other.id}`, { token: me.api_token, body: { name: "Hijacked" } })).status).toBe(403);
    expect((await http("GET", `/api/users/${other.id}`, { token: me.api_token })).status).toBe(403);
  });

  it("refuses an empty change", async () => {
    const me = await createSession();
    expect((await http("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: {} })).status).toBe(422);
  });
});

describe("administration", () => {
  it("lets an administrator edit another user's name, email and password", async () => {
    const admin = await createSession({ admin: true });
    const target = await createSession();
    const newEmail = `renamed.${Date.now()}@example.ch`;
    const reply = await http("PATCH", `/api/users/${target.id}`, {
      token: admin.api_token,
      body: { name: "Renamed", email: newEmail, password: { new: "admin-set-pw-1" } },
    });
    expect(reply).toMatchObject({ status: 200, body: { reset: false, user: { name: "Renamed", email: newEmail } } });
    expect((await http("GET", `/api/users?lookup=${encodeURIComponent(newEmail)}`)).body).toMatchObject({ id: target.id });
    expect((await http("GET", `/api/users?lookup=${encodeURIComponent(target.email!)}`)).status).toBe(404);
    expect((await http("GET", `/api/users/${target.id}`, { token: target.api_token })).status).toBe(401);
    await login(target.id, "admin-set-pw-1");
  });

  it("keeps emails unique and writes nothing when the new one is taken", async () => {
    const admin = await createSession({ admin: true });
    const target = await createUser();
    const holder = await createUser();
    const reply = await http("PATCH", `/api/users/${target.id}`, { token: admin.api_token, body: { name: "Should Not Stick", email: holder.email } });
    expect(reply).toMatchObject({ status: 409, body: { code: "contact_taken" } });
    expect((await http("GET", `/api/users/${target.id}`, { token: admin.api_token })).body).toMatchObject({ name: "Test Person", email: target.email });
  });

  it("does not let an instance admin edit a super admin", async () => {
    const admin = await createSession({ admin: true });
    const superAdmin = await createUser({ superAdmin: true, admin: true });
    expect((await http("PATCH", `/api/users/${superAdmin.id}`, { token: admin.api_token, body: { name: "Demoted" } })).status).toBe(403);
  });

  it("lists users for administrators only", async () => {
    const admin = await createSession({ admin: true });
    const user = await createSession();
    const list = await http<{ users: { id: number }[] }>("GET", "/api/instance/users", { token: admin.api_token });
    expect(list.status).toBe(200);
    expect(list.body.users.map((u) => u.id)).toEqual(expect.arrayContaining([admin.id, user.id]));
    const single = await http<{ users: { id: number }[] }>("GET", `/api/instance/users?singleuser=${user.id}`, { token: admin.api_token });
    expect(single.body.users).toEqual([expect.objectContaining({ id: user.id, password_empty: false })]);
    expect((await http("GET", "/api/instance/users", { token: user.api_token })).status).toBe(403);
  });
});
