import { type AccountPublicKeys, exportPublicKeyRaw, importAccountPublicKeys } from "./account-keys";
import { base64urlEncode, hexEncode, isWellFormed, utf8Encode } from "./bytes";
import { canonicalJson } from "./canonical-json";
import { CryptoError } from "./errors";
import { type Key, sha256, sha384 } from "./primitives";

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
