import * as z from "zod";
import { ANYONE, MEMBERS } from "./access";
import * as f from "./fields";
import { route, type RouteContract } from "./route";

/** Accounts (spec 000 §2, §5, §7): who people are to each other and to the login. */

export const userId = z.object({ id: f.idParam });

export const publicUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  hasAdminRole: z.boolean(),
  hasSuperAdminRole: z.boolean(),
  totp_enabled: z.boolean(),
  password_empty: z.boolean(),
  /** Switched off by an administrator (POST /api/instance/users/{id}/disable). */
  disabled: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUser>;

export const session = z.object({
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

/** POST /api/verification/register: a registration code for an invited account's contact. */
export const verificationRequest = z.object({ uid: f.id, contact: f.contact });
/** POST /api/users/register: an invited account's name and first password, with the code. */
export const registration = z.object({ name: f.name, password: f.password, contact: f.contact, vericode: f.sixDigits });
/**
 * POST /api/users/reset: a forgotten password replaced with the code from POST
 * /api/verification/forgot (same body as /api/verification/register). With 2FA on, `totp_auth`
 * (a code or a recovery code) is needed too.
 */
export const passwordReset = z.object({ contact: f.contact, vericode: f.sixDigits, password: f.password, totp_auth: z.string().max(32).optional() });
export const loginBody = z.object({ password: z.string().min(1).max(1024), totp_auth: z.string().max(32).optional() });
/** PATCH /api/users/{id}: settings (one's own) and administration (another's). */
export const userChanges = z
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
  });
export type UserChanges = z.infer<typeof userChanges>;

/** Accounts: lookup, registration, login, settings: the routes, by "METHOD /path" (merged in index.ts). */
export const userRoutes = {
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
    body: verificationRequest,
    response: z.object({ no_expiry: z.boolean() }),
  }),
  "POST /api/users/register": route({
    access: ANYONE,
    body: registration,
    response: session,
  }),
  /**
   * A forgotten password, step one: a 6-digit code to the contact if it is the account's (and the
   * account has a password and is not disabled). The answer is the same either way.
   */
  "POST /api/verification/forgot": route({
    access: ANYONE,
    body: verificationRequest,
    response: z.object({ accepted: z.literal(true) }),
  }),
  /** Step two: the code and a new password; answers a session like a login. Older tokens stop. */
  "POST /api/users/reset": route({
    access: ANYONE,
    body: passwordReset,
    response: session,
  }),
  "POST /api/users/{id}/login": route({
    access: ANYONE,
    params: userId,
    body: loginBody,
    response: session,
  }),
  "GET /api/users/{id}": route({ access: MEMBERS, params: userId, response: publicUser }),
  "PATCH /api/users/{id}": route({
    access: MEMBERS,
    methodOverride: true,
    params: userId,
    body: userChanges,
    response: z.object({ reset: z.boolean(), user: publicUser }),
  }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const userErrorCodes = ["contact_unknown", "password_incorrect", "password_or_totp_incorrect", "vericode_incorrect", "registration_invalid", "already_registered", "old_password_incorrect", "contact_taken", "email_change_forbidden", "verification_limit", "account_disabled", "disable_self"] as const;
