import { Entity, Service, type EntityItem } from "electrodb";
import { config } from "../config";
import { dynamo } from "./client";
import { TABLE } from "./table";

/**
 * Every item kind in the one table. Keys are composed here and only here (ElectroDB builds
 * them from the composite attributes); index names and key fields come from TABLE.
 */
const SERVICE = "sealwork";
const primary = { pk: { field: TABLE.partitionKey }, sk: { field: TABLE.sortKey } } as const;
const gsi1 = { index: "gsi1", pk: { field: TABLE.indexes.gsi1.partitionKey }, sk: { field: TABLE.indexes.gsi1.sortKey } } as const;

const ttl = { type: "number", field: TABLE.ttlAttribute } as const;
const now = () => Math.floor(Date.now() / 1000);

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
    byId: { ...primary, pk: { ...primary.pk, composite: ["id"] }, sk: { ...primary.sk, composite: [] } },
    all: { ...gsi1, pk: { ...gsi1.pk, composite: [] }, sk: { ...gsi1.sk, composite: ["id"] } },
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
    byContact: { ...primary, pk: { ...primary.pk, composite: ["contact"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** Monotonic counters (user ids, later conversation and mote ids). */
export const CounterEntity = new Entity({
  model: { entity: "counter", version: "1", service: SERVICE },
  attributes: {
    name: { type: "string", required: true },
    value: { type: "number" },
  },
  indexes: {
    byName: { ...primary, pk: { ...primary.pk, composite: ["name"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** A sliding window of failed attempts for one scope and key (login per user, per client). */
export const AttemptEntity = new Entity({
  model: { entity: "attempt", version: "1", service: SERVICE },
  attributes: {
    scope: { type: "string", required: true },
    key: { type: "string", required: true },
    count: { type: "number", required: true },
    expiresAt: ttl,
  },
  indexes: {
    byKey: { ...primary, pk: { ...primary.pk, composite: ["scope", "key"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** A pending 6-digit verification code for registering an invited account. */
export const VerificationEntity = new Entity({
  model: { entity: "verification", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    purpose: { type: "string", required: true },
    contact: { type: "string", required: true },
    codeHash: { type: "string", required: true },
    failures: { type: "number", required: true, default: 0 },
    expiresAt: ttl,
  },
  indexes: {
    byUser: { ...primary, pk: { ...primary.pk, composite: ["userId"] }, sk: { ...primary.sk, composite: ["purpose"] } },
  },
});

// --- Account keys and backups (packages/core/src/keypair.ts) ------------------------------------

/**
 * One registered account key: public halves, the owner's signature over them and the
 * secure-code-wrap backup (ciphertext; the server never has the code or the private keys).
 * Envelopes are stored as their canonical JSON text. Whether a key is current is not stored
 * here but in the owner's KeyHead, so replacing a key is one conditional write.
 */
export const KeypairEntity = new Entity({
  model: { entity: "keypair", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    userId: { type: "number", required: true },
    type: { type: ["public", "temp"] as const, required: true, default: "public" },
    /** Server time (seconds) when the key was registered. */
    sentinel: { type: "number", required: true },
    /** Client time (seconds) at creation, inside the signed record. */
    timestamp: { type: "number", required: true },
    encryptPublic: { type: "string", required: true },
    signPublic: { type: "string", required: true },
    signature: { type: "string", required: true },
    backup: { type: "string" },
  },
  indexes: {
    byId: { ...primary, pk: { ...primary.pk, composite: ["id"] }, sk: { ...primary.sk, composite: [] } },
    byUser: { ...gsi1, pk: { ...gsi1.pk, composite: ["userId"] }, sk: { ...gsi1.sk, composite: ["id"] } },
  },
});

/** Which key is a user's current one; the condition on keyId is what stops two tabs racing. */
export const KeyHeadEntity = new Entity({
  model: { entity: "keyhead", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    keyId: { type: "number", required: true },
    /** False when the current key was invalidated (the owner must make a new one). */
    valid: { type: "boolean", required: true, default: true },
    updatedAt: { type: "number", required: true, default: now },
  },
  indexes: {
    byUser: { ...primary, pk: { ...primary.pk, composite: ["userId"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** The unauthenticated backup store (pickups, invitations): found by a name digest, expiring. */
export const BackupEntity = new Entity({
  model: { entity: "backup", version: "1", service: SERVICE },
  attributes: {
    name: { type: "string", required: true },
    contents: { type: "string", required: true },
    signature: { type: "string" },
    apiMessage: { type: "string" },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    expiresAt: { ...ttl, required: true },
  },
  indexes: {
    byName: { ...primary, pk: { ...primary.pk, composite: ["name"] }, sk: { ...primary.sk, composite: [] } },
  },
});

// --- end of account keys and backups ---------------------------------------------------------

/**
 * An invitation (packages/core/src/invite.ts): one per invited account, keyed by the account.
 * `validUntil` is the 30-day validity that resending renews; the TTL (`purgeAt`) removes the item
 * 90 days after that, so expired invitations stay listable and resendable for a while.
 */
export const InviteEntity = new Entity({
  model: { entity: "invite", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    userId: { type: "number", required: true },
    invitedBy: { type: "number", required: true },
    createdAt: { type: "number", required: true, default: now },
    validUntil: { type: "number", required: true },
    acceptedAt: { type: "number" },
    /** The administrator's note to the invitee, as typed (sent in the email). */
    message: { type: "string" },
    purgeAt: { ...ttl, required: true },
  },
  indexes: {
    byUser: { ...primary, pk: { ...primary.pk, composite: ["userId"] }, sk: { ...primary.sk, composite: [] } },
    all: { ...gsi1, pk: { ...gsi1.pk, composite: [] }, sk: { ...gsi1.sk, composite: ["id"] } },
  },
});

// --- Conversations (packages/core/src/conversation.ts) ----------------------------------------

/**
 * A conversation: routing metadata only. The title is an `aead` envelope under the conversation
 * key (the server cannot read it). `lastMoteId`, `timestamp` and `activity` follow the newest
 * message (best effort, see Conversation.append) for ordering, unread and the notification poll.
 */
export const ConversationEntity = new Entity({
  model: { entity: "conversation", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    authorId: { type: "number", required: true },
    /** The first recipient; 0 will mean a pickup. */
    recipientId: { type: "number", required: true },
    title: { type: "string" },
    multiple: { type: "boolean", required: true, default: false },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    lastMoteId: { type: "number", required: true, default: 0 },
    /** Seconds: creation or the newest message. */
    timestamp: { type: "number", required: true },
    /** Milliseconds: the last change a participant should hear of (creation, message, added person). */
    activity: { type: "number", required: true },
  },
  indexes: {
    byId: { ...primary, pk: { ...primary.pk, composite: ["id"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/**
 * One participant of a conversation, with the conversation key sealed for them (a `sealed`
 * envelope: adding a participant wraps the key once more). gsi1 lists a user's conversations.
 */
export const ParticipantEntity = new Entity({
  model: { entity: "participant", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    userId: { type: "number", required: true },
    admin: { type: "boolean", required: true, default: false },
    sealedKey: { type: "string", required: true },
    /** Milliseconds, when they were added (the notification poll's news for them). */
    joinedAt: { type: "number", required: true },
    /** Seconds; 0 before the first visit. */
    lastVisit: { type: "number", required: true, default: 0 },
    /** The newest message id they have loaded. */
    lastSeenMote: { type: "number", required: true, default: 0 },
    archived: { type: "boolean", required: true, default: false },
  },
  indexes: {
    byConversation: { ...primary, pk: { ...primary.pk, composite: ["conversationId"] }, sk: { ...primary.sk, composite: ["userId"] } },
    byUser: { ...gsi1, pk: { ...gsi1.pk, composite: ["userId"] }, sk: { ...gsi1.sk, composite: ["conversationId"] } },
  },
});

/** A message (mote) of a conversation; ids are per conversation, ascending (zero-padded in the key). */
export const MoteEntity = new Entity({
  model: { entity: "mote", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    id: { type: "number", required: true, padding: { length: 16, char: "0" } },
    sourceId: { type: "number", required: true },
    /** Seconds. */
    timestamp: { type: "number", required: true },
    /** `aead` envelope text: ciphertext only. */
    payload: { type: "string", required: true },
    localid: { type: "string" },
  },
  indexes: {
    byConversation: { ...primary, pk: { ...primary.pk, composite: ["conversationId"] }, sk: { ...primary.sk, composite: ["id"] } },
  },
});

/**
 * A conversation id handed out before the conversation exists, so that the client can bind its
 * keys and title to the id (docs/protocol.md, Conversations). Creating the conversation (or a
 * pickup) consumes it in the same transaction, only for the user it was handed to.
 */
export const ReservationEntity = new Entity({
  model: { entity: "reservation", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    userId: { type: "number", required: true },
    expiresAt: { ...ttl, required: true },
  },
  indexes: {
    byConversation: { ...primary, pk: { ...primary.pk, composite: ["conversationId"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** Which message a user's local id became: created with the message, create-only, so a retry cannot store it twice. */
export const LocalIdEntity = new Entity({
  model: { entity: "localid", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    userId: { type: "number", required: true },
    localid: { type: "string", required: true },
    moteId: { type: "number", required: true },
  },
  indexes: {
    byLocalId: { ...primary, pk: { ...primary.pk, composite: ["conversationId", "userId", "localid"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/**
 * A file attached to a conversation message: the bucket holds its encrypted bytes (and an
 * encrypted thumbnail) under attachmentObjectKey (storage.ts). Created pending with a TTL when the
 * upload starts, `uploaded` once the bucket has every byte, `attached` (TTL removed) when a
 * message takes it; only attached files can be downloaded.
 */
export const AttachmentEntity = new Entity({
  model: { entity: "attachment", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    id: { type: "number", required: true, padding: { length: 16, char: "0" } },
    sourceId: { type: "number", required: true },
    /** Encrypted bytes of the file and of its thumbnail (0: none). */
    size: { type: "number", required: true },
    thumbSize: { type: "number", required: true, default: 0 },
    state: { type: ["pending", "uploaded", "attached"] as const, required: true },
    /** The S3 multipart upload, for files larger than one part. */
    uploadId: { type: "string" },
    moteId: { type: "number" },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    expiresAt: ttl,
  },
  indexes: {
    byConversation: { ...primary, pk: { ...primary.pk, composite: ["conversationId"] }, sk: { ...primary.sk, composite: ["id"] } },
  },
});

/**
 * A pickup (packages/core/src/pickup.ts): a conversation (recipient 0) with an outside guest.
 * Keyed by the conversation. Never holds the pickup code, the security code or the link: only
 * the lookup hash, SHA-256 of the guest's auth key (`verifier`) and counters. `expireAt` is the
 * validity end (reads treat the pickup as gone after it); the TTL (`purgeAt`) is a week later,
 * so that the sweep (Pickup.sweep) finds it first and removes the conversation and files too.
 * gsi1 orders all pickups by validity end for that sweep.
 */
export const PickupEntity = new Entity({
  model: { entity: "pickup", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    lookup: { type: "string", required: true },
    authorId: { type: "number", required: true },
    /** Where the invitation went (the creator's list shows it). */
    email: { type: "string", required: true },
    verifier: { type: "string", required: true },
    /** Wrong auth keys so far; the pickup is locked for good at PICKUP_MAX_WRONG. */
    failures: { type: "number", required: true, default: 0 },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    /** Seconds. */
    expireAt: { type: "number", required: true, padding: { length: 12, char: "0" } },
    /** Seconds: the first successful recovery. */
    redeemedAt: { type: "number" },
    purgeAt: { ...ttl, required: true },
  },
  indexes: {
    byConversation: { ...primary, pk: { ...primary.pk, composite: ["conversationId"] }, sk: { ...primary.sk, composite: [] } },
    byExpiry: { ...gsi1, pk: { ...gsi1.pk, composite: [] }, sk: { ...gsi1.sk, composite: ["expireAt", "conversationId"] } },
  },
});

/** The unique lookup hash of a pickup → its conversation (create-only, so a hash is used once). */
export const PickupLookupEntity = new Entity({
  model: { entity: "pickuplookup", version: "1", service: SERVICE },
  attributes: {
    lookup: { type: "string", required: true },
    conversationId: { type: "number", required: true },
    purgeAt: { ...ttl, required: true },
  },
  indexes: {
    byLookup: { ...primary, pk: { ...primary.pk, composite: ["lookup"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** Placeholder for group membership until groups exist: enough for "must share a group". */
export const GroupMembershipEntity = new Entity({
  model: { entity: "groupmember", version: "1", service: SERVICE },
  attributes: {
    groupId: { type: "number", required: true },
    userId: { type: "number", required: true },
  },
  indexes: {
    byGroup: { ...primary, pk: { ...primary.pk, composite: ["groupId"] }, sk: { ...primary.sk, composite: ["userId"] } },
    byUser: { ...gsi1, pk: { ...gsi1.pk, composite: ["userId"] }, sk: { ...gsi1.sk, composite: ["groupId"] } },
  },
});

// --- end of conversations ----------------------------------------------------------------------

const entities = {
  user: UserEntity,
  contact: ContactEntity,
  counter: CounterEntity,
  attempt: AttemptEntity,
  verification: VerificationEntity,
  keypair: KeypairEntity, // account keys
  keyhead: KeyHeadEntity, // account keys
  backup: BackupEntity, // account keys
  invite: InviteEntity, // invitations
  conversation: ConversationEntity, // conversations
  reservation: ReservationEntity, // conversations
  participant: ParticipantEntity, // conversations
  mote: MoteEntity, // conversations
  localid: LocalIdEntity, // conversations
  attachment: AttachmentEntity, // conversations: files
  groupmember: GroupMembershipEntity, // conversations (placeholder for groups)
  pickup: PickupEntity, // pickups
  pickuplookup: PickupLookupEntity, // pickups
};

let service: Service<typeof entities> | undefined;

/** The entities bound to the configured table and client (resolved on first use). */
export function db(): Service<typeof entities> {
  if (service) return service;
  service = new Service(entities, { table: config().TABLE_NAME, client: dynamo() });
  return service;
}

/** The entities as a transaction's callback receives them (to build items for its list). */
export type TransactionEntities = Parameters<Parameters<Service<typeof entities>["transaction"]["write"]>[0]>[0];

export type UserItem = EntityItem<typeof UserEntity>;
export type KeypairItem = EntityItem<typeof KeypairEntity>; // account keys
export type InviteItem = EntityItem<typeof InviteEntity>; // invitations
export type ConversationItem = EntityItem<typeof ConversationEntity>; // conversations
export type ParticipantItem = EntityItem<typeof ParticipantEntity>; // conversations
export type MoteItem = EntityItem<typeof MoteEntity>; // conversations
export type PickupItem = EntityItem<typeof PickupEntity>; // pickups
export type AttachmentItem = EntityItem<typeof AttachmentEntity>; // conversations: files
