import type * as z from "zod";
import { attachmentRoutes } from "./attachments";
import { conversationLogRoutes } from "./conversation-logs";
import { conversationRoutes } from "./conversations";
import { driveRoutes } from "./drive";
import { moteRoutes } from "./motes";
import { groupKeyRoutes } from "./group-keys";
import { groupMessageRoutes } from "./group-messages";
import { groupRoutes } from "./groups";
import { identityRoutes } from "./identities";
import { instanceRoutes } from "./instance";
import { inviteRoutes } from "./invites";
import { keypairRoutes } from "./keypairs";
import { pageKeyRoutes } from "./page-keys";
import { pageRoutes } from "./pages";
import { pickupRoutes } from "./pickups";
import { roleRoutes } from "./roles";
import type { RouteContract } from "./route";
import { totpRoutes } from "./totp";
import { userRoutes } from "./users";

export * from "./access";
export * from "./error-codes";
export * from "./fields";
export * from "./route";
export * from "./instance";
export * from "./users";
export * from "./totp";
export * from "./keypairs";
export * from "./invites";
export * from "./identities";
export * from "./conversations";
export * from "./conversation-logs";
export * from "./attachments";
export * from "./pickups";
export * from "./groups";
export * from "./pages";
export * from "./page-keys";
export * from "./roles";
export * from "./group-keys";
export * from "./group-messages";
export * from "./drive";
export * from "./motes";

/**
 * Every route of the API, by "METHOD /path": each area's file declares its own routes, and this
 * only merges them. functions/routes.ts maps each to its handler.
 */
export const contracts = {
  ...instanceRoutes,
  ...userRoutes,
  ...totpRoutes,
  ...keypairRoutes,
  ...inviteRoutes,
  ...identityRoutes,
  ...conversationRoutes,
  ...conversationLogRoutes,
  ...attachmentRoutes,
  ...pickupRoutes,
  ...groupRoutes,
  ...pageRoutes,
  ...pageKeyRoutes,
  ...roleRoutes,
  ...groupKeyRoutes,
  ...groupMessageRoutes,
  ...driveRoutes,
  ...moteRoutes,
} satisfies Record<string, RouteContract>;

export type Contracts = typeof contracts;
export type RouteKey = keyof Contracts;
export type Body<K extends RouteKey> = Contracts[K] extends { body: z.ZodType } ? z.input<Contracts[K]["body"]> : undefined;
/** A path or query as a caller fills it in: its values become text in the URL, so numbers do too. */
type UrlValues<T> = { [P in keyof T]: T[P] extends string ? string | number : T[P] extends string | undefined ? string | number | undefined : T[P] };
export type Query<K extends RouteKey> = Contracts[K] extends { query: z.ZodType } ? UrlValues<z.input<Contracts[K]["query"]>> : undefined;
export type Params<K extends RouteKey> = Contracts[K] extends { params: z.ZodType } ? UrlValues<z.input<Contracts[K]["params"]>> : undefined;
export type Response<K extends RouteKey> = z.output<Contracts[K]["response"]>;
