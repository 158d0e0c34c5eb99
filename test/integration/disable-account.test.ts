import { describe, expect, it } from "vitest";
import { http, login, mailedCodes } from "../support/api";
import { shareGroup, startConversation } from "../support/conversations";
import { PASSWORD, createSession, createUser } from "../support/users";

/** POST /api/instance/users/{id}/disable and …/enable: an administrator switches an account off and on. */
type Json = Record<string, unknown>;

describe("disabling an account", () => {
  it("stops its tokens at once, refuses its login with a clear code, shows the flag, and enabling lets it log in again", async () => {
    const [admin, member, peer] = await Promise.all([createSession({ admin: true }), createSession(), createSession()]);
    await shareGroup(member, peer);
    const { id: conversation } = await startConversation(peer, [member]);
    expect((await http("GET", `/api/conversations/${conversation}`, { token: member.api_token })).status).toBe(200);

    const disabled = await http<Json>("POST", `/api/instance/users/${member.id}/disable`, { token: admin.api_token });
    expect(disabled).toMatchObject({ status: 200, body: { user: { id: member.id, disabled: true } } });
    // Every token of the account, on every route, from this moment.
    expect(await http("GET", `/api/users/${member.id}`, { token: member.api_token })).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
    expect((await http("GET", `/api/conversations/${conversation}`, { token: member.api_token })).status).toBe(401);
    expect((await http("POST", "/api/conversations/reserve", { token: member.api_token })).status).toBe(401);

    // The right password learns why; a wrong one learns nothing more than before.
    expect(await http("POST", `/api/users/${member.id}/login`, { body: { password: PASSWORD } })).toMatchObject({
      status: 403,
      body: { code: "account_disabled", message: "This account has been disabled - please contact your administrator." },
    });
    expect(await http("POST", `/api/users/${member.id}/login`, { body: { password: "not-the-password" } })).toMatchObject({ status: 403, body: { code: "password_incorrect" } });

    const listed = await http<{ users: Json[] }>("GET", `/api/instance/users?singleuser=${member.id}`, { token: admin.api_token });
    expect(listed.body.users).toEqual([expect.objectContaining({ id: member.id, disabled: true })]);
    const all = await http<{ users: Json[] }>("GET", "/api/instance/users", { token: admin.api_token });
    expect(all.body.users.find((u) => u.id === peer.id)).toMatchObject({ disabled: false });

    const enabled = await http<Json>("POST", `/api/instance/users/${member.id}/enable`, { token: admin.api_token });
    expect(enabled).toMatchObject({ status: 200, body: { user: { id: member.id, disabled: false } } });
    // Old tokens stay dead; a new login works.
    expect((await http("GET", `/api/users/${member.id}`, { token: member.api_token })).status).toBe(401);
    const again = await login(member.id, PASSWORD);
    expect((await http("GET", `/api/conversations/${conversation}`, { token: again.api_token })).status).toBe(200);
  });

  it("a super administrator's account only by a super administrator; never one's own; 404 for nobody", async () => {
    const [admin, superAdmin, otherSuper] = await Promise.all([createSession({ admin: true }), createSession({ admin: true, superAdmin: true }), createUser({ admin: true, superAdmin: true })]);
    expect(await http("POST", `/api/instance/users/${otherSuper.id}/disable`, { token: admin.api_token })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await http("POST", `/api/instance/users/${admin.id}/disable`, { token: admin.api_token })).toMatchObject({ status: 422, body: { code: "disable_self", message: "You cannot disable your own account." } });
    expect(await http("POST", `/api/instance/users/${superAdmin.id}/enable`, { token: superAdmin.api_token })).toMatchObject({ status: 422, body: { code: "disable_self" } });
    expect(await http("POST", "/api/instance/users/987654321/disable", { token: admin.api_token })).toMatchObject({ status: 404, body: { code: "not_found" } });
    for (const spelling of ["01", "1e0", "0x1", "%201", "-1"]) {
      expect((await http("POST", `/api/instance/users/${spelling}/disable`, { token: admin.api_token })).status, spelling).toBe(422);
    }

    expect(await http("POST", `/api/instance/users/${otherSuper.id}/disable`, { token: superAdmin.api_token })).toMatchObject({ status: 200, body: { user: { disabled: true } } });
    expect(await http("POST", `/api/users/${otherSuper.id}/login`, { body: { password: PASSWORD } })).toMatchObject({ status: 403, body: { code: "account_disabled" } });
    // A disabled administrator administrates nothing.
    const target = await createUser();
    const disabledAdmin = await createSession({ admin: true });
    await http("POST", `/api/instance/users/${disabledAdmin.id}/disable`, { token: superAdmin.api_token });
    expect((await http("POST", `/api/instance/users/${target.id}/disable`, { token: disabledAdmin.api_token })).status).toBe(401);
  });

  it("an invited account disabled before it registers gets no code, and a code sent before does not register it", async () => {
    const [admin, invited] = await Promise.all([createSession({ admin: true }), createUser({ password: null })]);
    expect((await http("POST", "/api/verification/register", { body: { uid: invited.id, contact: invited.email } })).status).toBe(200);
    const [code] = await mailedCodes(invited.email, /verification code is (\d{6})/);
    expect((await http("POST", `/api/instance/users/${invited.id}/disable`, { token: admin.api_token })).status).toBe(200);
    expect(await http("POST", "/api/verification/register", { body: { uid: invited.id, contact: invited.email } })).toMatchObject({ status: 403, body: { code: "account_disabled" } });
    const register = (vericode: string) => http("POST", "/api/users/register", { body: { name: "Ivy", password: "new-password-1", contact: invited.email, vericode } });
    // A wrong code learns nothing of it; the right one is told.
    expect(await register(code === "000000" ? "111111" : "000000")).toMatchObject({ status: 403, body: { code: "vericode_incorrect" } });
    expect(await register(code!)).toMatchObject({ status: 403, body: { code: "account_disabled" } });
    expect((await http("GET", `/api/users?lookup=${encodeURIComponent(invited.email)}`)).body).toMatchObject({ password_empty: true });
  });

  it("refuses members (the authorisation harness covers guests and anonymous callers too)", async () => {
    const [member, other] = await Promise.all([createSession(), createUser()]);
    expect(await http("POST", `/api/instance/users/${other.id}/disable`, { token: member.api_token })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect((await http("GET", `/api/users/${other.id}`, { token: (await createSession({ admin: true })).api_token })).body).toMatchObject({ disabled: false });
  });
});
