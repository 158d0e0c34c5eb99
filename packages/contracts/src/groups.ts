import * as z from "zod";
import { MEMBERS, SUPER_ADMINS } from "./access";
import * as f from "./fields";
import { GROUP_RECORD_MAX_CHARS, signedRecordObject, signedRecordUpTo } from "./identities";
import { route, type RouteContract } from "./route";
import { userId } from "./users";

/**
 * Groups, their members and the person selector (spec 001 §2–§8, spec 000 §6–§9; docs/api.md,
 * Groups). Group names and options are plaintext on the server, as the spec has them
 * (ARCHITECTURE §1 lets the server see group and page names and configuration). Key material of
 * the group (its log entries, records and wraps: ./group-keys) is opaque to the server.
 */

/** People a new group starts with besides its creator: one transaction holds the group, its pages, its admin role and every member. */
export const GROUP_INITIAL_MEMBERS_MAX = 80;
/** The person selector (spec 000 §9): 50 results at first, more in chunks of 500. */
export const SELECTOR_FIRST = 50;
export const SELECTOR_CHUNK = 500;
/** Currency codes a group may list (the first is the default). */
export const CURRENCY_CODES_MAX = 20;
export const DEFAULT_CURRENCY = "USD";

export const groupParams = z.object({ id: f.idParam });

/**
 * A name that may arrive empty: the verb answers the spec's own "name required" code for it
 * (group_name_missing, page_name_missing, role_name_missing) rather than the generic 422.
 */
export const requiredName = f.plainText(z.string().trim().max(f.NAME_MAX));

/** What a page's place in the menu looks like (spec 001 §2, Menu item editor). */
export const PAGE_TYPES = ["pinboard", "blog", "gallery", "calendar", "carddeck", "form"] as const;
/** The pages every group has from its creation (never deleted; spec 001 §4). */
export const RESERVED_PAGES = ["drive", "members", "conversation"] as const;
export type PageType = (typeof PAGE_TYPES)[number];
export type ReservedPage = (typeof RESERVED_PAGES)[number];

export const menuEntry = z.object({
  id: z.number(),
  /** The page's name. */
  name: z.string(),
  menu_name: z.string().nullable(),
  icon: z.string().nullable(),
  menu_order: z.number(),
  /** Shown greyed, and only to people with an explicit grant or group administrators. */
  internal: z.boolean(),
  startpage: z.boolean(),
  type: z.enum([...PAGE_TYPES, ...RESERVED_PAGES]),
  /** drive, members or conversation for the reserved pages, else null. */
  reserved: z.enum(RESERVED_PAGES).nullable(),
  /** The caller's level: 0 not visible, 1 read only, 2 read and use (create items), 3 group administrator (configure, permissions, delete). */
  level: z.number(),
});
export type MenuEntry = z.infer<typeof menuEntry>;

/** The group options (spec 001 §3): `options` travels as JSON text. */
export const groupOptions = z.strictObject({
  /** A page id of this group, or null: the group start opens it. */
  startpage: f.id.nullable().optional(),
  /** ISO 4217 codes, as a comma list or a list; upper-cased; the first is the default. */
  currencyCodes: z.union([z.string().max(200), z.array(z.string().max(8)).max(CURRENCY_CODES_MAX)]).optional(),
});

export const groupView = z.object({
  id: z.number(),
  name: z.string(),
  /** JSON text of the options: startpage, currencyCodes (a comma list, USD when none was set). */
  options: z.string(),
  /** The pages the caller may see (level > 0), by menu order. */
  menu: z.array(menuEntry),
  am_admin: z.boolean(),
  creator_id: z.number(),
  membercount: z.number(),
  /** The group key's current epoch, the membership log's head (-1: empty) and whether a removal waits for the next epoch. */
  epoch: z.number(),
  log_head: z.number(),
  needs_rekey: z.boolean(),
});
export type GroupView = z.infer<typeof groupView>;

export const newGroup = z.object({
  name: requiredName,
  members: z.array(f.id).max(GROUP_INITIAL_MEMBERS_MAX).default([]),
});

export const groupPatch = z.object({ options: z.string().max(4096) });

export const memberView = z.object({
  id: z.number(),
  name: z.string(),
  group_admin: z.boolean(),
  /** The group's roles and instance-wide roles they hold (the admin role for group administrators). */
  roles: z.array(z.number()),
  creator: z.boolean(),
});

