import { decrypt } from "../aead";
import { assertKey, exportPublicKeyRaw, type AccountKeys } from "../account-keys";
import { canonicalJson } from "../canonical-json";
import { base64urlEncode, utf8Decode, utf8Encode, wipe } from "../bytes";
import { type AeadEnvelope, parseEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import { type Key, hkdfSha256, importAesGcmKey, sha256, x25519 } from "../primitives";
import { checkId, encryptRecord } from "./place";

/**
 * A user's own encrypted account data (docs/protocol.md, "Pins and anchors"): small JSON values
 * the server keeps for its owner only, such as the identity pins, so another browser of the same
 * user has them, while the server never reads them. The key is derived from the account keys
 * alone, so nothing new has to be kept or wrapped:
 *
 *   shared = X25519(own private, own public)
 *   key    = HKDF-SHA-256(ikm = shared, salt = own X25519 public, info = "sealwork/v2/account-data", 32)
 *   aad    = "account-data:<kind>:<userId>"
 *
 * The X25519 of a key with its own public half is a secret only the owner can compute (it is the
 * Diffie-Hellman of the owner with themself) and needs no extractable private key. The value is
 * the canonical JSON of the payload, `encrypt`ed (AES-256-GCM) under that key. Another account
 * key (a rotation, a new key) opens nothing sealed under the old one: the client then starts over
 * or re-seals what it opened with the old keys.
 */

export const ACCOUNT_DATA_KINDS = ["pins"] as const;
export type AccountDataKind = (typeof ACCOUNT_DATA_KINDS)[number];

export interface AccountDataPlace {
  userId: number;
  kind: AccountDataKind;
}

const INFO = utf8Encode("sealwork/v2/account-data");

export function accountDataAad(place: AccountDataPlace): string {
  const userId = checkId(place?.userId, "a user id");
  if (!ACCOUNT_DATA_KINDS.includes(place.kind)) throw new CryptoError("invalid_input", `account data kinds are ${ACCOUNT_DATA_KINDS.join(", ")}`);
  return `account-data:${place.kind}:${userId}`;
}

async function accountDataKey(keys: AccountKeys): Promise<Key> {
  assertKey(keys?.encrypt?.privateKey, "X25519", "private");
  assertKey(keys?.encrypt?.publicKey, "X25519", "public");
  const shared = await x25519(keys.encrypt.privateKey, keys.encrypt.publicKey);
  const raw = await hkdfSha256(shared, await exportPublicKeyRaw(keys.encrypt.publicKey), INFO, 32);
  wipe(shared);
  const key = await importAesGcmKey(raw, false);
  wipe(raw);
  return key;
}

/** Encrypts `value` (JSON) as the owner's account data of `kind`; answers the envelope's text. */
export async function sealAccountData(keys: AccountKeys, place: AccountDataPlace, value: unknown): Promise<string> {
  return sealAccountDataWith(keys, place, value, undefined);
}

/** sealAccountData with the nonce supplied: for known-answer tests only. */
export async function sealAccountDataWith(keys: AccountKeys, place: AccountDataPlace, value: unknown, nonce: Uint8Array | undefined): Promise<string> {
  const aad = accountDataAad(place);
  let text: string;
  try {
    text = canonicalJson(value);
  } catch (cause) {
    throw new CryptoError("invalid_input", "account data is a JSON value", { cause });
  }
  return encryptRecord(await accountDataKey(keys), utf8Encode(text), aad, nonce);
}

/**
 * Opens the owner's account data of `kind`. Another user's, another kind's, another key's or an
 * altered envelope: decrypt_failed; not JSON inside: invalid_payload. The caller checks the
 * value's own shape.
 */
export async function openAccountData(keys: AccountKeys, place: AccountDataPlace, envelope: AeadEnvelope | string): Promise<unknown> {
  const env = parseEnvelope(envelope, "aead");
  const aad = accountDataAad(place);
  const bytes = await decrypt(await accountDataKey(keys), env, { aad });
  try {
    return JSON.parse(utf8Decode(bytes)) as unknown;
  } catch (cause) {
    throw new CryptoError("invalid_payload", "account data holds JSON", { cause });
  }
}

/**
 * A value's mark: 16 bytes of SHA-256 over `sealwork/v2/account-data-mark\n` and its canonical
 * JSON, base64url. The same for the value sealed and the value opened, so a client can name a
 * saved value in the next one (the pins' line of saves, docs/protocol.md §14.10: two browsers shown
 * different lines by the server tell them apart once one sees the other's).
 */
export async function accountDataMark(value: unknown): Promise<string> {
  let text: string;
  try {
    text = canonicalJson(value);
  } catch (cause) {
    throw new CryptoError("invalid_input", "account data is a JSON value", { cause });
  }
  return base64urlEncode((await sha256(utf8Encode(`sealwork/v2/account-data-mark\n${text}`))).subarray(0, 16));
}
