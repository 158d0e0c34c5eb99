import { contracts, splitRouteKey, type HttpMethod, type RouteKey } from "@sealwork/contracts";
import type { JobKind } from "@sealwork/core/config";

/**
 * THE route table: every endpoint of the API and the Lambda handler that serves it. The SST Api
 * stack and the local runtime both read it. Typed against the contracts, so a route without a
 * handler (or a handler without a contract) does not compile.
 */
export const routes: Record<RouteKey, string> = {
  "GET /api/health": "functions/api/health.handler",
  "GET /api/instance": "functions/api/instance/info.handler",
  "POST /api/instance/setup": "functions/api/instance/setup.handler",
  "GET /api/instance/users": "functions/api/instance/users.handler",
  "POST /api/instance/users/{id}/disable": "functions/api/instance/disable-user.handler",
  "POST /api/instance/users/{id}/enable": "functions/api/instance/enable-user.handler",
  "GET /api/users": "functions/api/users/lookup.handler",
  "POST /api/verification/register": "functions/api/verification/register.handler",
  "POST /api/users/register": "functions/api/users/register.handler",
  "POST /api/verification/forgot": "functions/api/verification/forgot.handler",
  "POST /api/users/reset": "functions/api/users/reset.handler",
  "POST /api/users/{id}/login": "functions/api/users/login.handler",
  "GET /api/users/{id}": "functions/api/users/get.handler",
  "PATCH /api/users/{id}": "functions/api/users/update.handler",
  // Two-factor login (TOTP)
  "POST /api/verification/totpSetup": "functions/api/verification/totp-setup.handler",
  "POST /api/verification/totpDestroy": "functions/api/verification/totp-destroy.handler",
  "POST /api/verification/totpDestroyAdmin": "functions/api/verification/totp-destroy-admin.handler",
  // Account keys and backups (the literal /target before /{id})
  "GET /api/keypairs": "functions/api/keypairs/get.handler",
  "POST /api/keypairs": "functions/api/keypairs/create.handler",
  "GET /api/keypairs/target": "functions/api/keypairs/target.handler",
  "GET /api/keypairs/{id}": "functions/api/keypairs/get-one.handler",
  "POST /api/keypairs/{id}/recover": "functions/api/keypairs/recover.handler",
  "POST /api/backup/save": "functions/api/backup/save.handler",
  "POST /api/backup/load": "functions/api/backup/load.handler",
  // Invitations
  "POST /api/instance/invite": "functions/api/invites/create.handler",
  "GET /api/instance/invites": "functions/api/invites/list.handler",
  "POST /api/instance/invites/reserve": "functions/api/invites/reserve.handler",
  "POST /api/instance/invites/{id}/resend": "functions/api/invites/resend.handler",
  "POST /api/instance/invites/{id}/code": "functions/api/invites/code.handler",
  // Identities, anchors and pins (protocol v2; the literal paths before /{id})
  "GET /api/identities/anchors": "functions/api/identities/anchors.handler",
  "GET /api/identities/invitation": "functions/api/identities/invitation.handler",
  "GET /api/identities/pins": "functions/api/identities/pins.handler",
  "PUT /api/identities/pins": "functions/api/identities/save-pins.handler",
  "GET /api/identities/uncertified": "functions/api/identities/uncertified.handler",
  "GET /api/identities/{id}": "functions/api/identities/get.handler",
  "POST /api/identities": "functions/api/identities/publish.handler",
  "POST /api/identities/{id}/admin": "functions/api/identities/certify-admin.handler",
  "POST /api/identities/{id}/legacy": "functions/api/identities/certify-legacy.handler",
  "POST /api/identities/{id}/reset": "functions/api/identities/reset.handler",
  "POST /api/identities/legacy-rule": "functions/api/identities/legacy-rule.handler",
  // Conversations
  "GET /api/users/{id}/conversations": "functions/api/conversations/list.handler",
  "GET /api/notify/check": "functions/api/conversations/notify-check.handler",
  "POST /api/conversations/reserve": "functions/api/conversations/reserve.handler",
  "POST /api/conversations": "functions/api/conversations/create.handler",
  "GET /api/conversations/{id}": "functions/api/conversations/load.handler",
  "PATCH /api/conversations/{id}": "functions/api/conversations/rename.handler",
  "GET /api/conversations/{id}/poll": "functions/api/conversations/poll.handler",
  "POST /api/conversations/{id}/append": "functions/api/conversations/append.handler",
  "POST /api/conversations/{id}/participate": "functions/api/conversations/participate.handler",
  "POST /api/conversations/{id}/unparticipate": "functions/api/conversations/unparticipate.handler",
  "GET /api/conversations/{id}/log": "functions/api/conversations/log.handler",
  "POST /api/conversations/{id}/log": "functions/api/conversations/append-log.handler",
  "GET /api/conversations/{id}/attachments": "functions/api/attachments/list.handler",
  "POST /api/conversations/{id}/attachments": "functions/api/attachments/start.handler",
  "POST /api/conversations/{id}/attachments/{aid}/complete": "functions/api/attachments/complete.handler",
  "GET /api/conversations/{id}/attachments/{aid}": "functions/api/attachments/download.handler",
  "POST /api/conversations/{id}/attachments/from-drive": "functions/api/attachments/from-drive.handler",
  "POST /api/conversations/{id}/archive": "functions/api/conversations/archive.handler",
  "POST /api/conversations/{id}/key": "functions/api/conversations/own-key.handler",
  // Pickups (the literal /recover before /{lookup})
  "POST /api/pickup": "functions/api/pickup/create.handler",
  "GET /api/pickup/{lookup}": "functions/api/pickup/lookup.handler",
  "POST /api/pickup/recover/{lookup}": "functions/api/pickup/recover.handler",
  "DELETE /api/conversations/{id}": "functions/api/pickup/delete.handler",
  // Groups, their members, pages, roles and keys (one area: groups)
  "GET /api/users/{id}/groups": "functions/api/groups/list-mine.handler",
  "GET /api/people": "functions/api/groups/people.handler",
  "POST /api/groups": "functions/api/groups/create.handler",
  "GET /api/groups/{id}": "functions/api/groups/get.handler",
  "PATCH /api/groups/{id}": "functions/api/groups/update.handler",
  "GET /api/groups/{id}/members": "functions/api/groups/members.handler",
  "POST /api/groups/{id}/assignMember": "functions/api/groups/assign-member.handler",
  "POST /api/groups/{id}/revokeMember": "functions/api/groups/revoke-member.handler",
  "POST /api/groups/{id}/makeAdminMember": "functions/api/groups/make-admin-member.handler",
  "GET /api/groups/{id}/log": "functions/api/groups/log.handler",
  "GET /api/groups/{id}/epochs/{epoch}": "functions/api/groups/epoch.handler",
  "POST /api/groups/{id}/log": "functions/api/groups/append-log.handler",
  "GET /api/groups/{id}/wraps/status": "functions/api/groups/wrap-status.handler",
  "GET /api/groups/{id}/wraps": "functions/api/groups/wraps.handler",
  "POST /api/groups/{id}/wraps": "functions/api/groups/store-wraps.handler",
  "GET /api/groups/{id}/conversation": "functions/api/groups/conversation.handler",
  "GET /api/groups/{id}/conversation/poll": "functions/api/groups/conversation-poll.handler",
  "POST /api/groups/{id}/conversation/append": "functions/api/groups/conversation-append.handler",
  "GET /api/pages": "functions/api/pages/list.handler",
  "POST /api/pages": "functions/api/pages/create.handler",
  "GET /api/pages/{id}": "functions/api/pages/get.handler",
  // PATCH and DELETE are both reached by POST with _method: one handler picks (change.ts)
  "PATCH /api/pages/{id}": "functions/api/pages/change.handler",
  "DELETE /api/pages/{id}": "functions/api/pages/change.handler",
  "POST /api/pages/{id}/permit": "functions/api/pages/permit.handler",
  "GET /api/pages/{id}/permissions": "functions/api/pages/permissions.handler",
  "GET /api/pages/{id}/keys": "functions/api/pages/keys.handler",
  "POST /api/pages/{id}/keys": "functions/api/pages/store-keys.handler",
  "POST /api/roles": "functions/api/roles/create.handler",
  "DELETE /api/roles/{id}": "functions/api/roles/delete.handler",
  "POST /api/roles/{id}/assign": "functions/api/roles/assign.handler",
  "POST /api/roles/{id}/unassign": "functions/api/roles/unassign.handler",
  // A group's drive (one area: drive)
  "GET /api/drive/{id}": "functions/api/drive/load.handler",
  "POST /api/drive/{id}": "functions/api/drive/create.handler",
  "PATCH /api/drive/{id}/update/{rid}": "functions/api/drive/update.handler",
  "DELETE /api/drive/{id}/destroy/{rid}": "functions/api/drive/destroy.handler",
  "POST /api/drive/{id}/files": "functions/api/drive/start-file.handler",
  "POST /api/drive/{id}/files/{fid}/complete": "functions/api/drive/complete-file.handler",
  "GET /api/drive/{id}/files/{fid}": "functions/api/drive/download-file.handler",
  // Its items' permissions (spec 001 §7 names them api/motes/{id}/…: the item by its numeric id)
  "GET /api/drive/items/{rid}/permissions": "functions/api/drive/permissions.handler",
  "POST /api/drive/items/{rid}/permit": "functions/api/drive/permit.handler",
  "GET /api/drive/items/{rid}/canI": "functions/api/drive/can-i.handler",
  // Records (motes) of pages and their comments (one area: motes; the literal paths before /{id})
  "POST /api/motes": "functions/api/motes/create.handler",
  "GET /api/motes": "functions/api/motes/list.handler",
  "PATCH /api/motes/multipatch": "functions/api/motes/multipatch.handler",
  "GET /api/motes/relationMotes": "functions/api/motes/relation-motes.handler",
  "GET /api/pages/best": "functions/api/motes/best-pages.handler",
  "POST /api/motes/files": "functions/api/motes/start-file.handler",
  "POST /api/motes/files/{fid}/complete": "functions/api/motes/complete-file.handler",
  "GET /api/motes/files/{fid}": "functions/api/motes/download-file.handler",
  "GET /api/motes/{id}": "functions/api/motes/get.handler",
  // PATCH and DELETE are both reached by POST with _method: one handler picks (change.ts)
  "PATCH /api/motes/{id}": "functions/api/motes/change.handler",
  "DELETE /api/motes/{id}": "functions/api/motes/change.handler",
  "GET /api/motes/{id}/canI": "functions/api/motes/can-i.handler",
  "POST /api/motes/{id}/comment": "functions/api/motes/comment.handler",
  "POST /api/motes/{id}/comment/delete": "functions/api/motes/delete-comment.handler",
  "POST /api/motes/{id}/comment/reseal": "functions/api/motes/reseal-comments.handler",
};

