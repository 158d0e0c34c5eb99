/**
 * Conversations (spec 000 §3–§8; docs/api.md Conversations), as one namespace of verbs (see
 * index.ts). The server is blind (ARCHITECTURE §1): it keeps who takes part, each participant's
 * sealed copy of the conversation key, and the messages as `aead` envelopes it checks for shape
 * and size but cannot open. Who may do what: access.ts asks access/can.ts; unknown ids give
 * 404, other people's conversations 403.
 *
 * - access.ts: loading a conversation for an actor and action
 * - views.ts: what lists, the notification check and pages show
 * - messages.ts: loading, polling and appending messages
 * - participants.ts: adding, removing and administrating people
 * - lifecycle.ts: reserving, creating, renaming, archiving, purging
 * - membership.ts: the membership log, records and key copies of protocol v2 (log.ts: its checks)
 * - attachments.ts: the files of messages (the Attachment namespace)
 */
export { type Access, access, find, keysOf } from "./access";
export { archive, create, creation, type NewRecord, purge, rename, reserve, resealOwnKey } from "./lifecycle";
export { type LoadOptions, append, load, motesById, poll } from "./messages";
export { type Participate, participate, unparticipate } from "./participants";
export { appendLog, log } from "./membership";
export { check, describe, list } from "./views";
