import * as z from "zod";
import { MEMBERS } from "./access";
import * as f from "./fields";
import { PAGE_TYPES, menuEntry, requiredName } from "./groups";
import { route, type RouteContract } from "./route";

/**
 * Pages of a group and their permissions (spec 001 §2–§8; docs/api.md, Pages). Every group has
 * the reserved pages drive, members and conversation; admins add pages of the six types. Page
 * names, menu settings and options are plaintext on the server, as in the spec.
 */

export const PAGE_OPTIONS_MAX = 16 * 1024;
export const ICON_MAX = 64;
/** Grants one permission list of a page may hold. */
export const GRANTS_MAX = 200;

export const pageParams = z.object({ id: f.idParam });

/** 0/1 (as the spec sends it) or a boolean. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean);

export const newPage = z.object({
  group: f.id,
  name: requiredName,
  type: z.enum(PAGE_TYPES),
});

/**
 * POST /api/pages/{id} with `_method: PATCH`: the page's options (JSON text of an object), or its
 * menu item: name, internal, icon, menu_name, menu_order (0–255, higher sinks), startpage.
 */
export const pagePatch = z
  .strictObject({
    options: z.string().max(PAGE_OPTIONS_MAX).optional(),
    name: requiredName.optional(),
    internal: flag.optional(),
    icon: f.plainText(z.string().trim().max(ICON_MAX)).optional(),
    menu_name: f.plainText(z.string().trim().max(f.NAME_MAX)).optional(),
    menu_order: z.number().int().min(0).max(255).optional(),
    startpage: flag.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: "Send the options or a menu setting.", path: ["options"] });

/** One grant: a user (role false) or a role (role true), by id (spec 001 §3, Permission entry). */
export const grant = z.object({ role: z.boolean(), id: f.id });
export type Grant = z.infer<typeof grant>;
const grants = z.array(grant).max(GRANTS_MAX);
export const permitBody = z.object({ read: grants.default([]), write: grants.default([]), use: grants.default([]) });

export const permissionsView = z.object({
  read: z.array(grant),
  write: z.array(grant),
  use: z.array(grant),
  /** Names of the users and roles the lists name, by `u{id}` and `r{id}`. */
  _attrib: z.record(z.string(), z.string()),
  /** Whether the caller may change them (group administrators). */
  is_editable: z.boolean(),
});

export const pageView = menuEntry.extend({
  group_id: z.number(),
  /** The page's own configuration: JSON text of an object ("{}" when none). */
  options: z.string(),
  /** Level 1 or below: read-only (spec 001 §2). */
  read_only: z.boolean(),
  /** Whether a user may create items here (not on calendar, card deck, form, reserved or conversation pages; spec 001 §2). */
  can_create: z.boolean(),
  is_editable: z.boolean(),
});
export type PageView = z.infer<typeof pageView>;

export const pageChanged = z.object({ options: z.string(), title: z.string(), page: pageView });

/** Pages: the routes (merged in index.ts; served by the groups area). */
export const pageRoutes = {
  "GET /api/pages": route({ access: MEMBERS, query: z.object({ group: f.idParam }), response: z.object({ pages: z.array(pageView) }) }),
  "POST /api/pages": route({ access: MEMBERS, body: newPage, response: pageView }),
  "GET /api/pages/{id}": route({ access: MEMBERS, params: pageParams, query: z.object({ subview: f.idParam.optional() }), response: pageView }),
  "PATCH /api/pages/{id}": route({ access: MEMBERS, methodOverride: true, params: pageParams, body: pagePatch, response: pageChanged }),
  "DELETE /api/pages/{id}": route({ access: MEMBERS, methodOverride: true, params: pageParams, response: z.object({ deleted: z.number() }) }),
  "POST /api/pages/{id}/permit": route({ access: MEMBERS, params: pageParams, body: permitBody, response: permissionsView }),
  "GET /api/pages/{id}/permissions": route({ access: MEMBERS, params: pageParams, response: permissionsView }),
} satisfies Record<string, RouteContract>;

export const pageErrorCodes = [
  "page_not_found",
  "page_forbidden",
  "page_name_missing",
  "page_internal",
  "page_no_options",
  "page_menu_invalid",
  "page_autofilters_forbidden",
  "page_reserved_name",
  "permit_forbidden",
  "permit_invalid",
] as const;
