import { UNSAFE_MULTILINE_MESSAGE, UNSAFE_TEXT_MESSAGE } from "@sealwork/contracts";
import { db } from "@sealwork/core/db/service";
import { describe, expect, it } from "vitest";
import { http, outboxFor, uniqueEmail } from "../support/api";
import { createGroup } from "../support/groups";
import { newInviteBody } from "../support/invites";
import { decodeHeader, mailHeaders } from "../support/mail";
import { createPickup, pickupBody } from "../support/pickups";
import { createSession, createUser } from "../support/users";

/**
 * Every name and free text the server keeps in the clear or puts into a mail refuses control
 * characters, lone surrogates and bidi overrides with 422, on every route that takes one; and a
 * mail is composed so that no name can add a header, whatever got stored.
 */
const HOSTILE: Record<string, string> = {
  "CR/LF (a header injection)": "Your Bank\r\nBcc: x@evil.example",
  "a lone LF": "Two\nLines",
  NUL: "Nul\u0000Byte",
  BEL: "Bell\u0007Ring",
  ESC: "\u001b[31mRed",
  DEL: "Del\u007f",
  "a C1 control (NEL)": "Next\u0085Line",
  "a lone surrogate": "Half \ud83d emoji",
  "U+202E (right-to-left override)": "Invoice \u202Efdp.exe",
  "U+2066 (left-to-right isolate)": "Iso\u2066late",
  "U+2028 (line separator)": "Line\u2028Separator",
};
const FINE_NAME = "Zoë Müller-Łukasiewicz 🙂";
const cases = Object.entries(HOSTILE).map(([label, value]) => ({ label, value }));

type Json = Record<string, unknown> & { code?: string; fields?: Record<string, string[]> };

function expectRefused(reply: { status: number; body: Json }, field: string, code = "validation") {
  expect(reply.status, JSON.stringify(reply.body)).toBe(422);
  expect(reply.body.code).toBe(code);
  expect(reply.body.fields?.[field], JSON.stringify(reply.body.fields)).toBeDefined();
}

describe("names refuse control characters, lone surrogates and bidi overrides", () => {
  it.each(cases)("registration, setup, settings and administration refuse a name with $label", async ({ value }) => {
    const [me, admin] = await Promise.all([createSession({ name: "Steady Name" }), createSession({ admin: true })]);
    const invited = await createUser({ password: null });
    const register = await http<Json>("POST", "/api/users/register", { body: { name: value, password: "new-password-1", contact: invited.email, vericode: "123456" } });
    expectRefused(register, "name", "registration_invalid");
    expect(register.body.fields!.name).toContain(UNSAFE_TEXT_MESSAGE);
    expectRefused(await http<Json>("POST", "/api/instance/setup", { body: { token: "x", name: value, email: "setup@example.ch", password: "long-enough-1" } }), "name");
    expectRefused(await http<Json>("PATCH", `/api/users/${me.id}`, { token: me.api_token, body: { name: value } }), "name");
    expectRefused(await http<Json>("POST", `/api/users/${me.id}`, { token: me.api_token, body: { _method: "PATCH", name: value } }), "name");
    expectRefused(await http<Json>("PATCH", `/api/users/${me.id}`, { token: admin.api_token, body: { name: value } }), "name");
    // Nothing of it was stored.
    expect((await http<Json>("GET", `/api/users/${me.id}`, { token: me.api_token })).body.name).toBe("Steady Name");
  });

  it.each(cases)("contacts with $label are refused wherever an address or phone is taken", async ({ value }) => {
    const admin = await createSession({ admin: true });
    const other = await createUser();
    const email = `x${value}y@example.ch`;
    const phone = `+41 79${value}123 45 67`;
    expectRefused(await http<Json>("PATCH", `/api/users/${other.id}`, { token: admin.api_token, body: { email } }), "email");
    expectRefused(await http<Json>("POST", "/api/verification/register", { body: { uid: other.id, contact: email } }), "contact");
    expectRefused(await http<Json>("POST", "/api/verification/forgot", { body: { uid: other.id, contact: phone } }), "contact");
    expectRefused(await http<Json>("POST", "/api/users/reset", { body: { contact: email, vericode: "123456", password: "long-enough-1" } }), "contact");
    const invite = await newInviteBody({ email });
    expectRefused(await http<Json>("POST", "/api/instance/invite", { token: admin.api_token, body: invite.body }), "email");
    const withPhone = await newInviteBody({ phone });
    expectRefused(await http<Json>("POST", "/api/instance/invite", { token: admin.api_token, body: withPhone.body }), "phone");
    const pickup = await pickupBody(admin, { email });
    expectRefused(await http<Json>("POST", "/api/pickup", { token: admin.api_token, body: pickup.body }), "email");
  });

  it.each(cases.filter((c) => !/CR\/LF|lone LF/.test(c.label)))("an invitation's message and a backup's message refuse $label", async ({ value }) => {
    const admin = await createSession({ admin: true });
    const { body } = await newInviteBody({ message: `Welcome ${value}` });
    const reply = await http<Json>("POST", "/api/instance/invite", { token: admin.api_token, body });
    expectRefused(reply, "message");
    expect(reply.body.fields!.message).toContain(UNSAFE_MULTILINE_MESSAGE);
    expectRefused(await http<Json>("POST", "/api/backup/save", { body: { filename: "A".repeat(43), contents: "x", api_message: value } }), "api_message");
  });

  it.each(cases)("group, page, menu item and role names and the person selector's query refuse $label", async ({ value }) => {
    const sue = await createSession({ admin: true, superAdmin: true });
    const token = sue.api_token;
    const group = (await createGroup([], { by: sue, name: "Steady Group" })).id;
    expectRefused(await http<Json>("POST", "/api/groups", { token, body: { name: value, members: [] } }), "name");
    expectRefused(await http<Json>("POST", "/api/pages", { token, body: { group, name: value, type: "blog" } }), "name");
    const page = (await http<{ id: number }>("POST", "/api/pages", { token, body: { group, name: "Steady Page", type: "blog" } })).body.id;
    for (const field of ["name", "menu_name", "icon"]) {
      expectRefused(await http<Json>("POST", `/api/pages/${page}`, { token, body: { _method: "PATCH", [field]: value } }), field, "page_menu_invalid");
    }
    expectRefused(await http<Json>("POST", "/api/roles", { token, body: { name: value, group_id: group } }), "name");
    // A lone surrogate cannot even be put into a URL.
    if (!/\p{Cs}/u.test(value)) expectRefused(await http<Json>("GET", `/api/people?q=${encodeURIComponent(value)}`, { token }), "q");
    // Nothing of it was stored.
    expect((await http<Json>("GET", `/api/pages/${page}`, { token })).body).toMatchObject({ name: "Steady Page", menu_name: null, icon: null });
    expect((await http<Json>("GET", `/api/groups/${group}`, { token })).body).toMatchObject({ name: "Steady Group" });
  });

  it("an invitation's message may have several lines", async () => {
    const admin = await createSession({ admin: true });
    const { body } = await newInviteBody({ message: "Welcome!\r\nSee you on Monday,\n\tIrene" });
    expect((await http("POST", "/api/instance/invite", { token: admin.api_token, body })).status).toBe(200);
    const [mail] = await outboxFor(body.email);
    expect(mail!.text).toContain("See you on Monday");
  });
});

