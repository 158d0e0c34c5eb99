import {
  SENTINEL_TOLERANCE_SECONDS,
  id as idSchema,
  keypairRecord,
  newKeypair,
  tempKeypairRecord,
  type InstanceInfo,
  type KeypairFetchOnly,
  type KeypairPublic,
  type KeypairTarget,
  type KeypairView,
} from "@sealwork/contracts";
import {
  type EnvelopeKind,
  type EnvelopeOf,
  importAccountPublicKeys,
  isCryptoError,
  keyId as identityKeyId,
  parseEnvelope,
  serializeEnvelope,
  verifyRecord,
} from "@sealwork/crypto";
import type * as z from "zod";
import { can, requireMember, type Actor } from "../access";
import { nextId } from "../db/counter";
import { cancellationReasons, db, type TransactionEntities } from "../db/service";
import { CertifiedBirth } from "./certified-birth";
import { TEMP_SIGNER, currentKey as current } from "./current";
import { type KeyResetItem, type KeypairItem, type TransitItem } from "./entities";
import { KeyResets } from "./resets";
import { fail, valid } from "../errors";
import { logger } from "../http/logger";
import { IdentityRecords } from "../identity/records";
import type { IdentityItem } from "../identity/entities";
import { instanceInfo } from "../instance/info";
import { Queue } from "../queue";
import { Invitation } from "../invite/read";
import { getUser } from "../user/read";
import "../conversation/errors";
import "../identity/errors";
import "../invite/errors";
import "./entities";
import "./errors";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Account keys (spec 000 §3–§5, §7; docs/protocol.md §3). The server keeps each user's public
 * keys, their signature over them and the secure-code-wrap backup; the private keys and the
 * secure code never reach it. One key per user is current (KeyHead); registering a new one names
 * the key it replaces, so two windows cannot both replace it.
 *
 * What the server checks, because it is cheap (well under a millisecond per key) and stops a
 * buggy or hostile client from storing something no one could use: both envelopes parse as
 * version 1 of their kind, the public keys are valid points, the backup carries the same public
 * keys, and the signature verifies over the record of this user's keys. Clients verify the
 * signature again when they use someone's key: the server is not trusted for it.
 */
export namespace Keypair {
  export interface State {
    keypair: KeypairView | null;
    instance: InstanceInfo;
    schemas: never[];
    actions: never[];
    series: never[];
    now: number;
  }


  /** GET /api/keypairs: the actor's current key (or null), the instance, and the server time. */
  export async function state(actor: Actor): Promise<State> {
    const { uid } = requireMember(actor);
    const [keypair, instance] = await Promise.all([current(uid), instanceInfo()]);
    return {
      keypair: keypair ? view(keypair.item, keypair.valid) : null,
      instance,
      schemas: [],
      actions: [],
      series: [],
      now: nowSeconds(),
    };
  }

  /** GET /api/keypairs?fetch_only=1&uid=: whether another user's key may be used, and the time. */
  export async function fetchOnly(actor: Actor, uid: number): Promise<KeypairFetchOnly> {
    valid(idSchema, uid);
    requireMember(actor);
    if (!(await getUser(uid))) fail("user_not_found");
    const found = await current(uid);
    // A temporary (invitation) key is not for sealing to: its owner has not taken it over yet.
    const usable = Boolean(found?.valid && found.item.type === "public");
    return { id: found?.item.id ?? null, valid: usable, sentinel: found?.item.sentinel ?? null, now: nowSeconds() };
  }

