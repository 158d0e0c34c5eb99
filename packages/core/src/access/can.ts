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
  | { kind: "conversation"; id: number; authorId: number; pickup: boolean; participant: { admin: boolean } | null; signed?: boolean };

export interface Actions {
  /** use: any member; administrate: instance administrators; grant-super: super administrators. */
  instance: "use" | "administrate" | "grant-super";
  /**
   * read and update: the owner or an administrator; administrate (email, another's 2FA): an
   * administrator; disable (and enable again): an administrator, never on their own account.
   * Changing a super administrator's account takes a super administrator.
   */
  account: "read" | "update" | "administrate" | "disable";
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
}

export type Kind = Resource["kind"];
export type ResourceOf<K extends Kind> = Extract<Resource, { kind: K }>;

type Rules = { [K in Kind]: (actor: Actor, action: Actions[K], resource: ResourceOf<K>) => boolean };

const rules: Rules = {
  instance: (actor, action) => (action === "use" ? isMember(actor) : action === "administrate" ? isAdmin(actor) : actor.kind === "super"),

  account: (actor, action, account) => {
    if (!isMember(actor)) return false;
    const self = actor.uid === account.id;
    // A super administrator's account changes only by their own hand or another super administrator's.
    if (action !== "read" && account.superAdmin && !self && actor.kind !== "super") return false;
    if (action === "administrate") return isAdmin(actor);
    if (action === "disable") return isAdmin(actor) && !self;
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
};

/** Whether `actor` may do `action` on `resource`: the one place that answers it. */
export function can<K extends Kind>(actor: Actor, action: Actions[K], resource: ResourceOf<K>): boolean {
  return (rules[resource.kind] as Rules[K])(actor, action, resource);
}
