import * as z from "zod";
import { MEMBERS, PARTICIPANTS } from "./access";
import { signedRecordObject } from "./identities";
import { route, type RouteContract } from "./route";
import { userId } from "./users";
import * as f from "./fields";

/**
 * Conversations (spec 000 §3–§8; docs/api.md Conversations). The server is blind: titles and
 * message payloads are `aead` envelopes under the conversation key, and each participant's copy
 * of that key is a `sealed` envelope for their X25519 key. Envelopes travel as their canonical
 * JSON text; the domain checks them in depth with @sealwork/crypto.
 *
 * Protocol v2 (docs/protocol.md §14.8): a conversation with a membership log. Its members change
 * only through signed log entries (POST …/log), each change with the conversation record its
 * author signs and the key copies each sealer signs; messages carry their sender's signature.
 * Signed records travel as JSON objects in the crypto package's shapes; the server checks their
 * shape and what follows from its own state, and every client verifies them.
 */

/** Messages per page of GET /api/conversations/{id}. */
export const MOTES_PAGE = 50;
/** One message's envelope text: text and small images; files go to the bucket (later). */
export const MOTE_PAYLOAD_MAX = 64 * 1024;
export const TITLE_MAX = 4096;
export const SEALED_MAX = 4096;
/** A client's id for a message it has not sent yet (spec 000 §4 Local message). */
export const LOCALID_MAX = 64;
export const RECIPIENTS_MAX = 100;
/** Files one message may attach. */
export const ATTACHMENTS_PER_MOTE = 10;
/**
 * People in a conversation with a log (protocol v2): every change writes the log, the record and
 * each participant's copy in one transaction, which holds at most 100 items.
 */
export const SIGNED_PARTICIPANTS_MAX = 90;
/** Log entries one request may append (creating or migrating a conversation: create, an add and a promote per person). */
export const LOG_APPEND_MAX = 2 * SIGNED_PARTICIPANTS_MAX;

const uid = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** An `aead` envelope as canonical JSON text. */
export const aeadText = (max: number) => z.string().min(1).max(max);
/** A `sealed` envelope (the conversation key for one participant) as canonical JSON text. */
export const sealedText = z.string().min(1).max(SEALED_MAX);
export const localid = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "A local id is 1 to 64 letters, digits, - or _.");
/** An identity key id (docs/protocol.md §14.2): base64url of 16 bytes. */
export const keyIdText = z.string().regex(/^[A-Za-z0-9_-]{22}$/, "A key id is 22 characters of base64url.");
/** A `record-signature` envelope's text. */
export const signatureText = z.string().min(1).max(256);
/** The membership log head a signed message names (its sender's verified log): seq and the entry's hash, 43 characters of base64url. */
export const messageLogHead = z.strictObject({ seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), hash: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "A log hash is 43 characters of base64url.") });

/** One participant's signed copy of the key (`SignedSealedKey`). */
export const signedCopy = z.object({ user_id: uid, copy: signedRecordObject });

export const conversationParams = z.object({ id: f.idParam });
const sequence = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** POST /api/conversations/reserve: a conversation id the caller may create for a while. */
export const conversationReservation = z.object({ id: z.number(), expires: z.number() });

export const newConversation = z.object({
  /** The id reserved by POST /api/conversations/reserve: the keys and title are bound to it. */
  id: uid,
  /** One user id (a one-to-one conversation) or several (a multi-person one). */
  recipient: z.union([uid, z.array(uid).min(1).max(RECIPIENTS_MAX)]),
  title: aeadText(TITLE_MAX).optional(),
  /** Protocol v1: the conversation key sealed for every participant, the author included. */
  sealed_keys: z
    .array(z.object({ user_id: uid, sealed: sealedText }))
    .min(2)
    .max(RECIPIENTS_MAX + 1)
    .optional(),
  /** Protocol v2: the membership log from `create` (the author) through an `add` for each recipient. */
  log: z.array(signedRecordObject).min(2).max(LOG_APPEND_MAX).optional(),
  /** Protocol v2: the conversation record for the log's head, signed by the author. */
  record: signedRecordObject.optional(),
  /** Protocol v2: the key copies, one per participant, signed by the author. */
  copies: z.array(signedCopy).min(2).max(SIGNED_PARTICIPANTS_MAX).optional(),
}).refine((b) => (b.sealed_keys !== undefined) !== (b.log !== undefined || b.record !== undefined || b.copies !== undefined), {
  message: "Send sealed_keys (protocol v1), or log, record and copies (protocol v2).",
  path: ["sealed_keys"],
}).refine((b) => b.sealed_keys !== undefined || (b.log !== undefined && b.record !== undefined && b.copies !== undefined), {
  message: "A signed conversation needs its log, its record and the copies.",
  path: ["record"],
});
export type NewConversation = z.infer<typeof newConversation>;

