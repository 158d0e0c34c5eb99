import { id as idSchema, normaliseContact, userChanges, type ListedUser, type PublicUser, type Session, type UserChanges } from "@sealwork/contracts";
import { can, isMember, requireAdmin, type Actor } from "../access";
import { nextId } from "../db/counter";
import { KeyResets } from "../keys/resets";
import { db, type TransactionEntities } from "../db/service";
import { Accounts } from "./accounts";
import { type UserItem } from "./entities";
import { allUsers, countUsers, getUser, toPublic as publicUser } from "./read";
import { fail, valid } from "../errors";
import { hashPassword, verifyPassword } from "../password";
import { isConditionFailure } from "../db/conditions";
import { issueToken } from "../tokens";
import "../instance/errors";
import "./entities";
import "./errors";

export namespace User {
  export interface NewUser {
    name: string;
    email?: string;
    phone?: string;
    password?: string;
    admin?: boolean;
    superAdmin?: boolean;
  }

  /** Creates an account; without a password it waits for registration (password_empty). */
  export async function create(input: NewUser, options: { first?: boolean } = {}): Promise<UserItem> {
    const id = await allocateId(options.first ?? false);
    const prepared = await prepare(id, input);
    const result = await db()
      .transaction.write((tx) => creation(tx, prepared))
      .go();
    if (result.canceled) fail("contact_taken");
    return prepared.user;
  }

  /** The transaction items that create a prepared account and its contacts (accounts.ts). */
  export const creation = Accounts.creation;

  /** The transaction item that gives an invited account its name and first password (once). */
  export function registration(tx: TransactionEntities, id: number, set: { name: string; passwordHash: string }) {
    return tx.user
      .patch({ id })
      .set(set)
      .where((attr, op) => op.notExists(attr.passwordHash))
      .commit();
  }

  export type Prepared = Accounts.Prepared;

  /** The account item and its contacts, for `creation` (here, or in an invitation's transaction). */
  export async function prepare(id: number, input: NewUser & { invited?: boolean }): Promise<Prepared> {
    return Accounts.prepare(id, input, input.password ? await hashPassword(input.password) : undefined);
  }

  export const allocateUserId = Accounts.allocateUserId;

  async function allocateId(first: boolean): Promise<number> {
    try {
      return await nextId("user", { onlyFirst: first });
    } catch (error) {
      if (first && isConditionFailure(error)) fail("setup_closed");
      throw error;
    }
  }

  export const count = countUsers;

  export const get = getUser;

  export async function byContact(contact: string): Promise<UserItem | undefined> {
    const { data } = await db().entities.contact.get({ contact: normaliseContact(contact) }).go();
    return data ? get(data.userId) : undefined;
  }

  export const toPublic = publicUser;

  export async function session(user: UserItem, extra: { recoveryTOTP?: boolean } = {}): Promise<Session> {
    const pub = toPublic(user);
    return {
      id: user.id,
      name: user.name,
      email: pub.email,
      phone: pub.phone,
      api_token: await issueToken({ kind: "user", uid: user.id, tokenVersion: user.tokenVersion }),
      hasAdminRole: pub.hasAdminRole,
      hasSuperAdminRole: pub.hasSuperAdminRole,
      recoveryTOTP: extra.recoveryTOTP ?? false,
    };
  }

  /** Settings and administration. Returns reset when the actor must log in again. */
  export async function update(actor: Actor, id: number, body: UserChanges): Promise<{ reset: boolean; user: PublicUser }> {
    const target = await account(actor, id, "update");
    const changes = valid(userChanges, body);
    const self = isMember(actor) && actor.uid === id;
    if (changes.email !== undefined && !can(actor, "administrate", { kind: "account", id, superAdmin: target.superAdmin })) {
      fail("email_change_forbidden");
    }

    const set: Partial<UserItem> = {};
    if (changes.name !== undefined) set.name = changes.name.trim();
    if (changes.password) {
      if (self) {
        const old = changes.password.old ?? "";
        if (!old || !target.passwordHash || !(await verifyPassword(old, target.passwordHash))) fail("old_password_incorrect");
      }
      set.passwordHash = await hashPassword(changes.password.new);
      set.tokenVersion = target.tokenVersion + 1;
    }
    const newEmail = changes.email === undefined ? undefined : normaliseContact(changes.email);
    if (newEmail !== undefined && newEmail !== target.email) set.email = newEmail;

    if (Object.keys(set).length > 0) {
      const result = await db()
        .transaction.write(({ user: users, contact }) => [
          users.patch({ id }).set(set).commit(),
          ...(set.email
            ? [
                contact.create({ contact: set.email, userId: id }).commit(),
                ...(target.email ? [contact.delete({ contact: target.email }).commit()] : []),
              ]
            : []),
        ])
        .go();
      if (result.canceled) fail(set.email ? "contact_taken" : "internal");
    }
    return { reset: self && Boolean(changes.password), user: toPublic({ ...target, ...set }) };
  }

  /** One account's details, for its owner or an administrator. */
  export async function view(actor: Actor, id: number): Promise<PublicUser> {
    return toPublic(await account(actor, id, "read"));
  }

  /**
   * The account `id` if `actor` may `action` it: 403 when not (before telling whether it
   * exists, to anyone who may not read it), 404 when it does not exist.
   */
  async function account(actor: Actor, id: number, action: "read" | "update"): Promise<UserItem> {
    valid(idSchema, id);
    const target = await get(id);
    if (!can(actor, action, { kind: "account", id, superAdmin: target?.superAdmin ?? false })) fail("forbidden");
    return target ?? fail("not_found");
  }

  /**
   * POST /api/instance/users/{id}/disable and …/enable (administrators; a super administrator's
   * account only by a super administrator; never one's own). Disabling raises the token version,
   * so the account's tokens stop at once and stay dead after it is enabled again; authentication
   * and login refuse a disabled account.
   */
  export async function setDisabled(actor: Actor, id: number, disabled: boolean): Promise<{ user: PublicUser }> {
    const admin = requireAdmin(actor);
    valid(idSchema, id);
    if (admin.uid === id) fail("disable_self");
    const target = await get(id);
    if (!target) fail("not_found");
    if (!can(actor, "disable", { kind: "account", id, superAdmin: target.superAdmin })) fail("forbidden");
    const change = db().entities.user.patch({ id }).set({ disabled });
    const { data } = await (disabled ? change.add({ tokenVersion: 1 }) : change).go({ response: "all_new" });
    return { user: toPublic(data as UserItem) };
  }

  /**
   * GET /api/instance/users: every account, or the one asked for (administrators), each with the
   * key reset pending for it (one more query: the pending resets of the instance).
   */
  export async function list(actor: Actor, singleuser?: number): Promise<ListedUser[]> {
    requireAdmin(actor);
    const [users, resets] = await Promise.all([singleuser !== undefined ? get(singleuser).then((user) => (user ? [user] : [])) : allUsers(), KeyResets.all()]);
    const ends = new Map(resets.map((reset) => [reset.userId, reset.expiresAt]));
    return users.map((user) => {
      const expires = ends.get(user.id);
      return { ...toPublic(user), key_reset: expires === undefined ? null : { expires } };
    });
  }
}