  /**
   * POST /api/keypairs: registers the actor's new key in place of `last_key`, with its identity
   * record when one is given (protocol v2: stored in the same transaction, seq create-only).
   *
   * Replacing an invitation's temporary key is the takeover (docs/protocol.md §13, §14.3): the
   * invitee's keys must be fresh (not the temporary ones the administrator's browser made), the
   * invitation still valid, and where it is signed the identity record must be the birth record
   * it certifies. The temporary key and its transit envelope are deleted in the same transaction.
   * Replacing a key reset's temporary key is the same, certified by the reset instead (§14.3, "Key
   * resets"): the identity record is required and the reset's item goes too.
   */
  export async function register(actor: Actor, body: z.input<typeof newKeypair>): Promise<KeypairView> {
    const input = valid(newKeypair, body);
    const { uid, user } = requireMember(actor);
    const now = nowSeconds();
    const record = keypairRecord({ uid, encryptPublic: input.encrypt_public, signPublic: input.sign_public, timestamp: input.timestamp });
    const checked = await checkNew(input, record, now);
    const head = input.last_key === null ? undefined : await current(uid);
    const temp = head?.item.id === input.last_key && head.item.type === "temp" ? head.item : undefined;
    const certifier = temp ? await takeover(temp, input, now) : { invitation: null, reset: null, legacy: await CertifiedBirth.legacyCertificate(head?.item, input) };
    const keys = { encryptPublic: input.encrypt_public, signPublic: input.sign_public };
    const identity: IdentityItem | undefined =
      input.identity === undefined ? undefined : await IdentityRecords.checkNew(uid, input.identity, { keys, contacts: [user.email, user.phone], ...certifier });
    const item: KeypairItem = { id: await nextId("keypair"), userId: uid, type: "public", sentinel: now, ...checked };
    const signingKeyId = await identityKeyId(keys);
    // Before the write: whatever is sealed for the user from here on may be for the new key (the key-moved job keeps it).
    const movedAt = Date.now();
    const result = await db()
      .transaction.write((tx) => [
        tx.keypair.create(item).commit(),
        input.last_key === null
          ? tx.keyhead.create({ userId: uid, keyId: item.id, valid: true, signingKeyId, updatedAt: now }).commit()
          : tx.keyhead
              .patch({ userId: uid })
              .set({ keyId: item.id, valid: true, signingKeyId, updatedAt: now })
              .where((attr, op) => op.eq(attr.keyId, input.last_key!))
              .commit(),
        ...(identity ? [IdentityRecords.publication(tx, identity)] : []),
        // The takeover: the temporary keys' item and their 40-bit-code wrap go for good.
        ...(temp ? [tx.keypair.delete({ id: temp.id }).commit(), tx.transit.delete({ keyId: temp.id }).commit()] : []),
        ...(certifier.reset !== null ? [tx.keyreset.delete({ userId: uid }).commit()] : []),
      ])
      .go();
    if (result.canceled) {
      // The head's condition: another window registered a key first; the identity's: it published that seq first.
      const reasons = cancellationReasons(result);
      fail(reasons[1] === "ConditionalCheckFailed" || !identity ? "keypair_stale" : "identity_conflict");
    }
    // A key in place of one the user held (renewed, or after a reset; not an invitation's first):
    // what groups sealed for them is for the old one (the key-moved job marks it, group domain).
    if (head?.item.type === "public" || certifier.reset !== null) {
      await Queue.send({ type: "key-moved", userId: uid, movedAt }).catch((error: unknown) => logger.error("the key-moved job was not queued", { userId: uid, error: error as Error }));
    }
    return view(item, true);
  }

  /** The takeover of the temporary key `temp`: fresh keys, certified as `CertifiedBirth.ofTakeover` says. */
  async function takeover(temp: KeypairItem, input: { encrypt_public: string; sign_public: string; identity?: unknown }, now: number) {
    if (temp.encryptPublic === input.encrypt_public || temp.signPublic === input.sign_public) fail("takeover_fresh_keys");
    return CertifiedBirth.ofTakeover(temp, input, now);
  }

  /** The transaction items that store `key` and make it its owner's current key (a new account's first). */
  export function creation(tx: TransactionEntities, key: KeypairItem) {
    const signer = key.type === "temp" ? { signingKeyId: TEMP_SIGNER } : {};
    return [tx.keypair.create(key).commit(), tx.keyhead.create({ userId: key.userId, keyId: key.id, valid: true, ...signer, updatedAt: key.sentinel }).commit()];
  }


  export interface NewKeyInput {
    encrypt_public: string;
    sign_public: string;
    timestamp: number;
    signature: unknown;
    backup: unknown;
  }

  /**
   * The checks of a key about to be stored (see above), with the signature verified over
   * `record` (a normal key's record, or an invitation's temporary-key record). Returns the stored
   * fields; the actor adds id, owner, type and sentinel.
   */
  export async function checkNew(input: NewKeyInput, record: unknown, now = nowSeconds()) {
    // The signed timestamp orders a user's keys; a client whose clock is this far off is refused.
    if (Math.abs(input.timestamp - now) > SENTINEL_TOLERANCE_SECONDS) fail("clock_skew");

    const backup = parse(input.backup, "secure-code-wrap", "backup_invalid");
    if (backup.encryptPublic !== input.encrypt_public || backup.signPublic !== input.sign_public) {
      fail("backup_invalid", { message: "The key backup holds other keys than the ones registered." });
    }
    const signature = parse(input.signature, "record-signature", "keypair_signature_invalid");
    const keys = await importAccountPublicKeys({ encryptPublic: input.encrypt_public, signPublic: input.sign_public }).catch((error: unknown) => {
      if (isCryptoError(error)) fail("keypair_invalid");
      throw error;
    });
    await verifyRecord(keys.sign, record, signature).catch((error: unknown) => {
      if (isCryptoError(error)) fail("keypair_signature_invalid");
      throw error;
    });
    return {
      timestamp: input.timestamp,
      encryptPublic: input.encrypt_public,
      signPublic: input.sign_public,
      signature: serializeEnvelope(signature),
      backup: serializeEnvelope(backup),
    };
  }

