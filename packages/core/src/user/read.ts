import type { PublicUser } from "@sealwork/contracts";
import { currentId } from "../db/counter";
import { db } from "../db/service";
import type { UserItem } from "./entities";
import "./entities";

/**
 * Reading accounts, for every domain that names people (authentication, conversations,
 * invitations): kept apart from the account verbs so that reading a name does not bring
 * password hashing, mail and two-factor setup along.
 */
export async function getUser(id: number): Promise<UserItem | undefined> {
  const { data } = await db().entities.user.get({ id }).go();
  return data ?? undefined;
}

/** The accounts with these ids that exist, in one batch read per hundred. */
export async function getUsers(ids: Iterable<number>): Promise<Map<number, UserItem>> {
  const unique = [...new Set(ids)].filter((id) => id > 0);
  if (!unique.length) return new Map();
  const { data } = await db().entities.user.get(unique.map((id) => ({ id }))).go();
  return new Map(data.map((u) => [u.id, u]));
}

/** Every account (administrators' lists and the person selector). */
export async function allUsers(): Promise<UserItem[]> {
  const { data } = await db().entities.user.query.all({}).go({ pages: "all" });
  return data;
}

/** How many accounts were ever created (0: the instance still needs its first administrator). */
export function countUsers(): Promise<number> {
  return currentId("user");
}

export function toPublic(user: UserItem): PublicUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email ?? null,
    phone: user.phone ?? null,
    hasAdminRole: user.admin || user.superAdmin,
    hasSuperAdminRole: user.superAdmin,
    totp_enabled: user.totpEnabled,
    password_empty: !user.passwordHash,
    disabled: user.disabled ?? false,
  };
}