export const participantView = z.object({ user_id: z.number(), admin: z.boolean() });
export type ParticipantView = z.infer<typeof participantView>;

export const attribution = z.record(z.string(), z.object({ uid: z.number(), name: z.string() }));
export type Attribution = z.infer<typeof attribution>;

export const conversationView = z.object({
  id: z.number(),
  /** `aead` envelope text, or null when untitled. */
  title: z.string().nullable(),
  author_id: z.number(),
  /** The first recipient (0 means a pickup). */
  recipient_id: z.number(),
  /** For a one-to-one conversation the participant who is not the caller, else null. */
  other_id: z.number().nullable(),
  participants: z.array(participantView),
  multiple: z.boolean(),
  /** Seconds: creation, or the last message. */
  timestamp: z.number(),
  /** The newest message's id (0 before the first). */
  last_mote: z.number(),
  unread: z.boolean(),
  attachlist: z.array(z.unknown()),
  /** The conversation key sealed for the caller, so lists can show the encrypted titles. */
  sealed: z.string().nullable(),
  /** 2: the conversation has a membership log (its members, records, copies and messages are signed); 1: not yet. */
  protocol: z.union([z.literal(1), z.literal(2)]),
  /** The key's epoch (0 until a member is removed or leaves); `sealed` and `title` are under this epoch's key. */
  epoch: z.number(),
});
export type ConversationView = z.infer<typeof conversationView>;

export const moteView = z.object({
  id: z.number(),
  source_id: z.number(),
  /** Seconds. */
  timestamp: z.number(),
  /** `aead` envelope text. */
  payload: z.string(),
  localid: z.string().nullable(),
  /** Protocol v2: the epoch of the key it is sealed under (null: a message from before the log). */
  epoch: z.number().nullable(),
  /** Protocol v2: the sender's signature (`record-signature` text) and key id; null for a guest's or an older message. */
  signature: z.string().nullable(),
  sender_key_id: z.string().nullable(),
  /** Protocol v2: the log head its sender signed with it (absent in messages signed before heads were exchanged). */
  log_head: messageLogHead.optional(),
});
export type MoteView = z.infer<typeof moteView>;

export const conversationList = z.object({
  conversations: z.array(conversationView),
  attribution,
  /** The caller's pickups (pickupView in ./pickups), keyed by conversation id. */
  pickups: z.record(z.string(), z.unknown()),
  /** Seconds, keyed by conversation id. */
  last_visits: z.record(z.string(), z.number()),
  /** Unseen messages, keyed by conversation id (only conversations with some). */
  outstanding: z.record(z.string(), z.number()),
});

export const conversationPage = z.object({
  /** Oldest first. */
  motes: z.array(moteView),
  /** Whether there are more messages beyond this page (older; newer with `after`). */
  more: z.boolean(),
  meta: conversationView.nullable(),
  participants: z.array(participantView),
  attrib: attribution,
  /** The conversation key sealed for the caller; for a pickup's guest, the `pickup-wrap` envelope. */
  sealed: z.string(),
  /** As in the conversation view: 2 when there is a membership log, and the current epoch. */
  protocol: z.union([z.literal(1), z.literal(2)]),
  epoch: z.number(),
  /** A member was removed or left: nobody writes until an admin starts the next epoch (POST …/log with a rekey). */
  needs_rekey: z.boolean(),
});

export const loadQuery = z.object({
  before: sequence.optional(),
  after: sequence.optional(),
  meta: z.enum(["0", "1"]).optional(),
});

export const appendBody = z.object({
  localid,
  payload: aeadText(MOTE_PAYLOAD_MAX),
  /** Uploaded attachments (POST …/attachments, then …/complete) this message carries. */
  attachments: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).min(1).max(ATTACHMENTS_PER_MOTE).optional(),
  /** Protocol v2 (a member's message in a conversation with a log): the epoch it is sealed for, the sender's signature and key id. */
  epoch: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  signature: signatureText.optional(),
  sender_key_id: keyIdText.optional(),
  /** With a signature: the membership log head the sender verified, which the signature covers. */
  log_head: messageLogHead.optional(),
}).refine((b) => [b.epoch, b.signature, b.sender_key_id].every((v) => v === undefined) || [b.epoch, b.signature, b.sender_key_id].every((v) => v !== undefined), {
  message: "A signed message has its epoch, signature and sender key id.",
  path: ["signature"],
}).refine((b) => b.log_head === undefined || b.signature !== undefined, { message: "Only a signed message names a log head.", path: ["log_head"] });
export const appendResult = z.object({
  mote: moteView,
  /** The id of the message before this one (0 for the first): in order if the client had it. */
  previous_mote: z.number(),
  localid: z.string(),
});

