import { exportSymmetricKey, importSymmetricKey } from "./aead";
import { type Bytes, base64urlEncode, concatBytes, equalBytes, tryBase64urlDecode, utf8Encode, wipe } from "./bytes";
import { type PickupWrapEnvelope, associatedData, field, parseEnvelope } from "./envelope";
import { CryptoError } from "./errors";
import { type Argon2idParams, type Key, aesGcmDecrypt, aesGcmEncrypt, argon2idRaw, hkdfSha256, importAesGcmKey, randomBytes, sha256 } from "./primitives";
import { isValidPickupSecurityCode } from "./secure-code";
import { ARGON2ID_DEFAULTS, checkParams } from "./secure-code-wrap";

/**
 * Pickups (docs/protocol.md, Pickups): a conversation key for a guest without an account.
 *
 * - The **pickup code** (10 characters, ABABA-12121) names the pickup. The server never stores
 *   it: it finds a pickup by `pickupLookup(code)`, an Argon2id hash with a per-instance salt.
 * - The **security code** (6 digits) and, for a pickup made with one, the **link secret**
 *   (16 random bytes in the link's fragment, which browsers never send) are the guest's secret.
 * - `derivePickupKeys` stretches code, security code and link secret with Argon2id (the
 *   account-key defaults, a random salt per pickup) and splits the result with HKDF into a
 *   wrap key (AES-256-GCM over the conversation key: the `pickup-wrap` envelope) and an auth
 *   key. The server keeps only SHA-256 of the auth key (`pickupVerifier`) and hands the
 *   envelope out only to a caller who shows the auth key, counting wrong ones.
 */

/** A–Z without I, L, O and U (the look-alikes of 1, 0 and V): 22 letters. */
export const PICKUP_CODE_LETTERS = "ABCDEFGHJKMNPQRSTVWXYZ";
export const PICKUP_CODE_LENGTH = 10;
export const PICKUP_LINK_SECRET_BYTES = 16;
/** The lookup hash: modest, since every lookup and creation runs it (about 0.1 s in a browser). */
export const PICKUP_LOOKUP_PARAMS: Readonly<Argon2idParams> = Object.freeze({ memoryKiB: 19456, iterations: 2, parallelism: 1 });

const CODE_PATTERN = new RegExp(`^[${PICKUP_CODE_LETTERS}]{5}[0-9]{5}$`);
const ALG = "argon2id-hkdf-sha256-aes256gcm" as const;
const LOOKUP_SALT_PREFIX = "sealwork/v1/pickup-lookup/";
const KEY_INFO_PREFIX = "sealwork/v1/pickup/";

/** Exactly five letters of PICKUP_CODE_LETTERS then five digits, as stored in links (no hyphen). */
export function isValidPickupCode(code: string): boolean {
  return typeof code === "string" && CODE_PATTERN.test(code);
}

/** A uniformly random pickup code (rejection sampling: no modulo bias). About 2^38.9 codes. */
export function generatePickupCode(): string {
  const pick = (alphabet: string) => {
    const limit = 256 - (256 % alphabet.length);
    for (;;) {
      const byte = randomBytes(1)[0]!;
      if (byte < limit) return alphabet[byte % alphabet.length]!;
    }
  };
  let code = "";
  for (let i = 0; i < 5; i++) code += pick(PICKUP_CODE_LETTERS);
  for (let i = 0; i < 5; i++) code += pick("0123456789");
  return code;
}

/**
 * A typed code as the server's lookup needs it (spec 000 §5): upper case, spaces and hyphens
 * removed; in the digit half O reads as 0 and I or L as 1. Null if it is not a valid code.
 */
export function normalizePickupCode(input: string): string | null {
  if (typeof input !== "string") return null;
  const chars = input.toUpperCase().replace(/[\s-]/g, "");
  if (chars.length !== PICKUP_CODE_LENGTH) return null;
  const code = chars.slice(0, 5) + chars.slice(5).replace(/O/g, "0").replace(/[IL]/g, "1");
  return isValidPickupCode(code) ? code : null;
}

/** ABABA12121 → ABABA-12121, the form shown to people. */
export function formatPickupCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** 16 random bytes, base64url (22 characters): the secret a pickup link carries in its fragment. */
export function generatePickupLinkSecret(): string {
  return base64urlEncode(randomBytes(PICKUP_LINK_SECRET_BYTES));
}

export interface PickupFragment {
  code: string;
  /** base64url of 16 bytes, or null for a code-only fragment. */
  linkSecret: string | null;
}

/** The first character of a version 2 fragment (a pickup code starts with a letter). */
export const PICKUP_FRAGMENT_V2 = "2";
/** The check at the end of a version 2 fragment: CRC-24 in 4 base64url characters. */
const CHECK_LENGTH = 4;