  /**
   * An invitation's or a key reset's temporary key (docs/protocol.md §13): checked like any key,
   * its signature over `tempKeypairRecord` and the transit envelope holding the same public keys.
   * Answers the stored fields (without a backup) and the transit envelope's canonical text.
   */
  export async function checkTemp(pub: Omit<NewKeyInput, "backup">, transit: unknown, now = nowSeconds()) {
    const record = tempKeypairRecord({ encryptPublic: pub.encrypt_public, signPublic: pub.sign_public, timestamp: pub.timestamp });
    const { backup, ...key } = await checkNew({ ...pub, backup: transit }, record, now);
    return { key, transit: backup };
  }

  /** GET /api/keypairs/{id}: a key's public halves, signature and metadata (any member). */
  export async function publicKey(actor: Actor, id: number): Promise<KeypairPublic> {
    requireMember(actor);
    const item = await get(id);
    const valid = await isCurrent(item);
    return {
      encrypt_public: item.encryptPublic,
      sign_public: item.signPublic,
      signature: JSON.parse(item.signature) as Record<string, unknown>,
      metadata: { uid: item.userId, type: item.type, valid, timestamp: item.timestamp, sentinel: item.sentinel },
    };
  }

  /**
   * GET /api/keypairs/target?type=user: the key to seal for, the user's current valid key (or
   * nothing). type=group is the group domain's (GroupTargets: each member's).
   */
  export async function targets(actor: Actor, id: number): Promise<KeypairTarget[]> {
    valid(idSchema, id);
    requireMember(actor);
    const found = await current(id);
    if (!found?.valid || found.item.type !== "public") return [];
    const { item } = found;
    return [
      {
        user_id: item.userId,
        id: item.id,
        encrypt_public: item.encryptPublic,
        sign_public: item.signPublic,
        timestamp: item.timestamp,
        signature: JSON.parse(item.signature) as Record<string, unknown>,
      },
    ];
  }

  /**
   * POST /api/keypairs/{id}/recover: the encrypted backup, for the key's owner only. For an
   * invitation's or a key reset's temporary key that is the transit envelope, while the invitation
   * or the reset is valid: once it has expired the envelope is deleted (if the TTL has not done it
   * yet) and refused.
   */
  export async function recover(actor: Actor, id: number): Promise<{ id: number; recover: Record<string, unknown> }> {
    requireMember(actor);
    const item = await get(id);
    // Anyone holding a backup can guess codes offline, so it goes to its owner and nobody else.
    if (!can(actor, "recover", { kind: "keypair", ownerId: item.userId })) fail("forbidden");
    if (item.type === "temp") return { id: item.id, recover: JSON.parse(await transitOf(item)) as Record<string, unknown> };
    if (!item.backup) fail("backup_not_found");
    return { id: item.id, recover: JSON.parse(item.backup) as Record<string, unknown> };
  }

  async function transitOf(item: KeypairItem): Promise<string> {
    const reset = await KeyResets.of(item);
    if (reset && KeyResets.expired(reset)) {
      await dropTransit(item);
      fail("key_reset_expired");
    }
    const invite = reset ? undefined : await Invitation.ofUser(item.userId);
    if (invite && Invitation.expired(invite)) {
      await dropTransit(item);
      fail("invite_expired");
    }
    const { data: transit } = await db().entities.transit.get({ keyId: item.id }).go();
    // Temporary keys stored before transit items existed carry the envelope as their backup.
    const envelope = transit?.envelope ?? item.backup;
    return envelope ?? fail("backup_not_found");
  }

  /** Deletes a temporary key's transit envelope (an expired invitation's or reset's): the item and the older in-place copy. */
  async function dropTransit(item: KeypairItem): Promise<void> {
    await db().entities.transit.delete({ keyId: item.id }).go();
    if (item.backup) await db().entities.keypair.patch({ id: item.id }).remove(["backup"]).go();
  }

  /** The transaction item that stores a new temporary key's transit envelope, deleted by the TTL when the invitation's validity ends. */
  export function transitCreation(tx: TransactionEntities, key: KeypairItem, envelope: string, expiresAt: number) {
    const item: TransitItem = { keyId: key.id, envelope, expiresAt };
    return tx.transit.create(item).commit();
  }

