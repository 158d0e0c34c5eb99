import type { Session } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { sealedKey, startConversation } from "../support/conversations";
import { assignMember, createGroup, makeAdmin, revokeMember, getAs as get, groupTeam, postAs as post } from "../support/groups";
import { registerKey } from "../support/keys";
import { createSession } from "../support/users";

type Json = Record<string, unknown>;
interface Menu {
  id: number;
  name: string;
  type: string;
  reserved: string | null;
  level: number;
  menu_order: number;
  internal: boolean;
  startpage: boolean;
}
interface GroupView {
  id: number;
  name: string;
  options: string;
  menu: Menu[];
  am_admin: boolean;
  membercount: number;
  creator_id: number;
}


const team = () => groupTeam();

describe("groups: creating and reading", () => {
  it("a super administrator creates a group with members, the reserved pages and an admin role", async () => {
    const { admin, ann, outsider, group } = await team();
    const view = await get<GroupView>(admin, `/api/groups/${group}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id: group, name: "Team", am_admin: true, membercount: 3, creator_id: admin.id });
    expect(JSON.parse(view.body.options)).toEqual({ startpage: null, currencyCodes: "USD" });
    expect(view.body.menu.map((m) => m.reserved)).toEqual(["drive", "members", "conversation"]);

    const asMember = await get<GroupView>(ann, `/api/groups/${group}`);
    expect(asMember.body).toMatchObject({ am_admin: false });
    expect(asMember.body.menu.every((m) => m.level === 2)).toBe(true);
    expect((await get(outsider, `/api/groups/${group}`)).body).toMatchObject({ code: "group_forbidden" });
    expect((await get(ann, "/api/groups/999999999")).status).toBe(404);
    // A member of another group is a non-member here, on every read.
    const other = await createGroup([outsider], { by: admin, name: "Elsewhere" });
    for (const path of [`/api/groups/${group}`, `/api/groups/${group}/members`, `/api/pages?group=${group}`, `/api/pages/${view.body.menu[0]!.id}`, `/api/groups/${group}/log`, `/api/groups/${group}/wraps`, `/api/groups/${group}/conversation`]) {
      expect((await get(outsider, path)).status, path).toBe(403);
    }
    expect((await get(ann, `/api/groups/${other.id}`)).status).toBe(403);
  });

  it("only super administrators create groups; a name is required, names are plain text, members must exist", async () => {
    const { admin, ann } = await team();
    const instanceAdmin = await createSession({ admin: true });
    expect((await post(instanceAdmin, "/api/groups", { name: "X", members: [] })).status).toBe(403);
    expect((await post(ann, "/api/groups", { name: "X", members: [] })).status).toBe(403);
    expect((await post(admin, "/api/groups", { name: "  ", members: [] })).body).toMatchObject({ code: "group_name_missing", message: "Please enter a name for your group." });
    for (const name of ["Evil\u0000", "Bell\u0007", "Line\nbreak", "Right\u202Eleft", "Half\uD800"]) {
      expect((await post(admin, "/api/groups", { name, members: [] })).status, JSON.stringify(name)).toBe(422);
    }
    expect((await post(admin, "/api/groups", { name: "Ghosts", members: [999999999] })).body).toMatchObject({ code: "user_not_found" });
  });

  it("lists a user's groups with member counts", async () => {
    const { ann, outsider, group } = await team();
    const mine = await get<{ groups: { id: number; membercount: number; am_admin: boolean }[]; outstanding: Json }>(ann, `/api/users/${ann.id}/groups`);
    expect(mine.body.groups.find((g) => g.id === group)).toMatchObject({ membercount: 3, am_admin: false });
    expect((await get(outsider, `/api/users/${outsider.id}/groups`)).body).toMatchObject({ groups: [] });
    expect((await get(outsider, `/api/users/${ann.id}/groups`)).status).toBe(403);
  });

  it("ids in odd spellings are refused", async () => {
    const { ann, group } = await team();
    for (const id of [`0${group}`, `${group}.0`, `+${group}`, `0x${group.toString(16)}`, `${group}e0`, "-1", "0"]) {
      expect((await get(ann, `/api/groups/${id}`)).status, id).toBe(422);
      expect((await get(ann, `/api/pages/${id}`)).status, id).toBe(422);
    }
  });

  it("group options: ISO 4217 currency codes upper-cased (the first the default), a start page of the group; admins only", async () => {
    const { admin, ann, group } = await team();
    const patch = (who: Session, options: unknown) => http<GroupView>("PATCH", `/api/groups/${group}`, { token: who.api_token, body: { options: JSON.stringify(options) } });
    expect((await patch(ann, { currencyCodes: "eur" })).body).toMatchObject({ code: "group_forbidden" });
    const set = await patch(admin, { currencyCodes: " chf, eur ,, CHF" });
    expect(JSON.parse(set.body.options)).toMatchObject({ currencyCodes: "CHF,EUR" });
    expect((await patch(admin, { currencyCodes: "ABC" })).body).toMatchObject({ code: "group_options_invalid", message: "Not ISO 4217 currency codes: ABC." });
    expect((await patch(admin, { colours: 1 })).body).toMatchObject({ code: "group_options_invalid" });
    expect((await http("POST", `/api/groups/${group}`, { token: admin.api_token, body: { _method: "PATCH", options: "not json" } })).body).toMatchObject({ code: "group_options_invalid" });
    const members = set.body.menu.find((m) => m.reserved === "members")!;
    const start = await patch(admin, { startpage: members.id });
    expect(JSON.parse(start.body.options)).toMatchObject({ startpage: members.id });
    expect(start.body.menu.find((m) => m.id === members.id)!.startpage).toBe(true);
    expect((await patch(admin, { startpage: 1 })).body).toMatchObject({ code: "group_options_invalid" });
    expect(JSON.parse((await patch(admin, { currencyCodes: "" })).body.options)).toMatchObject({ currencyCodes: "USD" });
  });
});

describe("groups: members", () => {
  it("adds a member once (two adds at once: one is 409 member_exists), and only group admins add", async () => {
    const { admin, ann, outsider, group } = await team();
    const late = await createSession({ name: "Lara" });
    expect((await assignMember(ann, group, { member_uid: late.id })).body).toMatchObject({ code: "group_forbidden" });
    expect((await assignMember(outsider, group, { member_uid: late.id })).status).toBe(403);
    const both = await Promise.all([assignMember(admin, group, { member_uid: late.id }), assignMember(admin, group, { member_uid: late.id })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body).toMatchObject({ code: "member_exists" });
    expect((await get<GroupView>(admin, `/api/groups/${group}`)).body.membercount).toBe(4);
    expect((await assignMember(admin, group, { member_uid: 999999999 })).body).toMatchObject({ code: "user_not_found" });
  });

  it("the last administrator cannot be removed; two admins removing each other at once leave exactly one", async () => {
    const { admin, ann, ben, group } = await team();
    expect((await revokeMember(admin, group, { member_uid: admin.id })).body).toMatchObject({ code: "member_remove_creator" });
    expect((await makeAdmin(admin, group, ann.id)).status).toBe(200);
    const race = await Promise.all([revokeMember(admin, group, { member_uid: ann.id }), revokeMember(ann, group, { member_uid: admin.id })]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(race.find((r) => r.status === 422)!.body).toMatchObject({ code: "member_zeroadmin", message: "You cannot remove the last group administrator from this group." });
    const members = await get<{ members: { id: number; group_admin: boolean }[] }>(ben, `/api/groups/${group}/members`);
    expect(members.body.members.filter((m) => m.group_admin)).toHaveLength(1);
    const survivor = members.body.members.find((m) => m.group_admin)!.id === admin.id ? admin : ann;
    expect((await revokeMember(survivor, group, { member_uid: survivor.id })).body).toMatchObject({ code: survivor === admin ? "member_remove_creator" : "member_zeroadmin" });
  });

  it("two removals of one member at once: one removes, the other is 404 member_missing", async () => {
    const { admin, ben, group } = await team();
    const race = await Promise.all([revokeMember(admin, group, { member_uid: ben.id }), revokeMember(admin, group, { member_uid: ben.id })]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 404]);
    expect((await get<GroupView>(admin, `/api/groups/${group}`)).body.membercount).toBe(2);
  });

  it("a removed member: gone from the group (404 member_missing again), refused its reads, can leave on their own", async () => {
    const { admin, ann, ben, group } = await team();
    expect((await revokeMember(ann, group, { member_uid: ben.id })).body).toMatchObject({ code: "group_forbidden" });
    const removed = await revokeMember(admin, group, { member_uid: ben.id });
    expect(removed.body).toMatchObject({ membercount: 2, needs_rekey: true });
    expect((await revokeMember(admin, group, { member_uid: ben.id })).body).toMatchObject({ code: "member_missing", message: "This member has already been removed - please refresh the page." });
    expect((await get(ben, `/api/groups/${group}`)).status).toBe(403);
    expect((await get(ben, `/api/groups/${group}/members`)).status).toBe(403);
    expect((await revokeMember(ann, group, { member_uid: ann.id })).status).toBe(200);
    expect((await get(ann, `/api/groups/${group}`)).status).toBe(403);
    expect((await makeAdmin(admin, group, ann.id)).body).toMatchObject({ code: "member_missing" });
  });

  it("the members page lists members, the admin role and who holds what; promotion is for good", async () => {
    const { admin, ann, ben, outsider, group } = await team();
    expect((await makeAdmin(ann, group, ben.id)).status).toBe(403);
    await makeAdmin(admin, group, ann.id);
    expect((await makeAdmin(admin, group, ann.id)).status).toBe(200);
    const page = await get<{ attrib: Json; members: { id: number; group_admin: boolean; roles: number[]; creator: boolean }[]; roles: { id: number; admin: boolean }[]; member_roles: Json[] }>(ben, `/api/groups/${group}/members`);
    expect(page.status).toBe(200);
    const adminRole = page.body.roles.find((r) => r.admin)!;
    expect(page.body.members.find((m) => m.id === ann.id)).toMatchObject({ group_admin: true, roles: [adminRole.id] });
    expect(page.body.members.find((m) => m.id === admin.id)).toMatchObject({ creator: true });
    expect((await get(outsider, `/api/groups/${group}/members`)).status).toBe(403);
  });
});

describe("groups: the person selector", () => {
  it("shows members of the caller's groups (everyone to administrators), 50 first, more in chunks", async () => {
    const { ann, ben, outsider, admin } = await team();
    const found = await get<{ people: { id: number; name: string }[]; more: boolean }>(ann, "/api/people?q=be");
    expect(found.body.people.map((p) => p.id)).toContain(ben.id);
    expect(found.body.people.map((p) => p.id)).not.toContain(outsider.id);
    // In no group: nobody to pick.
    expect((await get<{ people: { id: number }[] }>(outsider, "/api/people")).body.people).toEqual([]);
    const all = await get<{ people: { id: number }[]; more: boolean }>(admin, "/api/people?limit=500");
    expect(all.body.people.map((p) => p.id)).toContain(outsider.id);
    expect((await get(admin, "/api/people?limit=501")).status).toBe(422);
    const first = await get<{ people: { id: number }[]; more: boolean }>(admin, "/api/people");
    expect(first.body.people.length).toBeLessThanOrEqual(50);
    expect((await get(admin, "/api/people?q=%07")).status).toBe(422);
  });
});

describe("groups: keys of members (keypairs/target)", () => {
  it("answers the members' current keys with their identities, to members only", async () => {
    const { ann, ben, outsider, group } = await team();
    const annKey = await registerKey(ann);
    await registerKey(outsider);
    const targets = await get<{ user_id: number; id: number; identity: { chain: unknown; legacy: { id: number } | null } }[]>(ben, `/api/keypairs/target?type=group&id=${group}`);
    expect(targets.status).toBe(200);
    // Ann has a key; Ben and Sue have none yet (the wraps status names them); Olly is not a member.
    expect(targets.body.map((t) => t.user_id)).toEqual([ann.id]);
    expect(targets.body[0]).toMatchObject({ id: annKey, identity: { legacy: { id: annKey } } });
    expect((await get(outsider, `/api/keypairs/target?type=group&id=${group}`)).status).toBe(403);
  });
});

describe("groups: the shared-group rule for conversations works with real groups", () => {
  it("a regular user starts a conversation with a fellow member and adds one, not someone outside their groups or a removed member", async () => {
    const { admin, ann, ben, outsider, group } = await team();
    const { id, key } = await startConversation(ann, [ben]);
    const late = await createSession({ name: "Lea" });
    await assignMember(admin, group, { member_uid: late.id });
    const participate = (participant: number) => http("POST", `/api/conversations/${id}/participate`, { token: ann.api_token, body: { participant, sealed: "" } });
    const sealed = await sealedKey(key, id);
    expect((await http("POST", `/api/conversations/${id}/participate`, { token: ann.api_token, body: { participant: late.id, sealed } })).status).toBe(200);
    expect((await http("POST", `/api/conversations/${id}/participate`, { token: ann.api_token, body: { participant: outsider.id, sealed } })).body).toMatchObject({ code: "conversation_no_shared_group" });
    expect((await participate(outsider.id)).status).toBe(422);
    await expect(startConversation(ann, [outsider])).rejects.toThrow(/conversation_no_shared_group/);
    const other = await createGroup([outsider], { by: admin, name: "Other" });
    await expect(startConversation(ann, [outsider])).rejects.toThrow(/conversation_no_shared_group/);
    expect(other.id).not.toBe(group);
    await revokeMember(admin, group, { member_uid: ben.id });
    await expect(startConversation(ann, [ben])).rejects.toThrow(/conversation_no_shared_group/);
  });
});
