import { type AccountKeys, accountPublicKeys, generateAccountKeys } from "../account-keys";
import { base64urlEncode, tryBase64urlDecode } from "../bytes";
import type { CryptoErrorCode } from "../errors";
import { type Mutation, expectRefusal } from "../test-support";
import {
  type SignedAdmin,
  type SignedIdentity,
  type SignedKeyReset,
  createInvitation,
  createInvitedIdentity,
  createKeyReset,
  createResetIdentity,
  createRootIdentity,
  grantAdmin,
  rotateIdentity,
} from "./identity";
import type { IdentityChain } from "./identity-chain";
import { type IdentityKeys, identityKeys } from "./identity-keys";

/** Helpers for the v2 record tests: a small instance of users, and mutations of signed records. Not exported from index.ts. */

export const T0 = 1_750_000_000_000;
export const DAY = 86_400_000;

interface Person {
  keys: AccountKeys[];
  records: SignedIdentity[];
}

/** An instance: user 1 is its root; others are invited, promoted and rotated by the tests. */
export class World {
  readonly people = new Map<number, Person>();
  readonly admins = new Map<number, SignedAdmin>();
  anchors: string[] = [];

  static async create(rootId = 1): Promise<World> {
    const world = new World();
    const keys = await generateAccountKeys();
    const root = await createRootIdentity({ userId: rootId, email: `user${rootId}@example.org`, created: T0 }, keys);
    world.people.set(rootId, { keys: [keys], records: [root] });
    world.anchors = [(await world.me(rootId)).keyId];
    return world;
  }

  /** `issuer` invites `userId`, who takes the invitation over with fresh keys. */
  async invite(issuer: number, userId: number, options: { email?: string; created?: number; expires?: number } = {}): Promise<SignedIdentity> {
    const temp = await generateAccountKeys();
    const invitation = await createInvitation(
      { inviteId: 100 + userId, email: options.email ?? `user${userId}@example.org`, temp: await accountPublicKeys(temp), expires: options.expires ?? T0 + 30 * DAY },
      await this.me(issuer),
    );
    const keys = await generateAccountKeys();
    const birth = await createInvitedIdentity({ userId, created: options.created ?? T0 + DAY, invitation }, keys, temp);
    this.people.set(userId, { keys: [keys], records: [birth] });
    return birth;
  }

  async promote(issuer: number, userId: number, keyIndex?: number): Promise<SignedAdmin> {
    const person = this.person(userId);
    const keyId = (await identityKeys(userId, person.keys[keyIndex ?? person.keys.length - 1]!)).keyId;
    const admin = await grantAdmin({ userId, keyId, granted: T0 + 2 * DAY }, await this.me(issuer));
    this.admins.set(userId, admin);
    return admin;
  }

  async rotate(userId: number): Promise<SignedIdentity> {
    const person = this.person(userId);
    const keys = await generateAccountKeys();
    const next = await rotateIdentity(person.records.at(-1)!, person.keys.at(-1)!, { created: T0 + 3 * DAY + person.records.length }, keys);
    person.keys.push(keys);
    person.records.push(next);
    return next;
  }

  /**
   * `issuer` resets `userId`'s key (they lost it): the user takes the reset over with fresh keys.
   * Answers the new record and the reset.
   */
  async reset(issuer: number, userId: number, options: { created?: number; expires?: number } = {}): Promise<{ record: SignedIdentity; reset: SignedKeyReset }> {
    const person = this.person(userId);
    const temp = await generateAccountKeys();
    const reset = await createKeyReset(
      { userId, current: person.records.at(-1)!, temp: await accountPublicKeys(temp), expires: options.expires ?? T0 + 40 * DAY },
      await this.me(issuer),
    );
    const keys = await generateAccountKeys();
    const record = await createResetIdentity({ current: person.records.at(-1)!, created: options.created ?? T0 + 5 * DAY + person.records.length, reset }, keys, temp);
    person.keys.push(keys);
    person.records.push(record);
    return { record, reset };
  }

  /** The user's current identity keys (to sign with). */
  me(userId: number, keyIndex?: number): Promise<IdentityKeys> {
    const person = this.person(userId);
    return identityKeys(userId, person.keys[keyIndex ?? person.keys.length - 1]!);
  }

