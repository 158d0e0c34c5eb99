import { type Actor, isAdmin, isMember } from "./actor";

/**
 * What an actor may act on, with the facts the rules need. The verb that asks loads the facts
 * (the conversation and the actor's participant item, the account, whether two people share a
 * group) and picks the error code of a refusal; the rules themselves live here and only here.
 */
export type Resource =
  /** The instance as a whole: using it, administering it. */
  | { kind: "instance" }
  /** One account, as read or changed by its owner or an administrator. */
  | { kind: "account"; id: number; superAdmin: boolean }
  /** A person the actor would be put in contact with (a conversation with them, adding them). */
  | { kind: "person"; id: number; sharesGroup: boolean }
  /** One account key. */
  | { kind: "keypair"; ownerId: number }
  /**
   * A conversation (a pickup is one with recipient 0); `participant` is the actor's own entry, if
   * any; `signed`: it has a membership log (protocol v2), whose admins alone change its people.
   */
  | { kind: "conversation"; id: number; authorId: number; pickup: boolean; participant: { admin: boolean } | null; signed?: boolean }
  /** A group; `member` is the actor's own membership, if any. */
  | { kind: "group"; id: number; member: GroupMember | null }
  /**
   * A page of a group, with its permission lists (`internal`: shown only to people granted it and
   * group administrators). `member` as for the group, with the role ids the actor holds.
   */
  | { kind: "page"; groupId: number; member: GroupMember | null; internal: boolean; read: readonly Grant[]; use: readonly Grant[] }
  /** A role: instance-wide (group 0) or a group's; `admin` for a group's administrator role. */
  | { kind: "role"; groupId: number; admin: boolean; member: GroupMember | null }
  /**
   * An item of a group's drive, with its author and its permission lists (empty: none); `member`
   * as for the group, with the role ids the actor holds where the lists name roles.
   */
  | {
      kind: "driveitem";
      groupId: number;
      authorId: number;
      drive: boolean;
      member: GroupMember | null;
      read: readonly Grant[];
      write: readonly Grant[];
      use: readonly Grant[];
    }
  /** A mote (card) of a page, with its author and the actor's level on its page (pageLevel); `member` as for the group. */
  | { kind: "mote"; groupId: number; authorId: number; level: number; member: GroupMember | null }
  /** A comment on a mote, with its author and the actor's level on the mote's page. */
  | { kind: "comment"; groupId: number; authorId: number; level: number; member: GroupMember | null };

/** The actor's membership of a group: whether they administer it, and the roles they hold there (group and instance-wide). */
export interface GroupMember {
  admin: boolean;
  roles: readonly number[];
}

/** A permission entry of a page: a user, or (role true) everyone holding a role. */
export interface Grant {
  role: boolean;
  id: number;
}

export interface Actions {
  /** use: any member; administrate: instance administrators; grant-super and create-group: super administrators. */
  instance: "use" | "administrate" | "grant-super" | "create-group";
  /**
   * read and update: the owner or an administrator; administrate (email, another's 2FA): an
   * administrator; disable (and enable again) and reset-key (make a new key for someone who lost
   * theirs): an administrator, never on their own account. Changing a super administrator's
   * account takes a super administrator.
   */
  account: "read" | "update" | "administrate" | "disable" | "reset-key";
  person: "contact";
  /** read: any member; recover the encrypted backup: the owner only, whoever else asks. */
  keypair: "read" | "recover";
  /**
   * read and write (messages, files): participants, a pickup's guest in its own live pickup;
   * rename and archive: member participants; manage (add, remove, make admin): member
   * participants who are instance administrators (not in a conversation with a membership log),
   * the author or conversation admins; delete:
   * the author of a pickup.
   */
  conversation: "read" | "write" | "rename" | "archive" | "manage" | "delete";
  /**
   * read (the group, its members, its log, one's own wraps) and leave: its members; manage
   * (options, pages, roles, members, the log, others' wraps): its administrators; analyse (which
   * members lack a wrap or a key: ids only): its administrators and super administrators.
   */
  group: "read" | "leave" | "manage" | "analyse";
  /**
   * read: level 1 or more; use (create items): level 2 or more; configure (menu, options,
   * permissions, delete): level 3 (pageLevel); autofilter (change a calendar's saved autofilters,
   * spec 002 §6): a super administrator who may configure it.
   */
  page: "read" | "use" | "configure" | "autofilter";
  /** manage (create, delete, assign, unassign): a group's administrators for its roles, instance administrators for instance-wide ones; never deleting or taking away an admin role. */
  role: "manage" | "unassign" | "delete";
  /**
   * Spec 001 §6. read (list it, open it, fetch its file): any member while its read list is
   * empty; with one, those it names, those the write or use list names, its author and the
   * administrators. edit (rename, tags), move and delete: its author, the group's administrators
   * and instance administrators, who "may edit or move any drive item", and those its write list
   * names; a drive is never moved or deleted. use (put an item into a drive or folder): the same
   * but through the use list, and anyone while the target has no grants at all. permit (change its
   * lists): its author and the administrators.
   */
  driveitem: "read" | "edit" | "move" | "delete" | "use" | "permit";
  /**
   * read: members at the page's read level (1); create: its use level (2; a read-only page is
   * level 1 or below: 'Not allowed to edit or create items from this page!'); edit and delete: at
   * the use level, its author or the group's administrators (spec 001 §6: other members "may
   * edit only their own items").
   */
  mote: "read" | "create" | "edit" | "delete";
  /** post: anyone who may read the mote; delete: its author or the group's administrators (spec 001 §7). */
  comment: "post" | "delete";
}

