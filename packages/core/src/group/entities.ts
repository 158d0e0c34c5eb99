import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { SERVICE, gsi1, keyed, now, primary, sealedAt } from "../db/schema";

// Attribute shapes the entities share (they ride in every area's bundle: written once).
const num = { type: "number", required: true } as const;
const str = { type: "string", required: true } as const;
const no = { type: "boolean", required: true, default: false } as const;
const padded = { ...num, padding: { length: 10, char: "0" } } as const;
const grantList = { type: "list", items: { type: "map", properties: { role: { type: "boolean", required: true }, id: num } } } as const;

/**
 * A group (spec 001 §3): its name and options in the clear (the spec's; ARCHITECTURE §1), and the
 * counters its transactions hold together: members and administrators (a removal is conditional
 * on `adminCount`, so no group is left without one), the membership log's head (an append is
 * conditional on `logSeq`) and the group key's epoch.
 */
export const GroupEntity = new Entity({
  model: { entity: "group", version: "1", service: SERVICE },
  attributes: {
    id: num,
    name: str,
    creatorId: num,
    /** ISO 4217 codes, the default first. */
    currencyCodes: { type: "list", items: { type: "string" } },
    startpage: { type: "number" },
    memberCount: { type: "number", required: true, default: 0 },
    adminCount: { type: "number", required: true, default: 0 },
    /** The membership log's last seq (-1: empty). */
    logSeq: { type: "number", required: true, default: -1 },
    epoch: { type: "number", required: true, default: 0 },
    /** A member left or was removed since the epoch started: the next epoch should reach only those who remain. */
    needsRekey: no,
    /** The administrator role's id. */
    adminRoleId: num,
    /** The group conversation's newest message id handed out. */
    lastMoteId: { ...num, default: 0 },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
  },
});

/**
 * One member of a group (what conversations' shared-group rule reads too). gsi1 lists a user's
 * groups. Created only on the condition that it does not exist: nobody is added twice.
 */
export const GroupMembershipEntity = new Entity({
  model: { entity: "groupmember", version: "1", service: SERVICE },
  attributes: {
    groupId: num,
    userId: num,
    admin: no,
    joinedAt: { ...num, default: now },
    /** The group conversation: the newest message they loaded, and when (seconds; 0 before the first visit). */
    lastSeenMote: { ...num, default: 0 },
    lastVisit: { ...num, default: 0 },
    /**
     * Seconds: when the member's account key moved (renewed, or reset after they lost it) since
     * their wrap of the group key was made; cleared when a wrap for them is stored. While set, an
     * administrator's browser starts the next epoch, sealed for everyone's current keys.
     */
    keyMovedAt: { type: "number" },
  },
  indexes: {
    byGroup: keyed(primary, ["groupId"], ["userId"]),
    byUser: keyed(gsi1, ["userId"], ["groupId"]),
  },
});

/**
 * A page of a group: the six types, and the reserved drive, members and conversation pages made
 * with the group. Its menu item and permission lists (read, write, use: users and roles) live on
 * it; gsi1 lists a group's pages.
 */
export const GroupPageEntity = new Entity({
  model: { entity: "grouppage", version: "1", service: SERVICE },
  attributes: {
    id: num,
    groupId: num,
    title: str,
    /** One of PAGE_TYPES or RESERVED_PAGES (the contracts check what comes in). */
    type: str,
    reserved: no,
    /** JSON text of the page's own configuration. */
    options: { type: "string", required: true, default: "{}" },
    internal: no,
    icon: { type: "string" },
    menuName: { type: "string" },
    menuOrder: { type: "number", required: true, default: 0 },
    read: { ...grantList, required: true, default: () => [] },
    write: { ...grantList, required: true, default: () => [] },
    use: { ...grantList, required: true, default: () => [] },
    /** A restricted page's current key generation (PageKeyEntity); absent or 0 while it has none. */
    keyGen: { type: "number" },
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
    byGroup: keyed(gsi1, ["groupId"], ["id"]),
  },
});

/**
 * One generation of a restricted page's key (docs/protocol.md, "Restricted pages"): who made it,
 * its link (the generation before, under this one's key; from generation 2 on) and who holds a
 * copy of it (PageKeyCopyEntity), so that a change of readers shows who needs one or a new generation.
 */
export const PageKeyEntity = new Entity({
  model: { entity: "pagekey", version: "1", service: SERVICE },
  attributes: {
    pageId: num,
    generation: padded,
    groupId: num,
    sealer: num,
    link: { type: "string" },
    holders: { type: "list", required: true, default: () => [], items: { type: "number" } },
  },
  indexes: {
    byPage: keyed(primary, ["pageId"], ["generation"]),
  },
});

/** One reader's copy of one generation of a page key (the crypto package's SignedSealedKey, JSON text), keyed by the reader. */
export const PageKeyCopyEntity = new Entity({
  model: { entity: "pagekeycopy", version: "1", service: SERVICE },
  attributes: { pageId: num, userId: num, generation: padded, copy: str, at: sealedAt },
  indexes: {
    byReader: keyed(primary, ["pageId", "userId"], ["generation"]),
  },
});