  /**
   * The transaction items that replace an invitee's temporary key `oldId` (still their current
   * key) by a new one with its transit envelope: an expired invitation issued again.
   */
  export function tempReplacement(tx: TransactionEntities, oldId: number, key: KeypairItem, envelope: string, expiresAt: number) {
    return [...tempInstallation(tx, oldId, key, envelope, expiresAt), tx.keypair.delete({ id: oldId }).commit(), tx.transit.delete({ keyId: oldId }).commit()];
  }

  /** The temporary key `key` stored with its transit envelope and made its owner's current key, on the condition that `oldId` still is. */
  function tempInstallation(tx: TransactionEntities, oldId: number, key: KeypairItem, envelope: string, expiresAt: number) {
    return [
      tx.keypair.create(key).commit(),
      tx.keyhead
        .patch({ userId: key.userId })
        .set({ keyId: key.id, valid: true, signingKeyId: TEMP_SIGNER, updatedAt: key.sentinel })
        .where((attr, op) => op.eq(attr.keyId, oldId))
        .commit(),
      transitCreation(tx, key, envelope, expiresAt),
    ];
  }

  /**
   * The transaction items of a key reset (docs/protocol.md §14.3, "Key resets"): the temporary key
   * `key` becomes its owner's current key in place of `oldId` on the condition that `oldId` still
   * is (of two administrators resetting at once, one wins), with its transit envelope until the
   * reset's end, and the reset's item. When `oldId` is an earlier reset's temporary key
   * (`supersedes`), that key and its transit go, and the new item takes the old one's place.
   */
  export function resetInstallation(tx: TransactionEntities, oldId: number, supersedes: boolean, key: KeypairItem, envelope: string, reset: KeyResetItem) {
    return [
      ...(supersedes ? tempReplacement(tx, oldId, key, envelope, reset.expiresAt) : tempInstallation(tx, oldId, key, envelope, reset.expiresAt)),
      tx.keyreset.put(reset).commit(),
    ];
  }

  /** A renewed invitation keeps its transit envelope until the new end of its validity. */
  export async function extendTransit(uid: number, expiresAt: number): Promise<void> {
    const head = await current(uid);
    if (head?.item.type !== "temp") return;
    const { data: transit } = await db().entities.transit.get({ keyId: head.item.id }).go();
    if (transit) await db().entities.transit.patch({ keyId: head.item.id }).set({ expiresAt }).go();
  }

  /** A user's current key, whatever its type and validity (the identity routes check what they need). */
  export async function currentKey(uid: number): Promise<{ item: KeypairItem; valid: boolean } | undefined> {
    return current(uid);
  }

  /**
   * Marks a user's current key invalid: their clients show the *invalidated* state and ask for a
   * new key. No route calls it yet (administration will); tests use it.
   */
  export async function invalidate(uid: number): Promise<void> {
    await db().entities.keyhead.patch({ userId: uid }).set({ valid: false, updatedAt: nowSeconds() }).go();
  }

  async function get(id: number): Promise<KeypairItem> {
    valid(idSchema, id);
    const { data } = await db().entities.keypair.get({ id }).go();
    return data ?? fail("keypair_not_found");
  }

  async function isCurrent(item: KeypairItem): Promise<boolean> {
    const { data: head } = await db().entities.keyhead.get({ userId: item.userId }).go();
    return Boolean(head && head.keyId === item.id && head.valid);
  }

  function view(item: KeypairItem, valid: boolean): KeypairView {
    const backup = item.backup ? (JSON.parse(item.backup) as Record<string, unknown>) : undefined;
    return {
      id: item.id,
      uid: item.userId,
      type: item.type,
      valid,
      sentinel: item.sentinel,
      timestamp: item.timestamp,
      encrypt_public: item.encryptPublic,
      sign_public: item.signPublic,
      signature: JSON.parse(item.signature) as Record<string, unknown>,
      backup: backup
        ? {
            kind: "secure-code-wrap",
            alg: String(backup.alg),
            memoryKiB: Number(backup.memoryKiB),
            iterations: Number(backup.iterations),
            parallelism: Number(backup.parallelism),
          }
        : null,
    };
  }
}

function parse<K extends EnvelopeKind>(input: unknown, kind: K, code: "backup_invalid" | "keypair_signature_invalid"): EnvelopeOf<K> {
  try {
    return parseEnvelope(input, kind);
  } catch (error) {
    if (isCryptoError(error)) fail(code);
    throw error;
  }
}