export const roleView = z.object({
  id: z.number(),
  name: z.string(),
  /** 0 for an instance-wide role. */
  group_id: z.number(),
  /** The group's administrator role: its holders are the group administrators. */
  admin: z.boolean(),
  group_name: z.string().nullable(),
});
export type RoleView = z.infer<typeof roleView>;

export const memberRole = z.object({ user_id: z.number(), role_id: z.number() });

export const membersPage = z.object({
  attrib: z.object({ id: z.number(), name: z.string(), am_admin: z.boolean(), creator_id: z.number() }),
  members: z.array(memberView),
  roles: z.array(roleView),
  member_roles: z.array(memberRole),
});

/** Entries that continue the group's membership log, from the head the caller has (-1: the log is empty). */
export const GROUP_LOG_APPEND_MAX = 20;
export const logAppendPart = z.object({
  head: z.number().int().min(-1).max(Number.MAX_SAFE_INTEGER),
  entries: z.array(signedRecordObject).min(1).max(GROUP_LOG_APPEND_MAX),
});
/** A member's wrap of the group key of one epoch (opaque: the crypto package's shape). */
export const wrapPart = z.object({ epoch: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), wrap: signedRecordObject });

/** A group's signed record (it names every member: larger than other signed records). */
export const groupRecordObject = signedRecordUpTo(GROUP_RECORD_MAX_CHARS);

export const memberBody = z.object({ member_uid: f.id });
export const assignMemberBody = memberBody.extend({
  /** The log entry that adds them, stored in the same transaction (409 log_conflict on a stale head). */
  log: logAppendPart.optional(),
  /**
   * Their wrap of the current epoch's key, and the epoch's record that now names them, stored in
   * the same transaction (so nobody reads the new member's wrap beside a record without them).
   */
  wrap: wrapPart.extend({ record: groupRecordObject.optional() }).optional(),
});
export const revokeMemberBody = memberBody.extend({ log: logAppendPart.optional() });

export const memberChange = z.object({
  member: memberView.nullable(),
  membercount: z.number(),
  log_head: z.number(),
  needs_rekey: z.boolean(),
});
export const assignMemberResult = memberChange.extend({ added: z.boolean(), wrapped: z.boolean() });

export const userGroups = z.object({
  groups: z.array(z.object({ id: z.number(), name: z.string(), membercount: z.number(), am_admin: z.boolean() })),
  /** Seconds of the caller's last visit of each group's conversation page, keyed by group id. */
  last_visits: z.record(z.string(), z.number()),
  /** Messages waiting in each group's conversation, keyed by group id (only groups with some). */
  outstanding: z.record(z.string(), z.number()),
});

export const peopleQuery = z.object({
  q: f.plainText(z.string().trim().max(f.NAME_MAX)).optional(),
  /** Skip this many matches (a later chunk). */
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(SELECTOR_CHUNK).default(SELECTOR_FIRST),
});
export const people = z.object({
  people: z.array(z.object({ id: z.number(), name: z.string() })),
  more: z.boolean(),
});

/** Groups and members: the routes (merged in index.ts; served by the groups area). */
export const groupRoutes = {
  "GET /api/users/{id}/groups": route({ access: MEMBERS, params: userId, response: userGroups }),
  /** The person selector: people the caller may pick (members of their groups; everyone for administrators). */
  "GET /api/people": route({ access: MEMBERS, query: peopleQuery, response: people }),
  "POST /api/groups": route({ access: SUPER_ADMINS, body: newGroup, response: groupView }),
  "GET /api/groups/{id}": route({ access: MEMBERS, params: groupParams, response: groupView }),
  "PATCH /api/groups/{id}": route({ access: MEMBERS, methodOverride: true, params: groupParams, body: groupPatch, response: groupView }),
  "GET /api/groups/{id}/members": route({ access: MEMBERS, params: groupParams, response: membersPage }),
  "POST /api/groups/{id}/assignMember": route({ access: MEMBERS, params: groupParams, body: assignMemberBody, response: assignMemberResult }),
  "POST /api/groups/{id}/revokeMember": route({ access: MEMBERS, params: groupParams, body: revokeMemberBody, response: memberChange }),
  "POST /api/groups/{id}/makeAdminMember": route({ access: MEMBERS, params: groupParams, body: memberBody, response: memberChange }),
} satisfies Record<string, RouteContract>;

/** The error codes of the groups area (pages, roles and group keys add theirs in their files). */
export const groupErrorCodes = [
  "group_not_found",
  "group_forbidden",
  "group_name_missing",
  "group_options_invalid",
  "member_missing",
  "member_zeroadmin",
  "member_exists",
  "member_remove_creator",
] as const;
