import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { gsi1, keyed, now, primary, SERVICE, ttl } from "../db/schema";

/**
 * A conversation: routing metadata only. The title is an `aead` envelope under the conversation
 * key (the server cannot read it). The item also carries what lists and the notification check
 * need, so that they read one item per conversation (a batch read) and never its messages or
 * participants: who takes part (`members`, kept with the participant items in their
 * transactions), the message counter and who sent the newest messages (messages.ts, append).
 */
export const ConversationEntity = new Entity({
  model: { entity: "conversation", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    authorId: { type: "number", required: true },
    /** The first recipient; 0 means a pickup. */
    recipientId: { type: "number", required: true },
    title: { type: "string" },
    multiple: { type: "boolean", required: true, default: false },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    /** The message counter: the newest message id handed out (its message may still be committing). */
    lastMoteId: { type: "number", required: true, default: 0 },
    /** Who was handed `lastMoteId`. */
    lastSourceId: { type: "number" },
    /** The newest message id handed out to anyone but `lastSourceId` (0: none). */
    lastOtherMoteId: { type: "number", required: true, default: 0 },
    /** The participants and their admin flags (absent on conversations older than this field: read the participants then). */
    members: {
      type: "list",
      items: { type: "map", properties: { u: { type: "number", required: true }, a: { type: "boolean", required: true } } },
    },
    /** Raised by every change of `members`: the condition that keeps two changes from losing one. */
    membersVersion: { type: "number", required: true, default: 0 },
    /** Seconds: creation or the newest message. */
    timestamp: { type: "number", required: true },
    /** Milliseconds: the last change a participant should hear of (creation, message, added person). */
    activity: { type: "number", required: true },
    /**
     * Protocol v2: the membership log's head (its last entry's seq and entryHash; absent: a
     * conversation without a log). Every append is conditional on `logSeq`, so of two appends
     * at the same seq exactly one is stored.
     */
    logSeq: { type: "number" },
    logHash: { type: "string" },
    /** The key's epoch (0 until a rekey); messages are appended for this epoch only. */
    epoch: { type: "number", required: true, default: 0 },
    /** A member was removed or left since the last rekey: nobody appends until an admin starts the next epoch. */
    needsRekey: { type: "boolean", required: true, default: false },
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
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
    /** Protocol v2: their signed copy (`SignedSealedKey` as JSON) of the current epoch's key, whose `sealed` is `sealedKey`. */
    copy: { type: "string" },
    /** Milliseconds, when they were added (the notification poll's news for them). */
    joinedAt: { type: "number", required: true },
    /** Seconds; 0 before the first visit. */
    lastVisit: { type: "number", required: true, default: 0 },
    /** The newest message id they have loaded. */
    lastSeenMote: { type: "number", required: true, default: 0 },
    archived: { type: "boolean", required: true, default: false },
  },
  indexes: {
    byConversation: keyed(primary, ["conversationId"], ["userId"]),
    byUser: keyed(gsi1, ["userId"], ["conversationId"]),
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
    /** Protocol v2: the epoch it is sealed for, and its sender's signature and key id (not for a guest's). */
    epoch: { type: "number" },
    signature: { type: "string" },
    senderKeyId: { type: "string" },
    /** The membership log head its sender signed with it (seq and hash), when it names one. */
    headSeq: { type: "number" },
    headHash: { type: "string" },
  },
  indexes: {
    byConversation: keyed(primary, ["conversationId"], ["id"]),
  },
});


/**
 * Part of a conversation's membership log (protocol v2): the entries one request appended, from
 * seq `first` on, as the JSON list of `SignedMembershipEntry`. Create-only, in the transaction
 * that moves the conversation's `logSeq` from the seq before.
 */
export const LogEntriesEntity = new Entity({
  model: { entity: "logentries", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    first: { type: "number", required: true, padding: { length: 10, char: "0" } },
    count: { type: "number", required: true },
    entries: { type: "string", required: true },
  },
  indexes: {
    byConversation: keyed(primary, ["conversationId"], ["first"]),
  },
});

/**
 * One epoch of a conversation's key (protocol v2): its newest conversation record (absent while a
 * rekey is pending: nobody signed one for the state after a removal) and, from epoch 1, the link
 * that carries the previous epoch's key (an `aead` envelope under this epoch's key).
 */
export const EpochEntity = new Entity({
  model: { entity: "conversationepoch", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    epoch: { type: "number", required: true, padding: { length: 10, char: "0" } },
    record: { type: "string" },
    link: { type: "string" },
  },
  indexes: {
    byConversation: keyed(primary, ["conversationId"], ["epoch"]),
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
    byLocalId: keyed(primary, ["conversationId", "userId", "localid"], []),
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
    byConversation: keyed(primary, ["conversationId"], []),
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
    byConversation: keyed(primary, ["conversationId"], ["id"]),
  },
});


/**
 * What a deleted conversation leaves behind (Conversation.purge: a removed or swept pickup), for
 * a few months (TTL): its id answers "deleted" while this is there, where an id that never had a
 * conversation answers "not found".
 */
export const ConversationGoneEntity = new Entity({
  model: { entity: "conversationgone", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    deletedAt: { type: "number", required: true },
    purgeAt: { ...ttl, required: true },
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
  },
});

export type ConversationItem = EntityItem<typeof ConversationEntity>;
export type EpochItem = EntityItem<typeof EpochEntity>;
export type ParticipantItem = EntityItem<typeof ParticipantEntity>;
export type MoteItem = EntityItem<typeof MoteEntity>;
export type AttachmentItem = EntityItem<typeof AttachmentEntity>;

/** The conversation domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const conversationEntities = registerEntities({
  conversation: ConversationEntity,
  reservation: ReservationEntity,
  participant: ParticipantEntity,
  mote: MoteEntity,
  localid: LocalIdEntity,
  attachment: AttachmentEntity,
  conversationgone: ConversationGoneEntity,
  logentries: LogEntriesEntity,
  conversationepoch: EpochEntity,
});
