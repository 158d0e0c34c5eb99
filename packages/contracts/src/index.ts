import { z } from "zod";
import { ADMINS, ANYONE, MEMBERS, PARTICIPANTS } from "./access";
import * as f from "./fields";
import { route, type RouteContract } from "./route";
import * as totp from "./totp";
import * as keys from "./keypairs"; // account keys and backups
import * as invites from "./invites"; // invitations
import * as convo from "./conversations"; // conversations
import * as files from "./attachments"; // conversation attachments
import * as pickups from "./pickups"; // pickups

export * from "./access";
export * from "./error-codes";
export * from "./fields";
export * from "./route";
export * from "./totp";
export * from "./keypairs"; // account keys and backups
export * from "./invites"; // invitations
export * from "./conversations"; // conversations
export * from "./attachments"; // conversation attachments
export * from "./pickups"; // pickups

const userId = z.object({ id: f.idParam });

const publicUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  hasAdminRole: z.boolean(),
  hasSuperAdminRole: z.boolean(),
  totp_enabled: z.boolean(),
  password_empty: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUser>;

const session = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  api_token: z.string(),
  hasAdminRole: z.boolean(),
  hasSuperAdminRole: z.boolean(),
  recoveryTOTP: z.boolean(),
});
export type Session = z.infer<typeof session>;

const instanceInfo = z.object({
  title: z.string(),
  name: z.string(),
  inEnv: z.enum(["production", "staging"]),
  idleTimeout: z.number(),
  indexChars: z.number(),
  disableSecurecode: z.boolean(),
  featureOff: z.object({ convo: z.boolean(), drive: z.boolean(), pages: z.boolean() }),
  disableFeatures: z.array(z.string()),
  needsSetup: z.boolean(),
});
export type InstanceInfo = z.infer<typeof instanceInfo>;