/**
 * CRC-24 (the OpenPGP armour checksum: polynomial 0x864CFB, initial value 0xB704CE, no
 * reflection, nothing XORed out) over ASCII text. It finds every change of one character, every
 * swap of two neighbours and every burst up to 24 bits; it is a check against damage, not a
 * secret (the link secret stays the secret).
 */
export function crc24(text: string): number {
  let crc = 0xb704ce;
  for (let i = 0; i < text.length; i++) {
    crc ^= (text.charCodeAt(i) & 0xff) << 16;
    for (let bit = 0; bit < 8; bit++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

function fragmentCheck(body: string): string {
  const crc = crc24(body);
  return base64urlEncode(new Uint8Array([crc >>> 16, (crc >>> 8) & 0xff, crc & 0xff]));
}

/**
 * The link's fragment, version 2: "2", the code, the link secret (none for a code-only pickup)
 * and a 4-character check over everything before it (docs/protocol.md, Pickups), so that a link
 * that lost or changed a character is known to be damaged before anything is derived or asked.
 * 37 characters, or 15 for a code-only pickup.
 */
export function pickupFragment(code: string, linkSecret: string | null): string {
  if (!isValidPickupCode(code)) throw new CryptoError("invalid_input", "not a pickup code");
  if (linkSecret !== null) linkSecretBytes(linkSecret);
  const body = PICKUP_FRAGMENT_V2 + code + (linkSecret ?? "");
  return body + fragmentCheck(body);
}

/** `${appUrl}/login#<fragment>`: the address the invitation email carries. */
export function pickupLink(appUrl: string, code: string, linkSecret: string | null): string {
  return `${appUrl.replace(/\/+$/, "")}/login#${pickupFragment(code, linkSecret)}`;
}

/** The fragment part of a link, "#fragment" or a bare fragment, trimmed. */
function fragmentOf(input: string): string {
  const trimmed = input.trim();
  return trimmed.includes("#") ? trimmed.slice(trimmed.lastIndexOf("#") + 1) : trimmed;
}

/**
 * Reads a link, its fragment ("#…") or a pasted fragment without "#":
 *
 * - version 2 (starts with "2"): "2", code, optional link secret, check; the check must match;
 * - version 1, still read (links already sent): 32 characters are a code and a link secret;
 *   10 to 12 characters (the spec's 12-character fragment, or a code with its hyphen) are
 *   code-only, the code being the first ten letters and digits.
 *
 * Anything else, a wrong check included: null (see `isDamagedPickupLink`).
 */
export function parsePickupFragment(input: string): PickupFragment | null {
  if (typeof input !== "string") return null;
  const fragment = fragmentOf(input);
  if (fragment.startsWith(PICKUP_FRAGMENT_V2)) return parseVersion2(fragment);
  if (fragment.length === PICKUP_CODE_LENGTH + 22) {
    const code = fragment.slice(0, PICKUP_CODE_LENGTH);
    const secret = fragment.slice(PICKUP_CODE_LENGTH);
    const bytes = tryBase64urlDecode(secret);
    return isValidPickupCode(code) && bytes?.length === PICKUP_LINK_SECRET_BYTES ? { code, linkSecret: secret } : null;
  }
  if (fragment.length < PICKUP_CODE_LENGTH || fragment.length > 12) return null;
  const code = normalizePickupCode(fragment.replace(/[^A-Za-z0-9]/g, "").slice(0, PICKUP_CODE_LENGTH));
  return code ? { code, linkSecret: null } : null;
}

function parseVersion2(fragment: string): PickupFragment | null {
  const withSecret = 1 + PICKUP_CODE_LENGTH + 22 + CHECK_LENGTH;
  const codeOnly = 1 + PICKUP_CODE_LENGTH + CHECK_LENGTH;
  if (fragment.length !== withSecret && fragment.length !== codeOnly) return null;
  const body = fragment.slice(0, -CHECK_LENGTH);
  if (fragmentCheck(body) !== fragment.slice(-CHECK_LENGTH)) return null;
  const code = body.slice(1, 1 + PICKUP_CODE_LENGTH);
  if (!isValidPickupCode(code)) return null;
  if (fragment.length === codeOnly) return { code, linkSecret: null };
  const secret = body.slice(1 + PICKUP_CODE_LENGTH);
  return tryBase64urlDecode(secret)?.length === PICKUP_LINK_SECRET_BYTES ? { code, linkSecret: secret } : null;
}

/**
 * True when `input` (a link, "#fragment" or a bare fragment) has a fragment that is not a pickup
 * fragment: cut short, a character changed, or anything else `parsePickupFragment` refuses. An
 * empty fragment is not damaged, it is no pickup link at all.
 */
export function isDamagedPickupLink(input: string): boolean {
  if (typeof input !== "string") return false;
  const fragment = fragmentOf(input);
  return fragment.length > 0 && parsePickupFragment(fragment) === null;
}

/**
 * base64url(Argon2id(code, salt = "sealwork/v1/pickup-lookup/" + instance name, 19 MiB, 2
 * passes)): how the server finds a pickup without holding its code. The instance name (public,
 * GET /api/instance) makes the salt differ between instances, so no table serves two of them.
 */
export async function pickupLookup(code: string, instanceName: string): Promise<string> {
  if (!isValidPickupCode(code)) throw new CryptoError("invalid_input", "not a pickup code");
  if (typeof instanceName !== "string" || instanceName.length === 0) throw new CryptoError("invalid_input", "the instance name is empty");
  const out = await argon2idRaw(utf8Encode(code), utf8Encode(LOOKUP_SALT_PREFIX + instanceName), PICKUP_LOOKUP_PARAMS, 32);
  return base64urlEncode(out);
}

export interface PickupSecrets {
  /** The pickup code, as isValidPickupCode accepts it (normalise typed codes first). */
  code: string;
  /** Six digits. */
  securityCode: string;
  /** The link secret (base64url, 16 bytes), or null for a code-only pickup. */
  linkSecret: string | null;
}

/**
 * The weakest Argon2id parameters a guest derives with (issue 11, item 5): the defaults every
 * creator's client uses, 64 MiB and 3 passes. The lookup answer that names the parameters comes
 * from the server, and the guest shows the server the auth key derived with them: a server that
 * answered 1 MiB and 1 pass would get an auth key it could search 10^6 security codes against in
 * seconds (a KDF downgrade). So a guest checks the answer against this floor before deriving
 * anything (`meetsPickupFloor`), and refuses below it.
 */
export const PICKUP_ARGON2ID_FLOOR: Readonly<Argon2idParams> = ARGON2ID_DEFAULTS;

/** Whether `params` are at least the floor in memory and in passes (any lane count the envelope allows). */
export function meetsPickupFloor(params: Argon2idParams, floor: Argon2idParams = PICKUP_ARGON2ID_FLOOR): boolean {
  const { memoryKiB, iterations, parallelism } = params ?? ({} as Argon2idParams);
  if (![memoryKiB, iterations, parallelism].every((n) => typeof n === "number" && Number.isInteger(n) && n >= 1)) return false;
  return memoryKiB >= floor.memoryKiB && iterations >= floor.iterations;
}

/** The public parameters of a pickup's derivation: the server answers them on lookup. */
export interface PickupParams extends Argon2idParams {
  /** base64url, 16 bytes. */
  salt: string;
  /** 1 when the link secret is part of the key. */
  link: 0 | 1;
}

export interface PickupKeys {
  /** Shown to the server to collect the envelope (base64url, 32 bytes). */
  auth: string;
  /** What the server stores to check `auth`: base64url(SHA-256(auth key)). */
  verifier: string;
  /** Opaque to callers: the wrap key and the parameters it was derived with. */
  readonly wrapKey: Key;
  readonly params: PickupParams;
}

/**
 * stretched = Argon2id(UTF-8(code) ‖ UTF-8(securityCode) ‖ linkSecret bytes, salt, params, 32)
 * K = HKDF-SHA-256(stretched, salt "", info "sealwork/v1/pickup/" + code, 64)
 * wrap key = K[0..32], auth key = K[32..64]
 */
export async function derivePickupKeys(secrets: PickupSecrets, params: PickupParams): Promise<PickupKeys> {
  const { code, securityCode, linkSecret } = secrets ?? ({} as PickupSecrets);
  if (!isValidPickupCode(code)) throw new CryptoError("invalid_input", "not a pickup code");
  if (!isValidPickupSecurityCode(securityCode)) throw new CryptoError("invalid_input", "a security code has six digits");
  checkParams(params);
  if (params.link !== 0 && params.link !== 1) throw new CryptoError("invalid_input", "link must be 0 or 1");
  if ((params.link === 1) !== (linkSecret !== null && linkSecret !== undefined)) {
    throw new CryptoError("invalid_input", params.link ? "this pickup needs the secret of its link" : "this pickup has no link secret");
  }
  const salt = tryBase64urlDecode(params.salt);
  if (!salt || salt.length !== 16) throw new CryptoError("invalid_input", "the salt has 16 bytes");
  const secret = params.link ? linkSecretBytes(linkSecret!) : new Uint8Array(0);
  const password = concatBytes(utf8Encode(code), utf8Encode(securityCode), secret);
  let stretched: Bytes | undefined;
  let both: Bytes | undefined;
  try {
    stretched = await argon2idRaw(password, salt, params, 32);
    both = await hkdfSha256(stretched, new Uint8Array(0), utf8Encode(KEY_INFO_PREFIX + code), 64);
    const authKey = both.slice(32);
    const keys: PickupKeys = {
      auth: base64urlEncode(authKey),
      verifier: base64urlEncode(await sha256(authKey)),
      wrapKey: await importAesGcmKey(both.subarray(0, 32)),
      params: { memoryKiB: params.memoryKiB, iterations: params.iterations, parallelism: params.parallelism, salt: params.salt, link: params.link },
    };
    wipe(authKey);
    return keys;
  } finally {
    wipe(password);
    wipe(secret);
    if (stretched) wipe(stretched);
    if (both) wipe(both);
  }
}

/** What the server stores to check an auth key: base64url(SHA-256(auth)). Server and client share it. */
export async function pickupVerifier(auth: string): Promise<string> {
  const bytes = tryBase64urlDecode(auth);
  if (!bytes || bytes.length !== 32) throw new CryptoError("invalid_input", "an auth key has 32 bytes");
  return base64urlEncode(await sha256(bytes));
}

/** The derivation parameters of a pickup-wrap envelope (what the lookup answers). */
export function pickupParams(envelope: PickupWrapEnvelope | string): PickupParams {
  const env = parseEnvelope(envelope, "pickup-wrap");
  return { memoryKiB: env.memoryKiB, iterations: env.iterations, parallelism: env.parallelism, salt: env.salt, link: env.link as 0 | 1 };
}

export interface WrappedPickup {
  envelope: PickupWrapEnvelope;
  auth: string;
  verifier: string;
}

/**
 * The creator's side: wraps the conversation key for the guest. Returns the envelope and the
 * verifier (both for the server) and the auth key (only to test; the creator need not keep it).
 */
export async function wrapPickupKey(
  conversationKey: Key,
  secrets: PickupSecrets,
  params: Argon2idParams = ARGON2ID_DEFAULTS,
): Promise<WrappedPickup> {
  return wrapPickupKeyWith(conversationKey, secrets, params, { salt: randomBytes(16), nonce: randomBytes(12) });
}

/** wrapPickupKey with the randomness supplied: for known-answer tests only. */
export async function wrapPickupKeyWith(
  conversationKey: Key,
  secrets: PickupSecrets,
  params: Argon2idParams,
  fixed: { salt: Uint8Array; nonce: Uint8Array },
): Promise<WrappedPickup> {
  const link = secrets?.linkSecret === null || secrets?.linkSecret === undefined ? 0 : 1;
  const keys = await derivePickupKeys(secrets, { ...pick(params), salt: base64urlEncode(fixed.salt), link });
  const raw = await exportSymmetricKey(conversationKey);
  try {
    const header = { v: 1, kind: "pickup-wrap", alg: ALG, ...pick(params), salt: keys.params.salt, link, nonce: base64urlEncode(fixed.nonce) } as const;
    const ct = await aesGcmEncrypt(keys.wrapKey, fixed.nonce, raw, associatedData(header));
    return { envelope: parseEnvelope({ ...header, ct: base64urlEncode(ct) }, "pickup-wrap"), auth: keys.auth, verifier: keys.verifier };
  } finally {
    wipe(raw);
  }
}

/**
 * The guest's side: opens the envelope the server answered after the auth key with keys derived
 * from the lookup's parameters. Other parameters in the envelope, a wrong code or any change:
 * decrypt_failed. The conversation key comes back as an AES-256-GCM key, not extractable unless
 * asked (a guest never seals it for anyone).
 */
export async function unwrapPickupKey(keys: PickupKeys, envelope: PickupWrapEnvelope | string, { extractable = false }: { extractable?: boolean } = {}): Promise<Key> {
  const env = parseEnvelope(envelope, "pickup-wrap");
  const p = keys?.params;
  const same =
    p !== undefined &&
    p.memoryKiB === env.memoryKiB &&
    p.iterations === env.iterations &&
    p.parallelism === env.parallelism &&
    p.link === env.link &&
    equalBytes(field(env, "salt"), tryBase64urlDecode(p.salt) ?? new Uint8Array(0));
  if (!same) throw new CryptoError("decrypt_failed", "the envelope was not made with these parameters");
  const raw = await aesGcmDecrypt(keys.wrapKey, field(env, "nonce"), field(env, "ct"), associatedData({ ...env }));
  try {
    return await importSymmetricKey(raw, { extractable });
  } finally {
    wipe(raw);
  }
}

function pick(params: Argon2idParams): Argon2idParams {
  return { memoryKiB: params?.memoryKiB, iterations: params?.iterations, parallelism: params?.parallelism };
}

function linkSecretBytes(linkSecret: string): Bytes {
  const bytes = tryBase64urlDecode(linkSecret);
  if (!bytes || bytes.length !== PICKUP_LINK_SECRET_BYTES) throw new CryptoError("invalid_input", "a link secret is 16 bytes, base64url");
  return bytes;
}
