import { type AccountPublicKeys, exportPublicKeyRaw, importAccountPublicKeys } from "./account-keys";
import { concatBytes, base64urlEncode, hexEncode, isWellFormed, utf8Encode } from "./bytes";
import { canonicalJson } from "./canonical-json";
import { CryptoError } from "./errors";
import { type Key, sha256, sha384, sha512 } from "./primitives";

/**
 * The name under which a backup is stored, as spec 000 section 9 gives it: SHA-384, then
 * SHA-256 over that digest, base64url. The name is NFC-normalised first so that the same
 * name typed on different devices finds the same backup.
 */
export async function backupNameDigest(name: string): Promise<string> {
  if (typeof name !== "string" || !isWellFormed(name)) throw new CryptoError("invalid_input", "expected a well-formed string");
  return base64urlEncode(await sha256(await sha384(utf8Encode(name.normalize("NFC")))));
}

/**
 * SHA-256 of a raw public key, as 16 groups of 4 hex digits: what two people read to each
 * other to check a key out of band. Anyone can recompute it from the raw key.
 */
export async function fingerprint(publicKey: Key): Promise<string> {
  return groups(hexEncode(await sha256(await exportPublicKeyRaw(publicKey))));
}

/**
 * One fingerprint for both account public keys, so a swap of either one shows.
 * SHA-256 over a domain prefix and the canonical JSON of the two raw base64url keys.
 */
export async function accountFingerprint(publicKeys: AccountPublicKeys): Promise<string> {
  // Importing validates both keys, so garbage is refused rather than fingerprinted.
  await importAccountPublicKeys(publicKeys);
  const text = canonicalJson({ encryptPublic: publicKeys.encryptPublic, signPublic: publicKeys.signPublic });
  return groups(hexEncode(await sha256(utf8Encode(`sealwork/v1/account-fingerprint\n${text}`))));
}

function groups(hex: string): string {
  return hex.match(/.{4}/g)!.join(" ");
}

/**
 * Protocol v2's name for an identity key: base64url of the first 16 bytes of SHA-256 over
 * "sealwork/v2/key-id\n" and the canonical JSON of the two raw public keys (22 characters).
 * Every v2 record names keys by it. Both keys are imported first, so garbage gets no id.
 */
export async function keyId(publicKeys: AccountPublicKeys): Promise<string> {
  await importAccountPublicKeys(publicKeys);
  return keyIdOf(publicKeys);
}

/** keyId of keys already checked (the records' parsers import them). */
export async function keyIdOf(publicKeys: AccountPublicKeys): Promise<string> {
  const text = canonicalJson({ encryptPublic: publicKeys.encryptPublic, signPublic: publicKeys.signPublic });
  return base64urlEncode((await sha256(utf8Encode(`sealwork/v2/key-id\n${text}`))).subarray(0, 16));
}

/** One side of a safety number: a user and their identity's public keys. */
export interface SafetyNumberParty {
  userId: number;
  encryptPublic: string;
  signPublic: string;
}

/** SHA-512 rounds per side, as Signal's numeric fingerprints: grinding keys for a partial match costs this much more. */
export const SAFETY_NUMBER_ITERATIONS = 5200;

/**
 * The safety number two people compare (in person, on a call) to know that each holds the
 * other's real key: 60 decimal digits in 12 groups of 5, the same whichever side computes it.
 *
 * Each side gets 30 digits of its own (Signal's construction): SHA-512 over
 * "sealwork/v2/safety-number\n" ‖ P, then SAFETY_NUMBER_ITERATIONS − 1 more rounds of
 * SHA-512(previous ‖ P), where P is the canonical JSON of { encryptPublic, signPublic, userId };
 * its first 30 bytes as six 5-byte big-endian numbers, each mod 100000. The two halves are sorted
 * and joined. Halves rather than one hash over the pair: a server that substitutes both keys would
 * otherwise only need a birthday collision between the two numbers people see on a partial
 * comparison, where with halves it needs a second preimage of each.
 */
export async function safetyNumber(a: SafetyNumberParty, b: SafetyNumberParty): Promise<string> {
  const halves = await Promise.all([safetyHalf(a), safetyHalf(b)]);
  return halves.sort().join("").match(/.{5}/g)!.join(" ");
}

async function safetyHalf(party: SafetyNumberParty): Promise<string> {
  const { userId, encryptPublic, signPublic } = party ?? ({} as SafetyNumberParty);
  if (typeof userId !== "number" || !Number.isSafeInteger(userId) || userId < 1) {
    throw new CryptoError("invalid_input", "a safety number needs each side's user id");
  }
  await importAccountPublicKeys({ encryptPublic, signPublic });
  const identity = utf8Encode(canonicalJson({ encryptPublic, signPublic, userId }));
  let hash = await sha512(concatBytes(utf8Encode("sealwork/v2/safety-number\n"), identity));
  for (let round = 1; round < SAFETY_NUMBER_ITERATIONS; round++) hash = await sha512(concatBytes(hash, identity));
  let digits = "";
  for (let chunk = 0; chunk < 6; chunk++) {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 256 + hash[chunk * 5 + i]!;
    digits += String(value % 100000).padStart(5, "0");
  }
  return digits;
}
