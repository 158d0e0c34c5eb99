import { isCryptoError, parseEnvelope, serializeEnvelope, type SecureCodeWrapEnvelope } from "@sealwork/crypto";
import { createStore, del, get, promisifyRequest, set, type UseStore } from "idb-keyval";

/**
 * This device's copy of the account key: the secure-code-wrap envelope only, never a private key
 * in the clear (docs/protocol.md §3). One entry per user of this origin in IndexedDB, so that
 * "Logout keeping local cache" and a plain logout keep it, and "Wipe and logout" (which deletes
 * every database of the origin) removes it.
 */
export const VAULT_DATABASE = "sealwork-vault";
const VAULT_STORE = "keys";
const VERSION = 1;

/**
 * Why the key could not be read from storage (spec 000 §8, key popup codes):
 * UNSK no key storage in this browser; UNEK the store cannot be opened; UNIV the entry has an
 * unknown version or shape; UNRD reading the entry failed.
 */
export type VaultErrorCode = "UNSK" | "UNEK" | "UNIV" | "UNRD";

export class VaultError extends Error {
  readonly code: VaultErrorCode;
  constructor(code: VaultErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "VaultError";
    this.code = code;
  }
}

interface StoredEntry {
  v: typeof VERSION;
  uid: number;
  keyId: number;
  /** The envelope as its canonical JSON text. */
  envelope: string;
  savedAt: number;
}

export interface LocalKey {
  uid: number;
  keyId: number;
  envelope: SecureCodeWrapEnvelope;
  savedAt: number;
}

export type LocalKeyResult =
  | { status: "none" }
  | { status: "ok"; key: LocalKey }
  /** An entry exists but its envelope does not parse (LINV): it can only be saved or cleared. */
  | { status: "damaged"; raw: unknown };

let store: UseStore | undefined;

function keyStore(): UseStore {
  if (typeof indexedDB === "undefined") throw new VaultError("UNSK", "IndexedDB is not available");
  store ??= createStore(VAULT_DATABASE, VAULT_STORE);
  return store;
}

const entryKey = (uid: number) => `account:${uid}`;

/** The stored key of this user on this device, if any. Throws VaultError when storage fails. */
export async function loadLocalKey(uid: number): Promise<LocalKeyResult> {
  const raw = await readRaw(uid);
  if (raw === undefined) return { status: "none" };
  if (!isEntry(raw) || raw.uid !== uid) throw new VaultError("UNIV", "the stored key entry has an unknown format");
  try {
    return { status: "ok", key: { uid: raw.uid, keyId: raw.keyId, envelope: parseEnvelope(raw.envelope, "secure-code-wrap"), savedAt: raw.savedAt } };
  } catch (error) {
    if (isCryptoError(error)) return { status: "damaged", raw };
    throw error;
  }
}

/** The stored entry as it is, for "save the local key" when it cannot be used. */
export async function readRaw(uid: number): Promise<unknown> {
  const target = keyStore();
  try {
    // Opening first tells a store that cannot be opened apart from an entry that cannot be read.
    await target("readonly", (s) => promisifyRequest(s.count()));
  } catch (cause) {
    throw new VaultError("UNEK", "the key store cannot be opened", { cause });
  }
  try {
    return await get<unknown>(entryKey(uid), target);
  } catch (cause) {
    throw new VaultError("UNRD", "the stored key cannot be read", { cause });
  }
}

export async function saveLocalKey(uid: number, keyId: number, envelope: SecureCodeWrapEnvelope): Promise<void> {
  const entry: StoredEntry = { v: VERSION, uid, keyId, envelope: serializeEnvelope(envelope), savedAt: Date.now() };
  await set(entryKey(uid), entry, keyStore());
}

export async function clearLocalKey(uid: number): Promise<void> {
  await del(entryKey(uid), keyStore());
}

function isEntry(value: unknown): value is StoredEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    entry.v === VERSION &&
    typeof entry.uid === "number" &&
    typeof entry.keyId === "number" &&
    typeof entry.envelope === "string" &&
    typeof entry.savedAt === "number"
  );
}
