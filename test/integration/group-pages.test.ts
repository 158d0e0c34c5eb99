import type { Session } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { assignMember, makeAdmin, revokeMember, getAs as get, groupTeam, postAs as post } from "../support/groups";

type Json = Record<string, unknown>;
interface PageView {
  id: number;
  group_id: number;
  name: string;
  type: string;
  reserved: string | null;
  level: number;
  read_only: boolean;
  can_create: boolean;
  is_editable: boolean;
  internal: boolean;
  menu_order: number;
  menu_name: string | null;
  icon: string | null;
  options: string;
  startpage: boolean;
}
type Grant = { role: boolean; id: number };


const team = () => groupTeam();

const newPage = (who: Session, group: number, name: string, type = "pinboard") => post<PageView>(who, "/api/pages", { group, name, type });

describe("pages: creating, reading, the menu", () => {
  it("group admins create pages of every type, last in the menu; members read them; others are refused", async () => {
    const { admin, ann, outsider, group } = await team();
    const made: PageView[] = [];
    for (const type of ["pinboard", "blog", "gallery", "calendar", "carddeck", "form"]) {
      const reply = await newPage(admin, group, `A ${type}`, type);
      expect(reply.status, type).toBe(200);
      made.push(reply.body);
    }
    expect(made.map((p) => p.menu_order)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(made.map((p) => p.can_create)).toEqual([true, true, true, false, false, false]);
    expect((await newPage(ann, group, "Mine")).body).toMatchObject({ code: "group_forbidden" });
    expect((await newPage(outsider, group, "Mine")).status).toBe(403);
    expect((await newPage(admin, group, "  ")).body).toMatchObject({ code: "page_name_missing", message: "Please enter a name for your page." });
    expect((await newPage(admin, group, "Wiki", "wiki")).status).toBe(422);
    for (const name of ["Ta\u0009b", "Esc\u001b", "Rlo\u202E", "Lone\uDC00", "P\u2029s"]) expect((await newPage(admin, group, name)).status, JSON.stringify(name)).toBe(422);

    const page = await get<PageView>(ann, `/api/pages/${made[0]!.id}`);
    expect(page.body).toMatchObject({ group_id: group, name: "A pinboard", type: "pinboard", level: 2, read_only: false, is_editable: false, reserved: null });
    expect((await get(outsider, `/api/pages/${made[0]!.id}`)).body).toMatchObject({ code: "page_forbidden", message: "You are not allowed to access this page!" });
    expect((await get(ann, "/api/pages/999999999")).body).toMatchObject({ code: "page_not_found" });
    const list = await get<{ pages: PageView[] }>(ann, `/api/pages?group=${group}`);
    expect(list.body.pages.map((p) => p.name)).toEqual(["Drive", "Members", "Conversation", ...made.map((p) => p.name)]);
    expect((await get(outsider, `/api/pages?group=${group}`)).status).toBe(403);
  });

  it("menu items: name, internal, icon, menu name, order 0–255 (higher sinks), start page; reserved pages keep their names and have no options", async () => {
    const { admin, ann, group } = await team();
    const page = (await newPage(admin, group, "Board")).body;
    const patch = (who: Session, id: number, body: Json) => post<{ options: string; title: string; page: PageView } & Json>(who, `/api/pages/${id}`, { _method: "PATCH", ...body });
    const changed = await patch(admin, page.id, { name: "Notice board", menu_name: "Notices", icon: "pin", menu_order: 0, internal: 0, startpage: 1 });
    expect(changed.body).toMatchObject({ title: "Notice board", page: { menu_name: "Notices", icon: "pin", menu_order: 0, startpage: true } });
    expect(JSON.parse((await get<{ options: string }>(ann, `/api/groups/${group}`)).body.options)).toMatchObject({ startpage: page.id });
    expect((await patch(admin, page.id, { menu_order: 256 })).body).toMatchObject({ code: "page_menu_invalid" });
    expect((await patch(admin, page.id, { menu_order: -1 })).status).toBe(422);
    expect((await patch(admin, page.id, { colour: "red" })).body).toMatchObject({ code: "page_menu_invalid" });
    expect((await patch(admin, page.id, { options: JSON.stringify({ columns: ["a", "b"] }) })).body).toMatchObject({ options: '{"columns":["a","b"]}' });
    expect((await patch(admin, page.id, { options: "[1]" })).body).toMatchObject({ code: "page_menu_invalid" });
    expect((await patch(ann, page.id, { name: "Mine" })).body).toMatchObject({ code: "group_forbidden" });
    // A member may not change the options either (a calendar's 'Commit Changes' shows the 403's text); they stay as they were.
    expect((await patch(ann, page.id, { options: JSON.stringify({ sources: ["cards"] }) })).status).toBe(403);
    expect((await get<{ options: string }>(admin, `/api/pages/${page.id}`)).body.options).toBe('{"columns":["a","b"]}');
    expect((await patch(admin, page.id, { menu_name: "Bad\u0000" })).status).toBe(422);
    // Higher sinks: the board at 0 comes before the members page (1), after the drive (0, older).
    const order = (await get<{ menu: { id: number; reserved: string | null }[] }>(ann, `/api/groups/${group}`)).body.menu.map((m) => m.reserved ?? m.id);
    expect(order).toEqual(["drive", page.id, "members", "conversation"]);
    await patch(admin, page.id, { startpage: false });
    expect(JSON.parse((await get<{ options: string }>(ann, `/api/groups/${group}`)).body.options)).toMatchObject({ startpage: null });

    const drive = (await get<{ menu: { id: number; reserved: string | null }[] }>(admin, `/api/groups/${group}`)).body.menu.find((m) => m.reserved === "drive")!;
    expect((await patch(admin, drive.id, { options: "{}" })).body).toMatchObject({ code: "page_no_options", message: "This page has no configurable options." });
    expect((await patch(admin, drive.id, { name: "Files" })).body).toMatchObject({ code: "page_reserved_name" });
    expect((await patch(admin, drive.id, { menu_name: "Files", menu_order: 200 })).status).toBe(200);
  });

  it("a calendar's autofilters change only by a super administrator's hand (spec 002 §6); its other options by any group administrator", async () => {
    const { admin, ann, group } = await team();
    expect((await makeAdmin(admin, group, ann.id)).status).toBe(200);
    const calendar = (await newPage(admin, group, "Termine", "calendar")).body;
    const board = (await newPage(admin, group, "Board")).body;
    const patch = (who: Session, id: number, options: Json) => post<{ options: string } & Json>(who, `/api/pages/${id}`, { _method: "PATCH", options: JSON.stringify(options) });
    const autofilters = JSON.stringify([{ field: "title", type: "text", fieldname: "Title", term: "Planung", or: false, not: false }]);
    const stored = async () => JSON.parse((await get<{ options: string }>(admin, `/api/pages/${calendar.id}`)).body.options) as Json;

    // Ann, a group administrator but no super administrator: options without autofilters, yes; with them, no.
    expect((await patch(ann, calendar.id, { sources: ["cards"] })).status).toBe(200);
    const refused = await patch(ann, calendar.id, { sources: ["cards"], autofilters });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "page_autofilters_forbidden", message: "You are not allowed to alter this page!" });
    // Sue, a super administrator, saves them.
    expect((await patch(admin, calendar.id, { sources: ["cards"], autofilters })).status).toBe(200);
    // Ann changes the colour with the autofilters as stored; she may neither change nor drop them.
    expect((await patch(ann, calendar.id, { sources: ["cards"], sourceColors: { cards: "#c92a2a" }, autofilters })).status).toBe(200);
    expect((await patch(ann, calendar.id, { sources: ["cards"], autofilters: "" })).body).toMatchObject({ code: "page_autofilters_forbidden" });
    expect((await patch(ann, calendar.id, { sources: ["cards"] })).body).toMatchObject({ code: "page_autofilters_forbidden" });
    expect(await stored()).toEqual({ sources: ["cards"], sourceColors: { cards: "#c92a2a" }, autofilters });
    // Sue clears them; other page types' options are not a calendar's.
    expect((await patch(admin, calendar.id, { sources: ["cards"], autofilters: "" })).status).toBe(200);
    expect((await patch(ann, board.id, { autofilters })).status).toBe(200);
  });

  it("deletes pages (admins; never the reserved ones), with the start page option", async () => {
    const { admin, ann, group } = await team();
    const page = (await newPage(admin, group, "Old")).body;
    await post(admin, `/api/pages/${page.id}`, { _method: "PATCH", startpage: true });
    expect((await post(ann, `/api/pages/${page.id}`, { _method: "DELETE" })).status).toBe(403);
    expect((await post(admin, `/api/pages/${page.id}`, { _method: "DELETE" })).body).toEqual({ deleted: page.id });
    expect((await get(admin, `/api/pages/${page.id}`)).status).toBe(404);
    expect(JSON.parse((await get<{ options: string }>(admin, `/api/groups/${group}`)).body.options)).toMatchObject({ startpage: null });
    expect((await http("DELETE", `/api/pages/${page.id}`, { token: admin.api_token })).body).toMatchObject({ code: "page_not_found" });
    expect((await post(admin, `/api/pages/${page.id}`, { _method: "PUT" })).status).toBe(405);
    for (const reserved of (await get<{ menu: { id: number; reserved: string | null }[] }>(admin, `/api/groups/${group}`)).body.menu.filter((m) => m.reserved)) {
      expect((await post(admin, `/api/pages/${reserved.id}`, { _method: "DELETE" })).body).toMatchObject({
        code: "page_internal",
        message: "You cannot currently delete internal pages such as drive, members, etc.",
      });
    }
  });
});

