import { z } from "zod";
import { ADMINS, ANYONE, MEMBERS } from "./access";
import * as f from "./fields";
import { route, type RouteContract } from "./route";

export * from "./access";
export * from "./fields";
export * from "./route";

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
} satisfies Record<string, RouteContract>;

export type Contracts = typeof contracts;
export type RouteKey = keyof Contracts;
export type Body<K extends RouteKey> = Contracts[K] extends { body: z.ZodType } ? z.input<Contracts[K]["body"]> : undefined;
export type Query<K extends RouteKey> = Contracts[K] extends { query: z.ZodType } ? z.input<Contracts[K]["query"]> : undefined;
export type Params<K extends RouteKey> = Contracts[K] extends { params: z.ZodType } ? z.input<Contracts[K]["params"]> : undefined;
export type Response<K extends RouteKey> = z.output<Contracts[K]["response"]>;