  /** What a server would serve for `userId`: their records, every other user's as issuers, every admin certificate. */
  chain(userId: number): IdentityChain {
    const issuers = [...this.people].filter(([id]) => id !== userId).map(([id, person]) => ({ userId: id, records: person.records }));
    return { userId, records: this.person(userId).records, issuers, admins: [...this.admins.values()] };
  }

  get trust() {
    return { anchors: this.anchors };
  }

  person(userId: number): Person {
    const person = this.people.get(userId);
    if (!person) throw new Error(`no user ${userId}`);
    return person;
  }
}

/** A deep copy of a JSON value with the value at `path` replaced (or removed, for `undefined`). */
export function replaced<T>(value: T, path: readonly (string | number)[], next: unknown): T {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (next === undefined) delete node[last];
  else node[last] = next;
  return copy as T;
}

/**
 * Every leaf of a signed record changed while keeping its shape (so only a signature can catch
 * it: `changed` codes), plus shape breaks (a field removed, retyped, added; malformed_record).
 * Binary fields get one bit flipped, signatures one bit of their `sig`, numbers + 1, other strings
 * a changed character; `type`, `v`, `kind` and `action` are shape (their change is malformed_record).
 */
export function* recordMutations(value: unknown, changed: CryptoErrorCode[], path: (string | number)[] = [], root: unknown = value): Generator<Mutation> {
  const label = path.join(".") || "(whole)";
  const put = (next: unknown) => replaced(root, path, next);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* recordMutations(item, changed, [...path, index], root);
    return;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      yield* recordMutations(item, changed, [...path, key], root);
      yield { label: `${[...path, key].join(".")} removed`, value: replaced(root, [...path, key], undefined), codes: ["malformed_record"] };
    }
    yield { label: `${label} with an extra field`, value: replaced(root, [...path, "extra"], 1), codes: ["malformed_record"] };
    return;
  }
  const key = path.at(-1);
  if (typeof value === "number") {
    if (key === "v") yield { label: `${label} = 3`, value: put(3), codes: ["malformed_record"] };
    else yield { label: `${label} + 1`, value: put(value + 1), codes: changed };
    yield { label: `${label} as text`, value: put(String(value)), codes: ["malformed_record"] };
    return;
  }
  if (typeof value === "string") {
    if (["type", "kind", "action"].includes(String(key))) {
      yield { label: `${label} renamed`, value: put(`${value}x`), codes: ["malformed_record"] };
    } else if (value.startsWith("{")) {
      // An envelope's text: a signature (its sig) or a sealed key (its ciphertext).
      const envelope = JSON.parse(value) as { sig?: string; ct?: string };
      const field = (envelope.sig ?? envelope.ct)!;
      const bytes = tryBase64urlDecode(field)!;
      bytes[0]! ^= 1;
      yield { label: `${label} bit flipped`, value: put(value.replace(field, base64urlEncode(bytes))), codes: ["bad_signature"] };
    } else if (tryBase64urlDecode(value) && (value.length === 22 || value.length === 43)) {
      const bytes = tryBase64urlDecode(value)!;
      bytes[0]! ^= 1;
      yield { label: `${label} bit flipped`, value: put(base64urlEncode(bytes)), codes: changed };
    } else if (value !== "") {
      yield { label: `${label} changed`, value: put(`x${value}`), codes: changed };
    }
    yield { label: `${label} as a number`, value: put(7), codes: ["malformed_record"] };
  }
}

/**
 * Opens every mutation of a signed record (`recordMutations`, signature-only changes caught as
 * bad_signature) with `open`: each must be refused with its codes, or with `special(label)`'s
 * where a change is caught earlier. Answers how many were tried.
 */
export async function refuseEveryMutation<T>(signed: T, open: (value: T) => Promise<unknown>, special: (label: string) => CryptoErrorCode[] | undefined = () => undefined): Promise<number> {
  let count = 0;
  for (const mutation of recordMutations(signed, ["bad_signature"])) {
    await expectRefusal(open(mutation.value as T), ...(special(mutation.label) ?? mutation.codes!)).catch((failure: Error) => {
      throw new Error(`${mutation.label}: ${failure.message}`);
    });
    count++;
  }
  return count;
}
