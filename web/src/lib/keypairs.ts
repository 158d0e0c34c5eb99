import { KEY_LOOKUP_CLOCK_SKEW_SECONDS, keypairRecord, tempKeypairRecord, type KeypairView, type Response } from "@sealwork/contracts";
import {
  type AccountKeys,
  type SecureCodeWrapEnvelope,
  type SignedIdentity,
  accountPublicKeys,
  importAccountPublicKeys,
  parseEnvelope,
  serializeEnvelope,
  signRecord,
  verifyRecord,
} from "@sealwork/crypto";
import { queryOptions } from "@tanstack/react-query";
import { call } from "./api";
import { i18next } from "./i18n";
import { queryKeys } from "./query-keys";
import { TEST_CHECKS, checkOff, rememberSecureCodeAnswer } from "./build-settings";
import { dropMovedKeys, getUnlockedKeys } from "./unlocked-keys";

/**
 * The account-key calls (spec 000 §7) and the checks every client makes on their answers. In lib
 * because the key popup, settings and (later) every feature that seals for someone use them.
 */
export type KeyState = Extract<Response<"GET /api/keypairs">, { instance: unknown }>;
export type { KeypairView };

/** GET /api/keypairs: the signed-in user's key (or null), the instance and the server time. */
export async function fetchKeyState(signal?: AbortSignal): Promise<KeyState> {
  const reply = await call("GET /api/keypairs", { signal });
  if (!("instance" in reply)) throw new Error("GET /api/keypairs answered with a key lookup");
  // Test build only (test/malicious): what the answer says about secure codes is kept, as protocol v1 did.
  if (TEST_CHECKS && checkOff("securecode-from-build")) rememberSecureCodeAnswer(reply.instance);
  return reply;
}

/**
 * Looks up whether the key `keyId` held in this page is still the account's current one; if the
 * account has another (renewed in another browser, reset by an administrator), the held keys go
 * and the key popup asks for the code (docs/protocol.md §12, "Other browsers"). The server's
 * answer only ever makes the page forget a key, never trust one; nor one loaded meanwhile.
 */
export async function dropKeysIfMoved(keyId: number): Promise<void> {
  const state = await fetchKeyState();
  if (state.keypair && state.keypair.id !== keyId && getUnlockedKeys()?.keyId === keyId) dropMovedKeys();
}

export const keyStateQuery = queryOptions({
  queryKey: queryKeys.keypairs.own(),
  queryFn: ({ signal }) => fetchKeyState(signal),
});

/**
 * The public halves of `keys` with their signature: over `keypairRecord` for the user's own key,
 * or over `tempKeypairRecord` (no uid yet) for an invitee's temporary key (docs/protocol.md §13).
 */
export async function signedPublicKey(keys: AccountKeys, subject: { uid: number } | "temp") {
  const pub = await accountPublicKeys(keys);
  const timestamp = Math.floor(Date.now() / 1000);
  const record = subject === "temp" ? tempKeypairRecord({ ...pub, timestamp }) : keypairRecord({ uid: subject.uid, ...pub, timestamp });
  const signature = await signRecord(keys.sign.privateKey, record);
  return { encrypt_public: pub.encryptPublic, sign_public: pub.signPublic, timestamp, signature: { ...signature } };
}

/**
 * Signs the record of the new public keys and registers them with their backup in place of
 * `lastKey` (null for the first key), with their identity record when there is one (protocol v2:
 * the setup administrator's root, an invitee's birth record). The server answers 409 when another
 * window was faster.
 */
export async function registerKeypair(uid: number, keys: AccountKeys, backup: SecureCodeWrapEnvelope, lastKey: number | null, identity?: SignedIdentity): Promise<KeypairView> {
  const signed = await signedPublicKey(keys, { uid });
  return call("POST /api/keypairs", { body: { ...signed, backup: { ...backup }, last_key: lastKey, ...(identity ? { identity: { ...identity } } : {}) } });
}

/** POST /api/keypairs/{id}/recover: one's own encrypted backup, checked to be one. */
export async function fetchBackup(id: number): Promise<unknown> {
  const reply = await call("POST /api/keypairs/{id}/recover", { params: { id } });
  return reply.recover;
}