/** Every route of the API, by "METHOD /path". functions/routes.ts maps each to its handler. */
export const contracts = {
  "GET /api/health": route({
    access: ANYONE,
    response: z.object({
      status: z.enum(["ok", "degraded"]),
      table: z.string(),
      bucket: z.string(),
      queue: z.string(),
    }),
  }),
  "GET /api/instance": route({ access: ANYONE, response: instanceInfo }),
  "POST /api/instance/setup": route({
    access: ANYONE,
    body: z.object({ token: z.string().min(1).max(200), name: f.name, email: f.email, password: f.password }),
    response: session,
  }),
  "GET /api/instance/users": route({
    access: ADMINS,
    query: z.object({ singleuser: f.idParam.optional() }),
    response: z.object({ users: z.array(publicUser) }),
  }),
  "GET /api/users": route({
    access: ANYONE,
    // A contact (email or phone), or "#<id>" for one's own account.
    query: z.object({ lookup: z.string().trim().min(1).max(254) }),
    response: z.object({
      id: z.number(),
      recognition: z.string(),
      password_empty: z.boolean(),
      totp_enabled: z.boolean(),
    }),
  }),
  "POST /api/verification/register": route({
    access: ANYONE,
    body: z.object({ uid: z.number().int().min(1), contact: f.contact }),
    response: z.object({ no_expiry: z.boolean() }),
  }),
  "POST /api/users/register": route({
    access: ANYONE,
    body: z.object({ name: f.name, password: f.password, contact: f.contact, vericode: f.sixDigits }),
    response: session,
  }),
  "POST /api/users/{id}/login": route({
    access: ANYONE,
    params: userId,
    body: z.object({ password: z.string().min(1).max(1024), totp_auth: z.string().max(32).optional() }),
    response: session,
  }),
  "GET /api/users/{id}": route({ access: MEMBERS, params: userId, response: publicUser }),
  "PATCH /api/users/{id}": route({
    access: MEMBERS,
    methodOverride: true,
    params: userId,
    body: z
      .object({
        name: f.name.optional(),
        email: f.email.optional(),
        password: z
          .object({ old: z.string().max(1024).optional(), new: f.password })
          .nullable()
          .optional(),
      })
      .refine((b) => b.name !== undefined || b.email !== undefined || b.password, {
        message: "Nothing to change.",
      }),
    response: z.object({ reset: z.boolean(), user: publicUser }),
  }),

  // --- Two-factor login (TOTP), spec 000 §4, §7 ---------------------------------------------
  "POST /api/verification/totpSetup": route({
    access: MEMBERS,
    // {} starts a setup (a new pending secret); { totp_secret, totp_verify } finalizes it.
    body: z
      .object({ totp_secret: totp.totpSecret.optional(), totp_verify: f.sixDigits.optional() })
      .refine((b) => (b.totp_secret === undefined) === (b.totp_verify === undefined), {
        message: "Send totp_secret and totp_verify together to finalize, or neither to start.",
      }),
    response: z.union([z.object({ qr: z.string(), secret: z.string() }), z.object({ recovery: z.array(z.string()) })]),
  }),
  "POST /api/verification/totpDestroy": route({
    access: MEMBERS,
    body: z.object({ totp_auth: totp.totpAuth }),
    response: z.object({ totp_enabled: z.boolean() }),
  }),
  "POST /api/verification/totpDestroyAdmin": route({
    access: ADMINS,
    body: z.object({ uid: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
    response: z.object({ totp_enabled: z.boolean() }),
  }),
  // --- end of two-factor login ----------------------------------------------------------------

  // --- Account keys and backups, spec 000 §3, §5, §7 (packages/contracts/src/keypairs.ts) -----
  "GET /api/keypairs": route({
    access: MEMBERS,
    // Without fetch_only: the caller's own key state. With fetch_only=1&uid=: another user's.
    query: z
      .object({ fetch_only: z.enum(["1", "0"]).optional(), uid: f.idParam.optional() })
      .refine((q) => q.fetch_only !== "1" || q.uid !== undefined, { message: "fetch_only needs a uid.", path: ["uid"] }),
    response: z.union([
      z.object({
        keypair: keys.keypairView.nullable(),
        instance: instanceInfo.extend({ defaultSecurecode: z.string().nullable() }),
        schemas: z.array(z.unknown()),
        actions: z.array(z.unknown()),
        series: z.array(z.unknown()),
        now: z.number(),
      }),
      keys.keypairFetchOnly,
    ]),
  }),
  "POST /api/keypairs": route({ access: MEMBERS, body: keys.newKeypair, response: keys.keypairView }),
  "GET /api/keypairs/target": route({
    access: MEMBERS,
    query: z.object({ type: z.enum(["user", "group"]), id: f.idParam }),
    response: z.array(keys.keypairTarget),
  }),
  "GET /api/keypairs/{id}": route({ access: MEMBERS, params: z.object({ id: f.idParam }), response: keys.keypairPublic }),
  "POST /api/keypairs/{id}/recover": route({
    access: MEMBERS,
    params: z.object({ id: f.idParam }),
    response: z.object({ id: z.number(), recover: keys.envelopeObject }),
  }),
  "POST /api/backup/save": route({
    access: ANYONE,
    body: keys.backupSave,
    response: z.object({ filename: z.string(), expires: z.number() }),
  }),
  "POST /api/backup/load": route({ access: ANYONE, body: z.object({ filename: keys.backupFilename }), response: keys.backupEntry }),
  // --- end of account keys and backups --------------------------------------------------------

  // --- Invitations, spec 000 §2, §3, §4, §7 (packages/contracts/src/invites.ts) ---------------
  "POST /api/instance/invite": route({
    access: ADMINS,
    body: invites.newInvite,
    response: z.object({
      account: publicUser,
      keypair: z.object({ id: z.number(), type: keys.keypairType }),
      /** The invite that holds the transit key's validity: its id and expiry (seconds). */
      transit: z.object({ id: z.number(), expires_at: z.number() }),
      /** Always null: registration sends its own verification code. */
      vericode: z.null(),
    }),
  }),
  "GET /api/instance/invites": route({ access: ADMINS, response: z.object({ invites: z.array(invites.inviteView) }) }),
  "POST /api/instance/invites/{id}/resend": route({ access: ADMINS, params: z.object({ id: f.idParam }), response: invites.inviteView }),
  // --- end of invitations ---------------------------------------------------------------------

  // --- Conversations, spec 000 §3–§8 (packages/contracts/src/conversations.ts) ---------------
  "GET /api/users/{id}/conversations": route({ access: MEMBERS, params: userId, response: convo.conversationList }),
  "GET /api/notify/check": route({
    access: MEMBERS,
    query: z.object({ previous: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
    response: convo.notifyCheck,
    noContent: true,
  }),
  "POST /api/conversations/reserve": route({ access: MEMBERS, response: convo.conversationReservation }),
  "POST /api/conversations": route({ access: MEMBERS, body: convo.newConversation, response: convo.conversationView }),
  "GET /api/conversations/{id}": route({ access: PARTICIPANTS, params: convo.conversationParams, query: convo.loadQuery, response: convo.conversationPage }),
  "PATCH /api/conversations/{id}": route({
    access: MEMBERS,
    methodOverride: true,
    params: convo.conversationParams,
    body: z.object({ title: convo.aeadText(convo.TITLE_MAX) }),
    response: convo.conversationView,
  }),
  "GET /api/conversations/{id}/poll": route({
    access: PARTICIPANTS,
    params: convo.conversationParams,
    query: z.object({ largest: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
    response: z.object({ has_new: z.boolean() }),
  }),
  "POST /api/conversations/{id}/append": route({ access: PARTICIPANTS, params: convo.conversationParams, body: convo.appendBody, response: convo.appendResult }),
  "POST /api/conversations/{id}/participate": route({ access: MEMBERS, params: convo.conversationParams, body: convo.participateBody, response: convo.participantsResult }),
  "POST /api/conversations/{id}/unparticipate": route({
    access: MEMBERS,
    params: convo.conversationParams,
    body: z.object({ unparticipant: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
    response: convo.participantsResult,
  }),
  "POST /api/conversations/{id}/archive": route({ access: MEMBERS, params: convo.conversationParams, response: convo.archiveResult }),
  // Attachments (packages/contracts/src/attachments.ts)
  "GET /api/conversations/{id}/attachments": route({ access: PARTICIPANTS, params: convo.conversationParams, response: files.attachmentMotes }),
  "POST /api/conversations/{id}/attachments": route({ access: PARTICIPANTS, params: convo.conversationParams, body: files.newAttachment, response: files.attachmentUpload }),
  "POST /api/conversations/{id}/attachments/{aid}/complete": route({
    access: PARTICIPANTS,
    params: files.attachmentParams,
    body: files.completeAttachment,
    response: files.attachmentState,
  }),
  "GET /api/conversations/{id}/attachments/{aid}": route({ access: PARTICIPANTS, params: files.attachmentParams, query: files.attachmentQuery, response: files.attachmentUrl }),
  // --- end of conversations ------------------------------------------------------------------

  // --- Pickups, spec 000 §2–§9 (packages/contracts/src/pickups.ts) ---------------------------
  "POST /api/pickup": route({ access: MEMBERS, body: pickups.newPickup, response: pickups.pickupCreated }),
  "GET /api/pickup/{lookup}": route({
    access: ANYONE,
    params: pickups.pickupLookupParams,
    query: z.object({ meta: z.enum(["0", "1"]).optional() }),
    response: pickups.pickupMeta,
  }),
  "POST /api/pickup/recover/{lookup}": route({ access: ANYONE, params: pickups.pickupLookupParams, body: pickups.pickupRecoverBody, response: pickups.pickupRecovered }),
  /** Deletes a pickup (its author only) with its messages and files; ordinary conversations are archived instead. */
  "DELETE /api/conversations/{id}": route({ access: MEMBERS, params: convo.conversationParams, response: pickups.conversationDeleted }),
  // --- end of pickups -------------------------------------------------------------------------
} satisfies Record<string, RouteContract>;

export type Contracts = typeof contracts;
export type RouteKey = keyof Contracts;
export type Body<K extends RouteKey> = Contracts[K] extends { body: z.ZodType } ? z.input<Contracts[K]["body"]> : undefined;
export type Query<K extends RouteKey> = Contracts[K] extends { query: z.ZodType } ? z.input<Contracts[K]["query"]> : undefined;
export type Params<K extends RouteKey> = Contracts[K] extends { params: z.ZodType } ? z.input<Contracts[K]["params"]> : undefined;
export type Response<K extends RouteKey> = z.output<Contracts[K]["response"]>;
