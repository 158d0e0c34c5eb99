import { describe, expect, it } from "vitest";
import type { UserItem } from "../user/entities";
import type { Actor } from "./actor";
import { type Actions, type Kind, type ResourceOf, can } from "./can";

/**
 * The access rules as a matrix: every kind of actor against every kind of resource (in the
 * situations that change the answer) and every action. Each row lists the actions allowed; all
 * others must be refused. The groups issue adds its roles as new actors and resources here.
 */
const user = (id: number, kind: "user" | "admin" | "super"): Actor => ({
  kind,
  ip: "203.0.113.1",
  uid: id,
  user: { id, name: kind, admin: kind !== "user", superAdmin: kind === "super", tokenVersion: 1, totpEnabled: false, createdAt: 0 } as UserItem,
});

const ME = 10;
const PICKUP = 7;
const actors = {
  anonymous: { kind: "anonymous", ip: "203.0.113.1" },
  guest: { kind: "guest", ip: "203.0.113.1", uid: 0, pickup: PICKUP, live: true },
  "guest of a dead pickup": { kind: "guest", ip: "203.0.113.1", uid: 0, pickup: PICKUP, live: false },
  user: user(ME, "user"),
  admin: user(ME, "admin"),
  super: user(ME, "super"),
} satisfies Record<string, Actor>;
type ActorName = keyof typeof actors;

const ACTIONS: { [K in Kind]: Actions[K][] } = {
  instance: ["use", "administrate", "grant-super", "create-group"],
  account: ["read", "update", "administrate", "disable", "reset-key"],
  person: ["contact"],
  keypair: ["read", "recover"],
  conversation: ["read", "write", "rename", "archive", "manage", "delete"],
  group: ["read", "leave", "manage", "analyse"],
  page: ["read", "use", "configure", "autofilter"],
  role: ["manage", "unassign", "delete"],
  driveitem: ["read", "edit", "move", "delete", "use", "permit"],
  mote: ["read", "create", "edit", "delete"],
  comment: ["post", "delete"],
};

interface Row<K extends Kind> {
  resource: ResourceOf<K>;
  allowed: Record<ActorName, Actions[K][]>;
}

const none = { anonymous: [], guest: [], "guest of a dead pickup": [] };
const conversation = (over: Partial<ResourceOf<"conversation">>): ResourceOf<"conversation"> => ({ kind: "conversation", id: 99, authorId: 50, pickup: false, participant: { admin: false }, ...over });

/** Group roles: a member, a group administrator, a role holder (role 5), and non-members. */
const MEMBER = { admin: false, roles: [] };
const GROUP_ADMIN = { admin: true, roles: [] };
const ROLE_HOLDER = { admin: false, roles: [5] };
const item = (over: Partial<ResourceOf<"driveitem">>): ResourceOf<"driveitem"> => ({ kind: "driveitem", groupId: 3, authorId: ME, drive: false, member: MEMBER, read: [], write: [], use: [], ...over });
const page = (over: Partial<ResourceOf<"page">>): ResourceOf<"page"> => ({ kind: "page", groupId: 3, member: MEMBER, internal: false, read: [], use: [], ...over });
const allPage = ["read", "use", "configure"] as const;