/** True when the envelope holds the public keys the server has on record for the key. */
export function envelopeMatches(envelope: SecureCodeWrapEnvelope, keypair: Pick<KeypairView, "encrypt_public" | "sign_public">): boolean {
  return envelope.encryptPublic === keypair.encrypt_public && envelope.signPublic === keypair.sign_public;
}

/**
 * Rejects unless the key record carries its owner's valid signature over these public keys: the
 * uid-bound record for a normal key, the invitation's record for a temporary one.
 */
export async function verifyKeypair(record: {
  uid: number;
  type?: KeypairView["type"];
  encrypt_public: string;
  sign_public: string;
  timestamp: number;
  signature: unknown;
}): Promise<void> {
  const keys = await importAccountPublicKeys({ encryptPublic: record.encrypt_public, signPublic: record.sign_public });
  const fields = { encryptPublic: record.encrypt_public, signPublic: record.sign_public, timestamp: record.timestamp };
  const signed = record.type === "temp" ? tempKeypairRecord(fields) : keypairRecord({ uid: record.uid, ...fields });
  await verifyRecord(keys.sign, signed, record.signature as never);
}

// --- key files --------------------------------------------------------------------------------

export const keyFileName = (uid: number, keyId: number) => `sealwork-key-${uid}-${keyId}.json`;

/** The export: the secure-code-wrap envelope as canonical JSON, nothing else. */
export function keyFileBlob(envelope: SecureCodeWrapEnvelope): Blob {
  return new Blob([serializeEnvelope(envelope)], { type: "application/json" });
}

/** Reads an exported key file (pretty-printed copies are accepted); throws on anything else. */
export async function readKeyFile(file: Blob): Promise<SecureCodeWrapEnvelope> {
  if (file.size > 64 * 1024) throw new Error("a key file is small; this one is not");
  const text = (await file.text()).trim();
  return parseEnvelope(JSON.parse(text) as unknown, "secure-code-wrap");
}

// --- other users' keys ------------------------------------------------------------------------

export type KeyLookupFailure = "clock" | "invalid" | "userFailed" | "keyFailed";

/** A failed lookup of someone's key, with the spec's text (spec 000 §8, key lookups). */
export class KeyLookupError extends Error {
  readonly reason: KeyLookupFailure;
  constructor(reason: KeyLookupFailure, options: { cause?: unknown } = {}) {
    super(i18next.t(`common:keyLookup.${reason}`), options);
    this.name = "KeyLookupError";
    this.reason = reason;
  }
}

export interface UserKey {
  uid: number;
  id: number;
  encryptPublic: string;
  signPublic: string;
  timestamp: number;
}

/**
 * Another user's current public keys, for sealing to them (spec 000 §5): the key must be valid,
 * the clocks of client and server within 3600 s, and the record must carry the owner's signature.
 */
export async function lookupUserKey(uid: number): Promise<UserKey> {
  let brief: Response<"GET /api/keypairs">;
  try {
    brief = await call("GET /api/keypairs", { query: { fetch_only: "1", uid } });
  } catch (cause) {
    throw new KeyLookupError("userFailed", { cause });
  }
  if (!("valid" in brief)) throw new KeyLookupError("userFailed");
  if (Math.abs(brief.now - Date.now() / 1000) > KEY_LOOKUP_CLOCK_SKEW_SECONDS) throw new KeyLookupError("clock");
  if (!brief.valid || brief.id === null) throw new KeyLookupError("invalid");
  let record: Response<"GET /api/keypairs/{id}">;
  try {
    record = await call("GET /api/keypairs/{id}", { params: { id: brief.id } });
  } catch (cause) {
    throw new KeyLookupError("keyFailed", { cause });
  }
  const { metadata } = record;
  if (metadata.uid !== uid || !metadata.valid) throw new KeyLookupError("invalid");
  try {
    await verifyKeypair({ ...record, uid, timestamp: metadata.timestamp });
  } catch (cause) {
    throw new KeyLookupError("invalid", { cause });
  }
  return { uid, id: brief.id, encryptPublic: record.encrypt_public, signPublic: record.sign_public, timestamp: metadata.timestamp };
}
