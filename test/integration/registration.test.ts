import { describe, expect, it } from "vitest";
import { http, mailedCodes, outboxFor } from "../support/api";
import { createUser } from "../support/users";

async function requestCode(uid: number, contact: string): Promise<string> {
  const reply = await http("POST", "/api/verification/register", { body: { uid, contact } });
  expect(reply).toMatchObject({ status: 200, body: { no_expiry: false } });
  const [mail] = await outboxFor(contact);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
  expect(code, "a 6-digit code in the email").toBeDefined();
  return code!;
}

describe("registration of an invited account", () => {
  it("emails a code through the jobs queue and registers with it", async () => {
    const invited = await createUser({ password: null });
    const code = await requestCode(invited.id, invited.email);
    const reply = await http("POST", "/api/users/register", { body: { name: "Grace Hopper", password: "new-password-1", contact: invited.email, vericode: code } });
    expect(reply).toMatchObject({ status: 200, body: { id: invited.id, name: "Grace Hopper", email: invited.email, api_token: expect.any(String) } });
    const login = await http("POST", `/api/users/${invited.id}/login`, { body: { password: "new-password-1" } });
    expect(login.status).toBe(200);
    const again = await http("POST", "/api/users/register", { body: { name: "Mallory", password: "other-password-1", contact: invited.email, vericode: code } });
    expect(again).toMatchObject({ status: 409, body: { code: "already_registered" } });
  });

  it("refuses a wrong code with the spec's text and keeps the account unregistered", async () => {
    const invited = await createUser({ password: null });
    const code = await requestCode(invited.id, invited.email);
    const wrong = code === "000000" ? "111111" : "000000";
    const reply = await http("POST", "/api/users/register", { body: { name: "X", password: "new-password-1", contact: invited.email, vericode: wrong } });
    expect(reply).toMatchObject({ status: 403, body: { code: "vericode_incorrect", message: "The verification code used was incorrect..." } });
    const lookup = await http("GET", `/api/users?lookup=${encodeURIComponent(invited.email)}`);
    expect(lookup.body).toMatchObject({ password_empty: true });
  });

  it("takes five wrong tries per account in an hour, and a new code brings no new ones", async () => {
    const invited = await createUser({ password: null });
    const code = await requestCode(invited.id, invited.email);
    const wrong = code === "000000" ? "111111" : "000000";
    const register = (vericode: string) => http("POST", "/api/users/register", { body: { name: "X", password: "new-password-1", contact: invited.email, vericode } });
    for (let i = 0; i < 5; i++) expect((await register(wrong)).status).toBe(403);
    const limited = { status: 429, body: { code: "verification_limit", message: "Too many codes or wrong codes for this account - please wait an hour before trying again." } };
    expect(await register(code)).toMatchObject(limited);
    expect((await http("POST", "/api/verification/register", { body: { uid: invited.id, contact: invited.email } })).status).toBe(200);
    const [fresh] = await mailedCodes(invited.email, /verification code is (\d{6})/, 2);
    expect(await register(fresh!)).toMatchObject(limited);
  });

  it("a right code after four wrong ones still registers", async () => {
    const invited = await createUser({ password: null });
    const code = await requestCode(invited.id, invited.email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 4; i++) expect((await http("POST", "/api/users/register", { body: { name: "X", password: "new-password-1", contact: invited.email, vericode: wrong } })).status).toBe(403);
    expect((await http("POST", "/api/users/register", { body: { name: "Y", password: "new-password-1", contact: invited.email, vericode: code } })).status).toBe(200);
  });

  it("answers invalid details with 422 and the spec's text", async () => {
    const invited = await createUser({ password: null });
    const reply = await http("POST", "/api/users/register", { body: { name: "", password: "short", contact: invited.email, vericode: "12" } });
    expect(reply).toMatchObject({ status: 422, body: { code: "registration_invalid", message: "Your registration details are invalid...", fields: expect.any(Object) } });
  });

  it("sends no code for a contact that is not the account's, nor for a registered account", async () => {
    const invited = await createUser({ password: null });
    const registered = await createUser();
    expect((await http("POST", "/api/verification/register", { body: { uid: invited.id, contact: "someone.else@example.ch" } })).status).toBe(404);
    expect((await http("POST", "/api/verification/register", { body: { uid: registered.id, contact: registered.email } })).status).toBe(409);
    expect(await outboxFor(registered.email, { wait: false })).toEqual([]);
  });
});
