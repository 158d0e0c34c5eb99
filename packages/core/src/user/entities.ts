import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { gsi1, keyed, now, primary, SERVICE } from "../db/schema";

// Accounts (packages/core/src/user): the account and its unique contacts.

export const UserEntity = new Entity({
  model: { entity: "user", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    name: { type: "string", required: true },
    email: { type: "string" },
    phone: { type: "string" },
    /** Argon2id, PHC-encoded. Absent while an invited account has not registered yet. */
    passwordHash: { type: "string" },
    admin: { type: "boolean", required: true, default: false },
    superAdmin: { type: "boolean", required: true, default: false },
    /** Raised by a password change or an admin reset; tokens carrying an older one are refused. */
    tokenVersion: { type: "number", required: true, default: 1 },
    totpEnabled: { type: "boolean", required: true, default: false },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    /** Created by an invitation: registering needs that invitation to be still valid. */
    invited: { type: "boolean" },
    /** Switched off by an administrator: no login, and its tokens are refused at once. */
    disabled: { type: "boolean" },
    // --- Two-factor login (packages/core/src/totp.ts). Server-side secrets: never logged, never
    // returned after setup. ---
    /** The active TOTP secret (base32, SHA-1, 6 digits, 30 s); set while totpEnabled. */
    totpSecret: { type: "string" },
    /** A secret handed out by a setup that has not been finalized yet, and when that was. */
    totpPendingSecret: { type: "string" },
    totpPendingAt: { type: "number" },
    /** The last accepted time step (epoch seconds / 30): a code of this step or older is refused. */
    totpLastStep: { type: "number" },
    /** Salted SHA-256 of each unused recovery code; one is removed when it is used. */
    totpRecoverySalt: { type: "string" },
    totpRecovery: { type: "set", items: "string" },
    // --- end of two-factor login ---
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
    all: keyed(gsi1, [], ["id"]),
  },
});


/** One item per email or phone number: makes contacts unique and finds the user behind one. */
export const ContactEntity = new Entity({
  model: { entity: "contact", version: "1", service: SERVICE },
  attributes: {
    contact: { type: "string", required: true },
    userId: { type: "number", required: true },
  },
  indexes: {
    byContact: keyed(primary, ["contact"], []),
  },
});




export type UserItem = EntityItem<typeof UserEntity>;

/** The user domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const userEntities = registerEntities({
  user: UserEntity,
  contact: ContactEntity,
});
