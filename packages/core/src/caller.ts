import type { CallerKind } from "@sealwork/contracts";
import type { UserItem } from "./db/entities";

/** Who is calling, as the HTTP layer established it from the bearer token. */
export type Caller =
  | { kind: "anonymous"; ip: string }
  | { kind: "guest"; ip: string; uid: 0; pickup: string }
  | { kind: Extract<CallerKind, "user" | "admin" | "super">; ip: string; uid: number; user: UserItem };

export type MemberCaller = Extract<Caller, { uid: number; user: UserItem }>;
/** A pickup's guest (user id 0); `pickup` is the pickup's conversation id. */
export type GuestCaller = Extract<Caller, { kind: "guest" }>;
/** Who may take part in a conversation: members, and a pickup's guest in that pickup. */
export type ParticipantCaller = MemberCaller | GuestCaller;

export function isMember(caller: Caller): caller is MemberCaller {
  return caller.kind === "user" || caller.kind === "admin" || caller.kind === "super";
}

export function isAdmin(caller: Caller): caller is MemberCaller {
  return caller.kind === "admin" || caller.kind === "super";
}

export function kindOf(user: UserItem): MemberCaller["kind"] {
  return user.superAdmin ? "super" : user.admin ? "admin" : "user";
}