export type Kind = Resource["kind"];
export type ResourceOf<K extends Kind> = Extract<Resource, { kind: K }>;

type Rules = { [K in Kind]: (actor: Actor, action: Actions[K], resource: ResourceOf<K>) => boolean };

const rules: Rules = {
  // Groups are made by super administrators (spec 000 §6: only they see New group).
  instance: (actor, action) => (action === "use" ? isMember(actor) : action === "administrate" ? isAdmin(actor) : actor.kind === "super"),

  account: (actor, action, account) => {
    if (!isMember(actor)) return false;
    const self = actor.uid === account.id;
    // A super administrator's account changes only by their own hand or another super administrator's.
    if (action !== "read" && account.superAdmin && !self && actor.kind !== "super") return false;
    if (action === "administrate") return isAdmin(actor);
    if (action === "disable" || action === "reset-key") return isAdmin(actor) && !self;
    return self || isAdmin(actor);
  },

  // Administrators may reach anyone (spec 000 §6); everyone else only people they share a group with.
  person: (actor, _action, person) => isMember(actor) && (isAdmin(actor) || person.sharesGroup),

  keypair: (actor, action, keypair) => isMember(actor) && (action === "read" || actor.uid === keypair.ownerId),

  conversation: (actor, action, conversation) => {
    if (actor.kind === "guest") {
      // Only in its own pickup, while that is live, and only messages and files.
      const own = conversation.pickup && actor.pickup === conversation.id && actor.live;
      return own && conversation.participant !== null && (action === "read" || action === "write");
    }
    if (!isMember(actor)) return false;
    if (action === "delete") return conversation.pickup && conversation.authorId === actor.uid;
    if (conversation.participant === null) return false;
    // With a membership log, every client checks that a change's author was an admin of the log:
    // an instance administrator who is not one could not sign a change anyone accepts.
    if (action === "manage") return conversation.authorId === actor.uid || conversation.participant.admin || (isAdmin(actor) && !conversation.signed);
    return true;
  },

  group: (actor, action, group) => {
    if (!isMember(actor)) return false;
    if (action === "analyse") return group.member?.admin === true || actor.kind === "super";
    if (!group.member) return false;
    return action === "manage" ? group.member.admin : true;
  },

  page: (actor, action, page) => {
    if (action === "autofilter" && actor.kind !== "super") return false;
    return pageLevel(actor, page) >= (action === "read" ? PAGE_LEVEL.read : action === "use" ? PAGE_LEVEL.use : PAGE_LEVEL.admin);
  },

  role: (actor, action, role) => {
    if (!isMember(actor)) return false;
    if (action !== "manage" && role.admin) return false;
    return role.groupId === 0 ? isAdmin(actor) : role.member?.admin === true;
  },

  driveitem: (actor, action, item) => {
    if (!isMember(actor) || !item.member) return false;
    if (item.drive && (action === "move" || action === "delete")) return false;
    const roles = item.member.roles;
    const names = (list: readonly Grant[]) => list.some((g) => (g.role ? roles.includes(g.id) : g.id === actor.uid));
    if (item.authorId === actor.uid || item.member.admin || isAdmin(actor)) return true;
    switch (action) {
      case "read":
        return item.read.length === 0 || names(item.read) || names(item.write) || names(item.use);
      case "use":
        return (item.read.length === 0 && item.write.length === 0 && item.use.length === 0) || names(item.use);
      case "permit":
        return false;
      default:
        return names(item.write);
    }
  },

  mote: (actor, action, mote) => {
    if (!isMember(actor) || !mote.member) return false;
    if (action === "read") return mote.level >= PAGE_LEVEL.read;
    if (mote.level < PAGE_LEVEL.use) return false;
    return action === "create" || mote.authorId === actor.uid || mote.member.admin;
  },

  comment: (actor, action, comment) => {
    if (!isMember(actor) || !comment.member || comment.level < PAGE_LEVEL.read) return false;
    return action === "post" || comment.authorId === actor.uid || comment.member.admin;
  },
};

/**
 * A page's level (spec 001 §2, §6), as GET /api/pages/{id} answers it: 0 not visible, 1 read only,
 * 2 read and use (create items), 3 group administrator (configure, permissions, delete).
 */
export const PAGE_LEVEL = { none: 0, read: 1, use: 2, admin: 3 } as const;

/**
 * A page's level for the actor (spec 001 §2, §6): group administrators 3; members 2 where the
 * use list names them or a role of theirs, 1 where the read list does; with both lists empty,
 * every member may use a page that is not internal. Non-members and everyone outside the
 * instance: 0.
 */
export function pageLevel(actor: Actor, page: ResourceOf<"page">): number {
  if (!isMember(actor) || !page.member) return PAGE_LEVEL.none;
  if (page.member.admin) return PAGE_LEVEL.admin;
  const roles = page.member.roles;
  const names = (list: readonly Grant[]) => list.some((g) => (g.role ? roles.includes(g.id) : g.id === actor.uid));
  if (names(page.use)) return PAGE_LEVEL.use;
  if (names(page.read)) return PAGE_LEVEL.read;
  return page.read.length === 0 && page.use.length === 0 && !page.internal ? PAGE_LEVEL.use : PAGE_LEVEL.none;
}

/** Whether `actor` may do `action` on `resource`: the one place that answers it. */
export function can<K extends Kind>(actor: Actor, action: Actions[K], resource: ResourceOf<K>): boolean {
  return (rules[resource.kind] as Rules[K])(actor, action, resource);
}