/**
 * One Lambda per area serves the API (stacks/api.ts), dispatching inside on the route key
 * (functions/dispatch.ts). A route's area is its handler's folder under functions/api/ (a file
 * directly there: its name), unless this map merges that folder into another area.
 */
const MERGED_AREAS: Record<string, string> = {
  health: "instance",
  attachments: "conversations",
  keypairs: "keys",
  backup: "keys",
  verification: "users",
  pickup: "pickups",
  pages: "groups",
  roles: "groups",
};

/** "functions/api/keypairs/get.handler" → "keys". */
export function areaOf(handler: string): string {
  const folder = /^functions\/api\/([a-z][a-z0-9-]*)[/.]/.exec(handler)?.[1];
  if (!folder) throw new Error(`${handler}: a route's handler lives under functions/api/ in a kebab-case folder or file`);
  return MERGED_AREAS[folder] ?? folder;
}

/**
 * The jobs: each kind (JobMessage's `type` in the core) has its own SQS queue, dead-letter queue
 * and worker Lambda (stacks/queues.ts, stacks/api.ts; locally packages/local). The queue's
 * visibility timeout is derived from the worker's timeout; `batchSize` is the most messages one
 * invocation gets.
 */
export interface JobWorker {
  handler: string;
  timeoutSeconds: number;
  batchSize: number;
}

