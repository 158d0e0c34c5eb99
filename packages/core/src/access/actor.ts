import type { CallerKind } from "@sealwork/contracts";
import type { UserItem } from "../user/entities";

/**
 * Who is acting: the HTTP layer establishes it from the bearer token; a queue worker or an
 * import names the actor it acts for. Every verb takes one and asks the access layer (can.ts).
 */
export type Actor =
  | { kind: "anonymous"; ip: string }
  /** A pickup's guest: `pickup` is the pickup's conversation id, `live` whether it may still be opened. */
  | { kind: "guest"; ip: string; uid: 0; pickup: number; live: boolean }
  | { kind: Extract<CallerKind, "user" | "admin" | "super">; ip: string; uid: number; user: UserItem };

export type MemberActor = Extract<Actor, { uid: number; user: UserItem }>;
/** A pickup's guest (user id 0); `pickup` is the pickup's conversation id. */
export type GuestActor = Extract<Actor, { kind: "guest" }>;
/** Who may take part in a conversation: members, and a pickup's guest in that pickup. */
export type ParticipantActor = MemberActor | GuestActor;

export function isMember(actor: Actor): actor is MemberActor {
  return actor.kind === "user" || actor.kind === "admin" || actor.kind === "super";
}

export function isAdmin(actor: Actor): actor is MemberActor {
  return actor.kind === "admin" || actor.kind === "super";
}

export function kindOf(user: UserItem): MemberActor["kind"] {
  return user.superAdmin ? "super" : user.admin ? "admin" : "user";
}