export const participateBody = z
  .object({
    participant: uid,
    /** The conversation key sealed for the new participant (when adding). */
    sealed: sealedText.optional(),
    admin: z.literal(true).optional(),
    unadmin: z.literal(true).optional(),
  })
  .refine((b) => !(b.admin && b.unadmin), { message: "Send admin or unadmin, not both." })
  .refine((b) => b.admin || b.unadmin || b.sealed !== undefined, { message: "Adding a person needs their sealed key.", path: ["sealed"] });

/** POST /api/conversations/{id}/key: one's own copy of a version 1 conversation's key, sealed for the key one renewed to. */
export const ownKeyBody = z.object({ sealed: sealedText });

/** GET /api/users/{id}/conversations?archived=1: archived conversations too (a renewal of one's key carries them all). */
export const conversationListQuery = z.object({ archived: z.enum(["1"]).optional() });

/** POST /api/conversations/{id}/archive: hidden from the caller's lists until a newer message. */
export const archiveResult = z.object({ archived: z.boolean() });

export const participantsResult = z.object({ participants: z.array(participantView), attrib: attribution });

export const notifyCheck = z.object({
  /** Milliseconds: the highest activity seen; pass it back as `previous`. */
  new_highest: z.number(),
  /** The caller's conversations with activity after `previous`. */
  conversations: z.array(conversationView),
  pickups: z.record(z.string(), z.unknown()),
  last_visits: z.record(z.string(), z.number()),
});

/** PATCH /api/conversations/{id}: a new title (an `aead` envelope). */
export const renameBody = z.object({ title: aeadText(TITLE_MAX) });
export const unparticipateBody = z.object({ unparticipant: uid });


/** Conversations, spec 000 §3–§8: the routes, by "METHOD /path" (merged in index.ts). */
export const conversationRoutes = {
  "GET /api/users/{id}/conversations": route({ access: MEMBERS, params: userId, query: conversationListQuery, response: conversationList }),
  "GET /api/notify/check": route({
    access: MEMBERS,
    query: z.object({ previous: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
    response: notifyCheck,
    noContent: true,
  }),
  "POST /api/conversations/reserve": route({ access: MEMBERS, response: conversationReservation }),
  "POST /api/conversations": route({ access: MEMBERS, body: newConversation, response: conversationView }),
  "GET /api/conversations/{id}": route({ access: PARTICIPANTS, params: conversationParams, query: loadQuery, response: conversationPage }),
  "PATCH /api/conversations/{id}": route({
    access: MEMBERS,
    methodOverride: true,
    params: conversationParams,
    body: renameBody,
    response: conversationView,
  }),
  "GET /api/conversations/{id}/poll": route({
    access: PARTICIPANTS,
    params: conversationParams,
    query: z.object({ largest: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
    // log_seq: a signed conversation's membership log head (absent without a log), so that an open
    // tab sees a change of its people or admins that came with no message.
    response: z.object({ has_new: z.boolean(), log_seq: z.number().int().min(0).optional() }),
  }),
  "POST /api/conversations/{id}/append": route({ access: PARTICIPANTS, params: conversationParams, body: appendBody, response: appendResult }),
  "POST /api/conversations/{id}/participate": route({ access: MEMBERS, params: conversationParams, body: participateBody, response: participantsResult }),
  "POST /api/conversations/{id}/unparticipate": route({
    access: MEMBERS,
    params: conversationParams,
    body: unparticipateBody,
    response: participantsResult,
  }),
  "POST /api/conversations/{id}/archive": route({ access: MEMBERS, params: conversationParams, response: archiveResult }),
  "POST /api/conversations/{id}/key": route({ access: MEMBERS, params: conversationParams, body: ownKeyBody, response: z.object({ resealed: z.literal(true) }) }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const conversationErrorCodes = ["conversation_not_found", "conversation_forbidden", "conversation_no_shared_group", "reservation_invalid", "user_not_found", "participants_invalid", "sealed_key_invalid", "title_invalid", "mote_payload_invalid", "add_forbidden", "remove_forbidden", "administrate_forbidden", "add_not_author", "participant_exists", "participant_missing", "remove_self", "remove_author", "unadmin_self", "unadmin_author", "log_conflict", "log_invalid", "log_required", "record_invalid", "copies_invalid", "link_invalid", "rekey_pending", "epoch_stale", "message_signature_invalid", "sealed_key_signed"] as const;