describe("pages: permissions and levels", () => {
  it("read and use lists of users and roles set the level; level 1 is read-only; internal pages hide; admins edit (is_editable)", async () => {
    const { admin, ann, ben, outsider, group } = await team();
    const page = (await newPage(admin, group, "Board")).body;
    const role = (await post<{ id: number }>(admin, "/api/roles", { name: "Editors", group_id: group })).body;
    await post(admin, `/api/roles/${role.id}/assign`, { user_id: ben.id });
    const permit = (who: Session, body: Json) => post<{ read: Grant[]; use: Grant[]; is_editable: boolean; _attrib: Json } & Json>(who, `/api/pages/${page.id}/permit`, body);
    const level = async (who: Session) => (await get<PageView>(who, `/api/pages/${page.id}`)).body;

    const set = await permit(admin, { read: [{ role: false, id: ann.id }], use: [{ role: true, id: role.id }] });
    expect(set.body).toMatchObject({ is_editable: true, _attrib: { [`u${ann.id}`]: "Ann", [`r${role.id}`]: "Editors" } });
    expect(await level(ann)).toMatchObject({ level: 1, read_only: true, can_create: false });
    expect(await level(ben)).toMatchObject({ level: 2, read_only: false, can_create: true });
    expect(await level(admin)).toMatchObject({ level: 3, is_editable: true });
    const perms = await get<{ read: Grant[]; is_editable: boolean }>(ann, `/api/pages/${page.id}/permissions`);
    expect(perms.body).toMatchObject({ read: [{ role: false, id: ann.id }], is_editable: false });
    expect((await get(outsider, `/api/pages/${page.id}/permissions`)).status).toBe(403);

    // Only the use list, naming a role Ann lacks: Ann no longer sees the page, in the menu either.
    await permit(admin, { read: [], use: [{ role: true, id: role.id }] });
    expect((await get(ann, `/api/pages/${page.id}`)).body).toMatchObject({ code: "page_forbidden" });
    expect((await get<{ menu: { id: number }[] }>(ann, `/api/groups/${group}`)).body.menu.map((m) => m.id)).not.toContain(page.id);

    expect((await permit(ann, { read: [] })).body).toMatchObject({ code: "permit_forbidden", message: "You do not have access to edit this object." });
    expect((await permit(admin, { read: [{ role: false, id: outsider.id }] })).body).toMatchObject({ code: "permit_invalid" });
    expect((await permit(admin, { read: [{ role: true, id: 999999999 }] })).body).toMatchObject({ code: "permit_invalid" });
    expect((await permit(admin, { read: [{ role: "yes", id: 1 }] })).body).toMatchObject({ code: "permit_invalid" });

    // Internal: hidden from members without a grant; a grant shows it.
    await permit(admin, { read: [], use: [] });
    await post(admin, `/api/pages/${page.id}`, { _method: "PATCH", internal: true });
    expect((await get(ann, `/api/pages/${page.id}`)).status).toBe(403);
    await permit(admin, { read: [{ role: false, id: ann.id }] });
    expect(await level(ann)).toMatchObject({ level: 1, internal: true });

    // A removed member's grants give nothing; their group roles go with them.
    await revokeMember(admin, group, { member_uid: ben.id });
    expect((await get(ben, `/api/pages/${page.id}`)).status).toBe(403);
    await assignMember(admin, group, { member_uid: ben.id });
    const members = await get<{ member_roles: { user_id: number; role_id: number }[] }>(admin, `/api/groups/${group}/members`);
    expect(members.body.member_roles.filter((r) => r.user_id === ben.id)).toEqual([]);
    expect((await makeAdmin(admin, group, ben.id)).status).toBe(200);
    expect(await level(ben)).toMatchObject({ level: 3 });
  });
});
