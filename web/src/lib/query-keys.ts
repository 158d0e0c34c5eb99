/**
 * Every TanStack Query key of the SPA is built here, so no two places spell one differently and an
 * invalidation by prefix reaches exactly what it means to: `conversations.lists()` refreshes the
 * lists (and their unread dots) without refetching an open conversation's pages, which live under
 * `conversations.one(id)`.
 */
export const queryKeys = {
  /** GET /api/instance: kept across sign-outs (app.tsx). */
  instance: () => ["instance"] as const,
  users: {
    one: (id: number) => ["users", id] as const,
    totpStatus: (id: number) => ["users", id, "totp-status"] as const,
  },
  admin: {
    users: () => ["instance-users"] as const,
    invites: () => ["instance-invites"] as const,
    /** The administrators whose identity waits for an admin certificate. */
    certificates: () => ["instance-admin-certificates"] as const,
    /** The version 1 accounts whose key waits for a certificate, and the legacy rule. */
    legacyKeys: () => ["instance-legacy-keys"] as const,
  },
  keypairs: {
    own: () => ["keypairs", "own"] as const,
    fingerprints: (keypairId: number) => ["keypairs", "fingerprints", keypairId] as const,
    lookup: (uid: number, keypairId: number) => ["keypairs", "lookup", uid, keypairId] as const,
  },
  /** Contacts' keys as this client trusts them (lib/trust.ts), per signed-in user; invalidated when the pins change. */
  identities: {
    all: () => ["identities"] as const,
    contact: (me: number, uid: number) => ["identities", me, "contact", uid] as const,
    safetyNumber: (me: number, uid: number, keyId: string) => ["identities", me, "safety-number", uid, keyId] as const,
  },
  /** A verified membership log's fingerprint, by its container and head (features/conversations/membership-fingerprint.tsx). */
  membershipFingerprint: (container: string, seq: number, hash: string) => ["membership-fingerprint", container, seq, hash] as const,
  /** The notification check's mark (the newest event seen), per signed-in user. */
  notifyCheck: (uid: number) => ["notify", uid] as const,
  conversations: {
    lists: () => ["conversations", "list"] as const,
    list: (uid: number) => ["conversations", "list", uid] as const,
    /** A decrypted title in lists and menus: the envelope is part of the key, so a rename is a new entry. */
    title: (uid: number | undefined, id: number, envelope: string | null) => ["conversations", "title", uid, id, envelope] as const,
    one: (id: number) => ["conversations", "one", id] as const,
    /** The pages of messages, newest page first, decrypted. */
    messages: (id: number) => ["conversations", "one", id, "messages"] as const,
    /** Older pages fetched ahead of the list while the user pages back (load-conversation.ts), by `before` cursor. */
    olderPages: (id: number) => ["conversations", "one", id, "older"] as const,
    olderPage: (id: number, before: number) => ["conversations", "one", id, "older", before] as const,
    /** Messages after the first page (newer and pending ones) and the panel's changes: live-messages.ts. */
    live: (id: number) => ["conversations", "one", id, "live"] as const,
    /** The message poll's back-off state. */
    poll: (id: number) => ["conversations", "one", id, "poll"] as const,
    attachments: (id: number) => ["conversations", "one", id, "attachments"] as const,
    /** While its key moved: the back-off of the check for the next epoch after the one refused (key-wait.ts). */
    keyWait: (id: number, epoch: number) => ["conversations", "one", id, "key-wait", epoch] as const,
  },
  /** The person selector's chunks, by search text (spec 000 §9). */
  people: {
    all: () => ["people"] as const,
    search: (q: string) => ["people", "search", q] as const,
  },
  /** Groups, their pages and permissions: `groups.one(id)` prefixes everything of one group, so a change refreshes its menu and pages at once. */
  groups: {
    lists: () => ["groups", "list"] as const,
    list: (uid: number) => ["groups", "list", uid] as const,
    one: (id: number) => ["groups", "one", id] as const,
    members: (id: number) => ["groups", "one", id, "members"] as const,
    /** This member's verified ring of the group's keys (its epoch, the epochs reached). */
    ring: (id: number, uid: number) => ["groups", "one", id, "ring", uid] as const,
    /** Who lacks a wrap of the current epoch, whose key moved (GET …/wraps/status). */
    wrapsStatus: (id: number) => ["groups", "one", id, "wraps"] as const,
    page: (groupId: number, pageId: number) => ["groups", "one", groupId, "page", pageId] as const,
    permissions: (groupId: number, pageId: number) => ["groups", "one", groupId, "page", pageId, "permissions"] as const,
    /** The group's own conversation: not under `one(id)`, so a change of the group's pages does not load its messages again. */
    messages: (id: number) => ["groups", "conversation", id, "messages"] as const,
    /** Its older pages fetched ahead, by `before` cursor (conversations/older-pages.ts). */
    olderPages: (id: number) => ["groups", "conversation", id, "older"] as const,
    olderPage: (id: number, before: number) => ["groups", "conversation", id, "older", before] as const,
    live: (id: number) => ["groups", "conversation", id, "live"] as const,
    poll: (id: number) => ["groups", "conversation", id, "poll"] as const,
    /** While this member's key moved: the back-off of the check for a wrap of a later epoch (key-wait.ts); not under `one(id)`, so a menu change does not check early. */
    keyWait: (id: number, epoch: number) => ["groups", "keyWait", id, epoch] as const,
    /** While a page waits for this member's copy of the group key: the one look for it of the whole page (keys/wrap-wait.ts); not under `one(id)` either. */
    wrapWait: (id: number) => ["groups", "wrapWait", id] as const,
    /** The group's drive, decrypted: not under `one(id)` either (a menu change does not decrypt it again). */
    cardFiles: (pageId: number) => ["groups", "cardFiles", pageId] as const,
    drive: (id: number) => ["groups", "drive", id] as const,
    /** A drive file's decrypted thumbnail: beside `drive(id)`, so a refresh of the drive does not fetch it again. */
    driveThumb: (id: number, fileId: number) => ["groups", "driveThumb", id, fileId] as const,
    /** A page's records (motes), decrypted, and one record with its comments: not under `one(id)` either. */
    records: (groupId: number) => ["groups", "records", groupId] as const,
    recordsOfPage: (groupId: number, pageId: number) => ["groups", "records", groupId, "page", pageId] as const,
    /** Whether a page's records go under its page key (under `recordsOfPage`: a permit or a keeper's change refreshes it). */
    pageSealing: (groupId: number, pageId: number) => ["groups", "records", groupId, "page", pageId, "sealing"] as const,
    /** An administrator's keeping of a restricted page's key on a visit (outside `records`, which it refreshes). */
    pageKeeper: (groupId: number, pageId: number) => ["groups", "pagekeeper", groupId, pageId] as const,
    record: (groupId: number, id: number) => ["groups", "records", groupId, "one", id] as const,
    relations: (groupId: number, ids: readonly number[]) => ["groups", "records", groupId, "relations", ...ids] as const,
  },
} as const;