/** A role: instance-wide (groupId 0) or a group's; each group has one admin role. gsi1 lists a group's (or the instance's) roles. */
export const RoleEntity = new Entity({
  model: { entity: "role", version: "1", service: SERVICE },
  attributes: {
    id: num,
    /** Zero-padded in the keys, so that one group's roles are a prefix of all of them. */
    groupId: { ...num, padding: { length: 16, char: "0" } },
    name: str,
    admin: no,
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
    /** Every role (the instance's user list shows them all), a group's (or the instance's: 0) by prefix. */
    all: keyed(gsi1, [], ["groupId", "id"]),
  },
});

/** Who holds a role (not the admin role: its holders are the group's administrators). gsi1 lists a user's roles. */
export const RoleAssignmentEntity = new Entity({
  model: { entity: "roleassignment", version: "1", service: SERVICE },
  attributes: {
    roleId: num,
    userId: num,
    /** The role's group (0: instance-wide), so that a member's removal finds their roles of the group; padded like the role's. */
    groupId: { ...num, padding: { length: 16, char: "0" } },
  },
  indexes: {
    byRole: keyed(primary, ["roleId"], ["userId"]),
    byUser: keyed(gsi1, ["userId"], ["groupId", "roleId"]),
  },
});

/**
 * Entries of a group's membership log that one request appended, from seq `first` on: the JSON
 * list as the client sent it (opaque). Create-only, in the transaction that moves the group's
 * `logSeq` from the seq before.
 */
export const GroupLogEntity = new Entity({
  model: { entity: "grouplog", version: "1", service: SERVICE },
  attributes: {
    groupId: num,
    first: padded,
    count: num,
    entries: str,
    authorId: num,
  },
  indexes: {
    byGroup: keyed(primary, ["groupId"], ["first"]),
  },
});

/** One epoch of a group's key: its newest signed group record and, from epoch 1, the link to the previous epoch's key (both opaque). */
export const GroupEpochEntity = new Entity({
  model: { entity: "groupepoch", version: "1", service: SERVICE },
  attributes: {
    groupId: num,
    epoch: padded,
    record: { type: "string" },
    link: { type: "string" },
  },
  indexes: {
    byGroup: keyed(primary, ["groupId"], ["epoch"]),
  },
});

/**
 * A member's wrap of one epoch's group key (opaque JSON), stored only while they are a member.
 * The primary index lists an epoch's wraps (who lacks one); gsi1 a member's own.
 */
export const GroupWrapEntity = new Entity({
  model: { entity: "groupwrap", version: "1", service: SERVICE },
  attributes: {
    groupId: num,
    epoch: padded,
    userId: num,
    wrap: str,
    sealerId: num,
    at: sealedAt,
  },
  indexes: {
    byEpoch: keyed(primary, ["groupId"], ["epoch", "userId"]),
    byMember: keyed(gsi1, ["groupId", "userId"], ["epoch"]),
  },
});

/** A message of the group's conversation (an `aead` envelope under the group key's epoch, signed by its sender). */
export const GroupMessageEntity = new Entity({
  model: { entity: "groupmote", version: "1", service: SERVICE },
  attributes: {
    groupId: num,
    id: { ...num, padding: { length: 16, char: "0" } },
    sourceId: num,
    timestamp: num,
    payload: str,
    localid: str,
    epoch: num,
    signature: str,
    senderKeyId: str,
    /** The group log's head its sender signed with it, when it names one. */
    headSeq: { type: "number" },
    headHash: { type: "string" },
  },
  indexes: {
    byGroup: keyed(primary, ["groupId"], ["id"]),
  },
});

/** Which message a member's local id became: create-only, so a retried append stores one message. */
export const GroupLocalIdEntity = new Entity({
  model: { entity: "grouplocalid", version: "1", service: SERVICE },
  attributes: { groupId: num, userId: num, localid: str, moteId: num },
  indexes: {
    byLocalId: keyed(primary, ["groupId", "userId", "localid"], []),
  },
});

export type GroupMessageItem = EntityItem<typeof GroupMessageEntity>;
export type GroupItem = EntityItem<typeof GroupEntity>;
export type GroupMemberItem = EntityItem<typeof GroupMembershipEntity>;
export type GroupPageItem = EntityItem<typeof GroupPageEntity>;
export type RoleItem = EntityItem<typeof RoleEntity>;
export type PageKeyItem = EntityItem<typeof PageKeyEntity>;

/** The group domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const groupEntities = registerEntities({
  group: GroupEntity,
  groupmember: GroupMembershipEntity,
  grouppage: GroupPageEntity,
  pagekey: PageKeyEntity,
  pagekeycopy: PageKeyCopyEntity,
  role: RoleEntity,
  roleassignment: RoleAssignmentEntity,
  grouplog: GroupLogEntity,
  groupepoch: GroupEpochEntity,
  groupwrap: GroupWrapEntity,
  groupmote: GroupMessageEntity,
  grouplocalid: GroupLocalIdEntity,
});
