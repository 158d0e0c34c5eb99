import type { CallerKind } from "@sealwork/contracts";
import type { UserItem } from "./db/entities";

/** Who is calling, as the HTTP layer established it from the bearer token. */
export type Caller =
  | { kind: "anonymous"; ip: string }
  | { kind: "guest"; ip: string; uid: 0; pickup: string }
  | { kind: Extract<CallerKind, "user" | "admin" | "super">; ip: string; uid: number; user: UserItem };

export type MemberCaller = Extract<Caller, { uid: number; user: UserItem }>;

export function isMember(caller: Caller): caller is MemberCaller {
  return caller.kind === "user" || caller.kind === "admin" || caller.kind === "super";
}

export function isAdmin(caller: Caller): caller is MemberCaller {
  return caller.kind === "admin" || caller.kind === "super";
}

export function kindOf(user: UserItem): MemberCaller["kind"] {
  return user.superAdmin ? "super" : user.admin ? "admin" : "user";
}