const matrix: Record<string, Row<Kind>> = {
  "the instance": {
    resource: { kind: "instance" },
    allowed: { ...none, user: ["use"], admin: ["use", "administrate"], super: ["use", "administrate", "grant-super", "create-group"] },
  },
  "one's own account": {
    resource: { kind: "account", id: ME, superAdmin: false },
    allowed: { ...none, user: ["read", "update"], admin: ["read", "update", "administrate"], super: ["read", "update", "administrate"] },
  },
  "another's account": {
    resource: { kind: "account", id: 11, superAdmin: false },
    allowed: { ...none, user: [], admin: ["read", "update", "administrate", "disable", "reset-key"], super: ["read", "update", "administrate", "disable", "reset-key"] },
  },
  "a super administrator's account": {
    resource: { kind: "account", id: 11, superAdmin: true },
    allowed: { ...none, user: [], admin: ["read"], super: ["read", "update", "administrate", "disable", "reset-key"] },
  },
  "a person sharing a group": {
    resource: { kind: "person", id: 11, sharesGroup: true },
    allowed: { ...none, user: ["contact"], admin: ["contact"], super: ["contact"] },
  },
  "a person sharing no group": {
    resource: { kind: "person", id: 11, sharesGroup: false },
    allowed: { ...none, user: [], admin: ["contact"], super: ["contact"] },
  },
  "one's own key": {
    resource: { kind: "keypair", ownerId: ME },
    allowed: { ...none, user: ["read", "recover"], admin: ["read", "recover"], super: ["read", "recover"] },
  },
  "another's key": {
    resource: { kind: "keypair", ownerId: 11 },
    allowed: { ...none, user: ["read"], admin: ["read"], super: ["read"] },
  },
  "a conversation one takes part in": {
    resource: conversation({}),
    allowed: { ...none, user: ["read", "write", "rename", "archive"], admin: ["read", "write", "rename", "archive", "manage"], super: ["read", "write", "rename", "archive", "manage"] },
  },
  "a conversation one is an admin of": {
    resource: conversation({ participant: { admin: true } }),
    allowed: { ...none, user: ["read", "write", "rename", "archive", "manage"], admin: ["read", "write", "rename", "archive", "manage"], super: ["read", "write", "rename", "archive", "manage"] },
  },
  "a conversation one started": {
    resource: conversation({ authorId: ME, participant: { admin: true } }),
    allowed: { ...none, user: ["read", "write", "rename", "archive", "manage"], admin: ["read", "write", "rename", "archive", "manage"], super: ["read", "write", "rename", "archive", "manage"] },
  },
  "a conversation with a membership log one takes part in (only its log's admins change its people)": {
    resource: conversation({ signed: true }),
    allowed: { ...none, user: ["read", "write", "rename", "archive"], admin: ["read", "write", "rename", "archive"], super: ["read", "write", "rename", "archive"] },
  },
  "a conversation with a membership log one is an admin of": {
    resource: conversation({ signed: true, participant: { admin: true } }),
    allowed: { ...none, user: ["read", "write", "rename", "archive", "manage"], admin: ["read", "write", "rename", "archive", "manage"], super: ["read", "write", "rename", "archive", "manage"] },
  },
  "a conversation one does not take part in": {
    resource: conversation({ participant: null }),
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "the guest's own pickup": {
    resource: conversation({ id: PICKUP, pickup: true, participant: { admin: false } }),
    allowed: { anonymous: [], guest: ["read", "write"], "guest of a dead pickup": [], user: ["read", "write", "rename", "archive"], admin: ["read", "write", "rename", "archive", "manage"], super: ["read", "write", "rename", "archive", "manage"] },
  },
  "a pickup one created": {
    resource: conversation({ id: PICKUP, pickup: true, authorId: ME, participant: { admin: true } }),
    allowed: { anonymous: [], guest: ["read", "write"], "guest of a dead pickup": [], user: ["read", "write", "rename", "archive", "manage", "delete"], admin: ["read", "write", "rename", "archive", "manage", "delete"], super: ["read", "write", "rename", "archive", "manage", "delete"] },
  },
  "another pickup": {
    resource: conversation({ id: 8, pickup: true, participant: { admin: false } }),
    allowed: { ...none, user: ["read", "write", "rename", "archive"], admin: ["read", "write", "rename", "archive", "manage"], super: ["read", "write", "rename", "archive", "manage"] },
  },
  "a group one is not a member of": {
    resource: { kind: "group", id: 3, member: null },
    allowed: { ...none, user: [], admin: [], super: ["analyse"] },
  },
  "a group one is a member of": {
    resource: { kind: "group", id: 3, member: MEMBER },
    allowed: { ...none, user: ["read", "leave"], admin: ["read", "leave"], super: ["read", "leave", "analyse"] },
  },
  "a group one administers": {
    resource: { kind: "group", id: 3, member: GROUP_ADMIN },
    allowed: { ...none, user: ["read", "leave", "manage", "analyse"], admin: ["read", "leave", "manage", "analyse"], super: ["read", "leave", "manage", "analyse"] },
  },
  "an open page of one's group": {
    resource: page({}),
    allowed: { ...none, user: ["read", "use"], admin: ["read", "use"], super: ["read", "use"] },
  },
  "a page of a group one is not in": {
    resource: page({ member: null }),
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "a page of a group one administers": {
    resource: page({ member: GROUP_ADMIN, internal: true, read: [{ role: false, id: 99 }] }),
    // Saving a calendar's autofilters: super administrators only (spec 002 §6).
    allowed: { ...none, user: [...allPage], admin: [...allPage], super: [...allPage, "autofilter"] },
  },
  "an internal page without a grant for one": {
    resource: page({ internal: true }),
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "a page whose read list names one (read-only)": {
    resource: page({ read: [{ role: false, id: ME }], use: [{ role: false, id: 99 }] }),
    allowed: { ...none, user: ["read"], admin: ["read"], super: ["read"] },
  },
  "a page whose use list names a role one holds": {
    resource: page({ member: ROLE_HOLDER, internal: true, use: [{ role: true, id: 5 }] }),
    allowed: { ...none, user: ["read", "use"], admin: ["read", "use"], super: ["read", "use"] },
  },
  "a page whose lists name a role one does not hold": {
    resource: page({ read: [{ role: true, id: 5 }] }),
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "a group role of a group one administers": {
    resource: { kind: "role", groupId: 3, admin: false, member: GROUP_ADMIN },
    allowed: { ...none, user: ["manage", "unassign", "delete"], admin: ["manage", "unassign", "delete"], super: ["manage", "unassign", "delete"] },
  },
  "the admin role of a group one administers (assigned, never taken or deleted)": {
    resource: { kind: "role", groupId: 3, admin: true, member: GROUP_ADMIN },
    allowed: { ...none, user: ["manage"], admin: ["manage"], super: ["manage"] },
  },
  "a group role of a group one is a member of": {
    resource: { kind: "role", groupId: 3, admin: false, member: ROLE_HOLDER },
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "an instance-wide role": {
    resource: { kind: "role", groupId: 0, admin: false, member: null },
    allowed: { ...none, user: [], admin: ["manage", "unassign", "delete"], super: ["manage", "unassign", "delete"] },
  },
  "a folder of one's own in a group one is a member of": {
    resource: item({}),
    allowed: { ...none, user: ["read", "edit", "move", "delete", "use", "permit"], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "another member's folder without grants (instance administrators may change any drive item)": {
    resource: item({ authorId: 50 }),
    allowed: { ...none, user: ["read", "use"], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "another member's folder in a group one administers": {
    resource: item({ authorId: 50, member: GROUP_ADMIN }),
    allowed: { ...none, user: ["read", "edit", "move", "delete", "use", "permit"], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "a drive of one's own (renamed, never moved or deleted)": {
    resource: item({ drive: true }),
    allowed: { ...none, user: ["read", "edit", "use", "permit"], admin: ["read", "edit", "use", "permit"], super: ["read", "edit", "use", "permit"] },
  },
  "a folder of one's own in a group one has left": {
    resource: item({ member: null }),
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "another's folder whose read list names someone else": {
    resource: item({ authorId: 50, read: [{ role: false, id: 51 }] }),
    allowed: { ...none, user: [], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "another's folder whose read list names one's role": {
    resource: item({ authorId: 50, member: ROLE_HOLDER, read: [{ role: true, id: 5 }] }),
    allowed: { ...none, user: ["read"], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "another's folder whose write list names one (and read list someone else)": {
    resource: item({ authorId: 50, read: [{ role: false, id: 51 }], write: [{ role: false, id: ME }] }),
    allowed: { ...none, user: ["read", "edit", "move", "delete"], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "another's folder whose use list names one's role": {
    resource: item({ authorId: 50, member: ROLE_HOLDER, use: [{ role: true, id: 5 }] }),
    allowed: { ...none, user: ["read", "use"], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "another's folder with a write list only (readable by all, no one else puts into it)": {
    resource: item({ authorId: 50, write: [{ role: false, id: 51 }] }),
    allowed: { ...none, user: ["read"], admin: ["read", "edit", "move", "delete", "use", "permit"], super: ["read", "edit", "move", "delete", "use", "permit"] },
  },
  "one's own mote on a page one may use": {
    resource: { kind: "mote", groupId: 3, authorId: ME, level: 2, member: MEMBER },
    allowed: { ...none, user: ["read", "create", "edit", "delete"], admin: ["read", "create", "edit", "delete"], super: ["read", "create", "edit", "delete"] },
  },
  "another member's mote (instance administrators are no group administrators here)": {
    resource: { kind: "mote", groupId: 3, authorId: 50, level: 2, member: MEMBER },
    allowed: { ...none, user: ["read", "create"], admin: ["read", "create"], super: ["read", "create"] },
  },
  "another member's mote in a group one administers": {
    resource: { kind: "mote", groupId: 3, authorId: 50, level: 3, member: GROUP_ADMIN },
    allowed: { ...none, user: ["read", "create", "edit", "delete"], admin: ["read", "create", "edit", "delete"], super: ["read", "create", "edit", "delete"] },
  },
  "one's own mote on a page made read-only for one (level 1)": {
    resource: { kind: "mote", groupId: 3, authorId: ME, level: 1, member: MEMBER },
    allowed: { ...none, user: ["read"], admin: ["read"], super: ["read"] },
  },
  "one's own mote in a group one has left": {
    resource: { kind: "mote", groupId: 3, authorId: ME, level: 2, member: null },
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "another member's comment on a page one may read": {
    resource: { kind: "comment", groupId: 3, authorId: 50, level: 1, member: MEMBER },
    allowed: { ...none, user: ["post"], admin: ["post"], super: ["post"] },
  },
  "one's own comment": {
    resource: { kind: "comment", groupId: 3, authorId: ME, level: 1, member: MEMBER },
    allowed: { ...none, user: ["post", "delete"], admin: ["post", "delete"], super: ["post", "delete"] },
  },
  "another member's comment in a group one administers": {
    resource: { kind: "comment", groupId: 3, authorId: 50, level: 3, member: GROUP_ADMIN },
    allowed: { ...none, user: ["post", "delete"], admin: ["post", "delete"], super: ["post", "delete"] },
  },
  "a comment on a page one cannot see": {
    resource: { kind: "comment", groupId: 3, authorId: ME, level: 0, member: MEMBER },
    allowed: { ...none, user: [], admin: [], super: [] },
  },
  "a pickup one neither created nor takes part in": {
    resource: conversation({ id: PICKUP, pickup: true, participant: null }),
    allowed: { ...none, user: [], admin: [], super: [] },
  },
};

describe("can(actor, action, resource): the access matrix", () => {
  const rows = Object.entries(matrix).flatMap(([label, row]) => (Object.keys(actors) as ActorName[]).map((actor) => ({ label, actor, row })));

  it.each(rows)("$actor on $label", ({ actor, row }) => {
    const actions = ACTIONS[row.resource.kind] as Actions[Kind][];
    const allowed = actions.filter((action) => can(actors[actor], action as never, row.resource as never));
    expect(allowed).toEqual(row.allowed[actor]);
  });

  it("covers every kind of resource and every kind of actor", () => {
    expect(new Set(Object.values(matrix).map((r) => r.resource.kind))).toEqual(new Set(Object.keys(ACTIONS)));
    expect(Object.keys(actors)).toEqual(expect.arrayContaining(["anonymous", "guest", "user", "admin", "super"]));
  });
});
