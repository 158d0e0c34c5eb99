import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { getAs as get, groupTeam, postAs as post } from "../support/groups";
import { createSession } from "../support/users";

interface Role {
  id: number;
  name: string;
  group_id: number;
  admin: boolean;
  group_name: string | null;
}


async function team() {
  const [members, instanceAdmin] = await Promise.all([groupTeam("Crew"), createSession({ admin: true, name: "Ida" })]);
  return { ...members, instanceAdmin };
}

describe("roles", () => {
  it("group admins create, assign, unassign and delete group roles; members and others may not", async () => {
    const { admin, ann, ben, outsider, group } = await team();
    expect((await post(ann, "/api/roles", { name: "Editors", group_id: group })).body).toMatchObject({ code: "group_forbidden" });
    expect((await post(outsider, "/api/roles", { name: "Editors", group_id: group })).status).toBe(403);
    expect((await post(admin, "/api/roles", { name: " ", group_id: group })).body).toMatchObject({ code: "role_name_missing" });
    expect((await post(admin, "/api/roles", { name: "Bad\u202E", group_id: group })).status).toBe(422);
    const role = (await post<Role>(admin, "/api/roles", { name: "Editors", group_id: group })).body;
    expect(role).toMatchObject({ name: "Editors", group_id: group, admin: false, group_name: "Crew" });

    expect((await post(ann, `/api/roles/${role.id}/assign`, { user_id: ben.id })).status).toBe(403);
    expect((await post(admin, `/api/roles/${role.id}/assign`, { user_id: outsider.id })).body).toMatchObject({ code: "member_missing" });
    const twice = await Promise.all([post(admin, `/api/roles/${role.id}/assign`, { user_id: ben.id }), post(admin, `/api/roles/${role.id}/assign`, { user_id: ben.id })]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(twice.find((r) => r.status === 422)!.body).toMatchObject({ code: "role_assigned" });
    const page = await get<{ members: { id: number; roles: number[] }[] }>(ann, `/api/groups/${group}/members`);
    expect(page.body.members.find((m) => m.id === ben.id)!.roles).toEqual([role.id]);

    expect((await post(admin, `/api/roles/${role.id}/unassign`, { user_id: ben.id })).status).toBe(200);
    expect((await post(admin, `/api/roles/${role.id}/unassign`, { user_id: ben.id })).body).toMatchObject({ code: "role_not_assigned" });
    expect((await post(ann, `/api/roles/${role.id}`, { _method: "DELETE" })).status).toBe(403);
    expect((await post(admin, `/api/roles/${role.id}`, { _method: "DELETE" })).body).toEqual({ deleted: role.id });
    expect((await http("DELETE", `/api/roles/${role.id}`, { token: admin.api_token })).body).toMatchObject({ code: "role_not_found" });
  });

  it("the admin role: assigning it promotes for good; it is never taken away or deleted", async () => {
    const { admin, ann, group } = await team();
    const roles = (await get<{ roles: Role[] }>(admin, `/api/groups/${group}/members`)).body.roles;
    const adminRole = roles.find((r) => r.admin && r.group_id === group)!;
    expect((await post(admin, `/api/roles/${adminRole.id}/assign`, { user_id: ann.id })).status).toBe(200);
    expect((await get<{ am_admin: boolean }>(ann, `/api/groups/${group}`)).body.am_admin).toBe(true);
    expect((await post(admin, `/api/roles/${adminRole.id}/assign`, { user_id: ann.id })).body).toMatchObject({ code: "role_assigned" });
    expect((await post(admin, `/api/roles/${adminRole.id}/unassign`, { user_id: ann.id })).body).toMatchObject({ code: "role_admin" });
    expect((await post(admin, `/api/roles/${adminRole.id}`, { _method: "DELETE" })).body).toMatchObject({ code: "role_admin" });
  });

  it("instance-wide roles: instance administrators only; listed with ?roles=1", async () => {
    const { admin, instanceAdmin, ann, group } = await team();
    expect((await post(ann, "/api/roles", { name: "Auditors" })).status).toBe(403);
    const role = (await post<Role>(instanceAdmin, "/api/roles", { name: "Auditors" })).body;
    expect(role).toMatchObject({ group_id: 0, group_name: null });
    expect((await post(instanceAdmin, `/api/roles/${role.id}/assign`, { user_id: ann.id })).status).toBe(200);
    expect((await post(ann, `/api/roles/${role.id}/assign`, { user_id: ann.id })).status).toBe(403);
    const users = await get<{ users: unknown[]; roles: Role[]; user_roles: { user_id: number; role_id: number }[] }>(admin, "/api/instance/users?roles=1");
    expect(users.body.roles.map((r) => r.id)).toContain(role.id);
    expect(users.body.user_roles).toContainEqual({ user_id: ann.id, role_id: role.id });
    expect(users.body.roles.find((r) => r.group_id === group && r.admin)).toMatchObject({ group_name: "Crew" });
    expect((await get(admin, "/api/instance/users")).body).not.toHaveProperty("roles");
    expect((await get(ann, "/api/instance/users?roles=1")).status).toBe(403);
    // Members see instance-wide roles on a group's members page, and who of them holds one.
    const page = await get<{ roles: Role[]; member_roles: { user_id: number; role_id: number }[] }>(ann, `/api/groups/${group}/members`);
    expect(page.body.member_roles).toContainEqual({ user_id: ann.id, role_id: role.id });
  });
});