describe("mail headers are composed, never concatenated", () => {
  it(`an unusual name ("${FINE_NAME}") is kept and reaches the pickup email as one encoded Subject header`, async () => {
    const sender = await createSession({ name: "Plain Name" });
    const renamed = await http<Json>("PATCH", `/api/users/${sender.id}`, { token: sender.api_token, body: { name: FINE_NAME } });
    expect(renamed).toMatchObject({ status: 200, body: { user: { name: FINE_NAME } } });
    const email = uniqueEmail("guest");
    await createPickup(sender, { email });
    const [mail] = await outboxFor(email);
    expect(mail!.subject).toBe(`${FINE_NAME} sent you an encrypted pickup`);
    const raw = mail!.raw!;
    // Only 7-bit text in the header, each line ending in CRLF.
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    expect(/^[\x20-\x7e\r\n\t]*$/.test(head)).toBe(true);
    expect(head.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const headers = mailHeaders(raw);
    expect(headers.map((h) => h.name.toLowerCase()).sort()).toEqual(["content-transfer-encoding", "content-type", "date", "from", "message-id", "mime-version", "subject", "to"]);
    const subject = headers.find((h) => h.name === "Subject")!;
    expect(subject.value).toMatch(/^=\?UTF-8\?/);
    expect(decodeHeader(subject.value)).toBe(`${FINE_NAME} sent you an encrypted pickup`);
    expect(headers.find((h) => h.name === "To")!.value).toBe(email);
  });

  it("a name stored before the rule existed, with CR/LF in it, still cannot add a header", async () => {
    const sender = await createSession({ name: "Old Name" });
    // Written past the contracts, as an item from before the rule could hold it.
    await db().entities.user.patch({ id: sender.id }).set({ name: "Your Bank\r\nBcc: x@evil.example" }).go();
    const email = uniqueEmail("victim");
    await createPickup(sender, { email });
    const [mail] = await outboxFor(email);
    const headers = mailHeaders(mail!.raw!);
    expect(headers.filter((h) => h.name.toLowerCase() === "bcc")).toEqual([]);
    expect(headers.filter((h) => h.name === "Subject")).toHaveLength(1);
    expect(decodeHeader(headers.find((h) => h.name === "Subject")!.value)).not.toMatch(/[\r\n]/);
  });
});
