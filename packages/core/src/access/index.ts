import { fail } from "../errors";
import type { MemberActor, Actor } from "./actor";
import { can } from "./can";

export * from "./actor";
export * from "./can";

/** 403 unless the actor is a member of the instance. */
export function assertMember(actor: Actor): asserts actor is MemberActor {
  if (!can(actor, "use", { kind: "instance" })) fail("forbidden");
}

/** The actor as a member of the instance, or 403. */
export function requireMember(actor: Actor): MemberActor {
  assertMember(actor);
  return actor;
}

/** The actor as an instance administrator, or 403. */
export function requireAdmin(actor: Actor): MemberActor {
  if (!can(actor, "administrate", { kind: "instance" })) fail("forbidden");
  return actor as MemberActor;
}
