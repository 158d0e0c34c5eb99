import { normaliseContact } from "@sealwork/contracts";
import { nextId } from "../db/counter";
import type { TransactionEntities } from "../db/service";
import type { UserItem } from "./entities";
import "./entities";

/**
 * Making an account's items, without the password hashing of user.ts: an invitation creates
 * accounts with no password, and its Lambda need not carry Argon2id (test/stacks/bundles.test.ts).
 */
export namespace Accounts {
  export interface NewAccount {
    name: string;
    email?: string;
    phone?: string;
    admin?: boolean;
    superAdmin?: boolean;
    invited?: boolean;
  }

  export interface Prepared {
    user: UserItem;
    contacts: string[];
  }

  /** The account item (with `passwordHash` when it has one) and its normalised contacts. */
  export function prepare(id: number, input: NewAccount, passwordHash?: string): Prepared {
    const email = input.email ? normaliseContact(input.email) : undefined;
    const phone = input.phone ? normaliseContact(input.phone) : undefined;
    const user: UserItem = {
      id,
      name: input.name.trim(),
      email,
      phone,
      passwordHash,
      admin: input.admin ?? false,
      superAdmin: input.superAdmin ?? false,
      tokenVersion: 1,
      totpEnabled: false,
      createdAt: Math.floor(Date.now() / 1000),
      ...(input.invited ? { invited: true } : {}),
    };
    return { user, contacts: [email, phone].filter((c): c is string => Boolean(c)) };
  }

  /**
   * The transaction items that create a prepared account and its contacts, create-only (which
   * keeps contacts unique): a cancelled transaction means a contact is taken.
   */
  export function creation(tx: TransactionEntities, { user, contacts }: Prepared) {
    return [user, ...contacts].map((item) =>
      typeof item === "string" ? tx.contact.create({ contact: item, userId: user.id }).commit() : tx.user.create(item).commit(),
    );
  }

  export function allocateUserId(): Promise<number> {
    return nextId("user");
  }
}
