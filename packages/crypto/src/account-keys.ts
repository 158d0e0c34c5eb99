import { type Bytes, base64urlEncode, concatBytes, copyBytes, hexDecode, tryBase64urlDecode, wipe } from "./bytes";
import { CryptoError } from "./errors";
import { type Key, type KeyPair, subtle } from "./primitives";

/**
 * A user's account keys: X25519 to receive sealed keys, Ed25519 to sign what the server keeps
 * for them. Private keys are made (and unwrapped) extractable because wrapping them under a
 * secure code needs their bytes; they leave this package only inside a secure-code-wrap
 * envelope. The copy a client keeps in memory afterwards is `lockAccountKeys`'s, which no script
 * can read back (issue 11, item 8).
 */
export interface AccountKeys {
  encrypt: KeyPair;
  sign: KeyPair;
}

/** The public halves as raw base64url (32 bytes each): what the server stores and shows. */
export interface AccountPublicKeys {
  encryptPublic: string;
  signPublic: string;
}

export type CurveName = "X25519" | "Ed25519";

/** A public key as a JWK (RFC 8037): exactly these three members. */
export interface OkpPublicJwk {
  kty: "OKP";
  crv: CurveName;
  x: string;
}

const USAGES = {
  X25519: { private: ["deriveBits"], public: [] },
  Ed25519: { private: ["sign"], public: ["verify"] },
} as const;

export async function generateAccountKeys(): Promise<AccountKeys> {
  const s = subtle();
  try {
    const encrypt = (await s.generateKey({ name: "X25519" }, true, ["deriveBits"])) as KeyPair;
    const sign = (await s.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as KeyPair;
    return { encrypt, sign };
  } catch (cause) {
    throw new CryptoError("crypto_unavailable", "this runtime cannot generate X25519/Ed25519 keys", { cause });
  }
}

export function assertKey(key: Key, curve: CurveName, type: "public" | "private"): void {
  if (key?.type !== type || key.algorithm?.name !== curve) {
    throw new CryptoError("invalid_key", `expected an ${curve} ${type} key`);
  }
}

export async function exportPublicKeyRaw(key: Key): Promise<Bytes> {
  if (key?.type !== "public") throw new CryptoError("invalid_key", "expected a public key");
  return new Uint8Array(await subtle().exportKey("raw", key));
}

/** A public key as raw base64url (the default) or as a JWK. */
export async function exportPublicKey(key: Key, format?: "raw"): Promise<string>;
export async function exportPublicKey(key: Key, format: "jwk"): Promise<OkpPublicJwk>;
export async function exportPublicKey(key: Key, format: "raw" | "jwk" = "raw"): Promise<string | OkpPublicJwk> {
  const curve = key?.algorithm?.name;
  if (curve !== "X25519" && curve !== "Ed25519") throw new CryptoError("invalid_key", "expected an X25519 or Ed25519 key");
  const x = base64urlEncode(await exportPublicKeyRaw(key));
  return format === "jwk" ? { kty: "OKP", crv: curve, x } : x;
}

export function importEncryptionPublicKey(input: string | OkpPublicJwk): Promise<Key> {
  return importPublicKey("X25519", input);
}

export function importSigningPublicKey(input: string | OkpPublicJwk): Promise<Key> {
  return importPublicKey("Ed25519", input);
}

async function importPublicKey(curve: CurveName, input: string | OkpPublicJwk): Promise<Key> {
  const raw = typeof input === "string" ? tryBase64urlDecode(input) : fromJwk(curve, input);
  if (!raw || raw.length !== 32) throw new CryptoError("invalid_key", `not a raw ${curve} public key`);
  try {
    return await subtle().importKey("raw", raw, { name: curve }, true, [...USAGES[curve].public]);
  } catch (cause) {
    throw new CryptoError("invalid_key", `not a valid ${curve} public key`, { cause });
  }
}

function fromJwk(curve: CurveName, jwk: unknown): Bytes | undefined {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) return undefined;
  const record = jwk as Record<string, unknown>;
  // Exactly kty, crv, x: in particular a JWK carrying "d" (private material) is refused.
  const keys = Object.keys(record).sort().join(",");
  if (keys !== "crv,kty,x" || record.kty !== "OKP" || record.crv !== curve) return undefined;
  return tryBase64urlDecode(record.x);
}