export const workers = {
  // Email and text messages (Mail.deliver): one SES call each.
  mail: { handler: "functions/workers/mail.handler", timeoutSeconds: 30, batchSize: 10 },
  // A deleted or expired pickup's files: every object under its conversation's prefix.
  "purge-attachments": { handler: "functions/workers/purge-attachments.handler", timeoutSeconds: 120, batchSize: 5 },
  // Every pickup past its validity end (Pickup.sweep), sent by a schedule.
  "pickup-sweep": { handler: "functions/workers/pickup-sweep.handler", timeoutSeconds: 300, batchSize: 1 },
  // Uploads that no message, drive item or card took within their day: items and bytes (UploadSweep.run).
  "upload-sweep": { handler: "functions/workers/upload-sweep.handler", timeoutSeconds: 300, batchSize: 1 },
  // Marks the memberships of a user whose account key moved (each group's administrators then renew its key).
  "key-moved": { handler: "functions/workers/key-moved.handler", timeoutSeconds: 60, batchSize: 10 },
} as const satisfies Record<JobKind, JobWorker>;

/**
 * Jobs put on their kind's queue on a schedule: an EventBridge rule on AWS (stacks/queues.ts), a
 * timer in the local runtime. `job` is the message body the worker reads (JobMessage in the core).
 */
export const schedules = [
  // Expired pickups: their conversation, messages and files (Pickup.sweep).
  { name: "PickupSweep", everyMinutes: 60, job: { type: "pickup-sweep" } },
  // Unused uploads: their items and encrypted bytes (UploadSweep.run).
  { name: "UploadSweep", everyMinutes: 60, job: { type: "upload-sweep" } },
] as const satisfies ReadonlyArray<{ name: string; everyMinutes: number; job: { type: JobKind } }>;

export interface ServedRoute {
  key: RouteKey;
  method: HttpMethod;
  path: string;
  handler: string;
  /** The area whose Lambda serves it. */
  area: string;
}

/**
 * The routes as served: each contract's own method, plus "POST path" for routes that accept
 * the `_method` override, since API Gateway and the local router match on the real method.
 */
export function servedRoutes(): ServedRoute[] {
  const served: ServedRoute[] = [];
  const keys = new Set<string>();
  for (const key of Object.keys(routes) as RouteKey[]) {
    const { method, path } = splitRouteKey(key);
    served.push({ key, method, path, handler: routes[key], area: areaOf(routes[key]) });
    keys.add(`${method} ${path}`);
  }
  const overrides = new Map<string, string>();
  for (const key of Object.keys(routes) as RouteKey[]) {
    const contract = contracts[key] as { methodOverride?: boolean };
    if (!contract.methodOverride) continue;
    const { path } = splitRouteKey(key);
    const handler = routes[key];
    if (keys.has(`POST ${path}`)) throw new Error(`${key}: POST ${path} exists, so _method cannot be routed to it`);
    const earlier = overrides.get(path);
    if (earlier === undefined) served.push({ key, method: "POST", path, handler, area: areaOf(handler) });
    else if (earlier !== handler) throw new Error(`${key}: overridable methods of ${path} must share one handler`);
    overrides.set(path, handler);
  }
  return served;
}

/** "functions/api/users/login.handler" → ["functions/api/users/login", "handler"]. */
export function handlerModule(handler: string): { file: string; exportName: string } {
  const dot = handler.lastIndexOf(".");
  return { file: handler.slice(0, dot), exportName: handler.slice(dot + 1) };
}

/** The served routes grouped by area, areas in the table's order. */
export function routesByArea(served: ServedRoute[] = servedRoutes()): Map<string, ServedRoute[]> {
  const areas = new Map<string, ServedRoute[]>();
  for (const route of served) areas.set(route.area, [...(areas.get(route.area) ?? []), route]);
  return areas;
}