export async function accountPublicKeys(keys: AccountKeys): Promise<AccountPublicKeys> {
  assertKey(keys?.encrypt?.publicKey, "X25519", "public");
  assertKey(keys?.sign?.publicKey, "Ed25519", "public");
  return {
    encryptPublic: await exportPublicKey(keys.encrypt.publicKey),
    signPublic: await exportPublicKey(keys.sign.publicKey),
  };
}

export async function importAccountPublicKeys(pub: AccountPublicKeys): Promise<{ encrypt: Key; sign: Key }> {
  return {
    encrypt: await importEncryptionPublicKey(pub?.encryptPublic),
    sign: await importSigningPublicKey(pub?.signPublic),
  };
}

/*
 * Private keys travel as their 32-byte seed (RFC 7748 / RFC 8032 private key). PKCS#8 output
 * differs between engines (some add the public key), the seed does not; WebCrypto imports a
 * seed only inside PKCS#8, so we add the fixed RFC 8410 prefix ourselves.
 */
const PKCS8_PREFIX: Record<CurveName, Bytes> = {
  X25519: hexDecode("302e020100300506032b656e04220420"),
  Ed25519: hexDecode("302e020100300506032b657004220420"),
};

export async function exportPrivateSeed(key: Key, curve: CurveName): Promise<{ seed: Bytes; publicRaw: Bytes }> {
  assertKey(key, curve, "private");
  if (!key.extractable) throw new CryptoError("invalid_key", "the private key is not extractable");
  const jwk = await subtle().exportKey("jwk", key);
  const seed = tryBase64urlDecode(jwk.d);
  const publicRaw = tryBase64urlDecode(jwk.x);
  if (!seed || seed.length !== 32 || !publicRaw || publicRaw.length !== 32) {
    throw new CryptoError("invalid_key", `unexpected ${curve} private key export`);
  }
  return { seed, publicRaw };
}

/** Imports a seed and returns the public key WebCrypto derives from it, to check against. */
export async function importPrivateSeed(seed: Uint8Array, curve: CurveName): Promise<{ privateKey: Key; publicRaw: Bytes }> {
  if (seed.length !== 32) throw new CryptoError("invalid_key", `a ${curve} seed has 32 bytes`);
  const pkcs8 = concatBytes(PKCS8_PREFIX[curve], seed);
  try {
    const privateKey = await subtle().importKey("pkcs8", pkcs8, { name: curve }, true, [...USAGES[curve].private]);
    const jwk = await subtle().exportKey("jwk", privateKey);
    const publicRaw = tryBase64urlDecode(jwk.x);
    if (!publicRaw || publicRaw.length !== 32) throw new CryptoError("invalid_key", "no public key in export");
    return { privateKey, publicRaw };
  } finally {
    pkcs8.fill(0);
  }
}

/** Rebuilds a key pair from a seed (tests and known-answer vectors use fixed seeds). */
export async function keyPairFromSeed(seed: Uint8Array, curve: CurveName): Promise<KeyPair> {
  const { privateKey, publicRaw } = await importPrivateSeed(copyBytes(seed), curve);
  const publicKey = await subtle().importKey("raw", publicRaw, { name: curve }, true, [...USAGES[curve].public]);
  return { privateKey, publicKey };
}

/**
 * The same key pairs with private halves that cannot be exported (WebCrypto `extractable:
 * false`): what a client keeps once the keys are wrapped, so that a script running in the page
 * can use them while it runs but never copy them out. Re-wrapping needs the extractable keys of
 * `unwrapAccountKeys` again (the secure code opens the envelope afresh).
 */
export async function lockAccountKeys(keys: AccountKeys): Promise<AccountKeys> {
  const lock = async (pair: KeyPair, curve: CurveName): Promise<KeyPair> => {
    assertKey(pair?.publicKey, curve, "public");
    if (!pair.privateKey?.extractable) {
      assertKey(pair?.privateKey, curve, "private");
      return pair;
    }
    const { seed } = await exportPrivateSeed(pair.privateKey, curve);
    const pkcs8 = concatBytes(PKCS8_PREFIX[curve], seed);
    try {
      const privateKey = await subtle().importKey("pkcs8", pkcs8, { name: curve }, false, [...USAGES[curve].private]);
      return { privateKey, publicKey: pair.publicKey };
    } finally {
      wipe(pkcs8);
      wipe(seed);
    }
  };
  return { encrypt: await lock(keys?.encrypt, "X25519"), sign: await lock(keys?.sign, "Ed25519") };
}
