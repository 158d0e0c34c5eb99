import { assertKey } from "./account-keys";
import { type Bytes, base64urlEncode, concatBytes, utf8Encode } from "./bytes";
import { canonicalJson } from "./canonical-json";
import { type RecordSignatureEnvelope, type SignatureEnvelope, field, parseEnvelope } from "./envelope";
import { CryptoError } from "./errors";
import { type Key, subtle } from "./primitives";

/**
 * Ed25519 signatures with the account's signing key.
 *
 * Every signed message starts with a domain prefix, so a signature made for one purpose never
 * verifies for another: in particular, `sign` over bytes that happen to look like a record
 * cannot be passed off as a record signature. Records should also carry their own type field
 * (e.g. { type: "keypair", ... }) so that one kind of record cannot stand in for another.
 */
const BYTES_DOMAIN = utf8Encode("sealwork/v1/sign/bytes\n");
const RECORD_DOMAIN = utf8Encode("sealwork/v1/sign/record\n");
/**
 * Protocol v2's signed records (identities, invitations, admin certificates, membership entries,
 * conversation records, sealed copies, messages) use their own prefix, so nothing ever signed
 * through v1's `signRecord` (whose records callers choose) can pass as a v2 record, and no v2
 * record as a v1 one. The envelope is the unchanged `record-signature` kind.
 */
const RECORD_V2_DOMAIN = utf8Encode("sealwork/v2/sign/record\n");

export async function sign(privateKey: Key, data: Uint8Array): Promise<SignatureEnvelope> {
  const sig = await ed25519Sign(privateKey, concatBytes(BYTES_DOMAIN, checkBytes(data)));
  return parseEnvelope({ v: 1, kind: "signature", alg: "ed25519", sig: base64urlEncode(sig) }, "signature");
}

/** Resolves if the signature is valid; otherwise rejects with bad_signature (or a parse error). */
export async function verify(publicKey: Key, data: Uint8Array, signature: SignatureEnvelope | string): Promise<void> {
  const env = parseEnvelope(signature, "signature");
  await ed25519Verify(publicKey, concatBytes(BYTES_DOMAIN, checkBytes(data)), field(env, "sig"));
}

/**
 * Signs a JSON value (what the server stores for a user: public keys, backups) over its
 * canonical JSON, so key order and whitespace on the way through the server do not matter.
 */
export async function signRecord(privateKey: Key, record: unknown): Promise<RecordSignatureEnvelope> {
  const sig = await ed25519Sign(privateKey, recordMessage(record));
  return parseEnvelope({ v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(sig) }, "record-signature");
}

export async function verifyRecord(publicKey: Key, record: unknown, signature: RecordSignatureEnvelope | string): Promise<void> {
  const env = parseEnvelope(signature, "record-signature");
  await ed25519Verify(publicKey, recordMessage(record), field(env, "sig"));
}

function recordMessage(record: unknown, domain = RECORD_DOMAIN): Bytes {
  return concatBytes(domain, utf8Encode(canonicalJson(record)));
}

/** A v2 record: it names its own type and version, so one kind can never stand in for another. */
export interface RecordV2 {
  type: string;
  v: 2;
}

/** Signs a v2 record (internal: each record module builds its record); answers the envelope's canonical text. */
export async function signRecordV2(privateKey: Key, record: RecordV2): Promise<string> {
  if (typeof record?.type !== "string" || record.v !== 2) throw new CryptoError("invalid_input", "a v2 record names its type and v: 2");
  const sig = await ed25519Sign(privateKey, recordMessage(record, RECORD_V2_DOMAIN));
  return canonicalJson(parseEnvelope({ v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(sig) }, "record-signature"));
}

/** Resolves if `signature` is the v2 signature of `record` by `publicKey`; else bad_signature (or a parse error). */
export async function verifyRecordV2(publicKey: Key, record: RecordV2, signature: string): Promise<void> {
  const env = parseEnvelope(signature, "record-signature");
  await ed25519Verify(publicKey, recordMessage(record, RECORD_V2_DOMAIN), field(env, "sig"));
}

function checkBytes(data: Uint8Array): Uint8Array {
  if (!(data instanceof Uint8Array)) throw new CryptoError("invalid_input", "expected bytes to sign");
  return data;
}

/** Plain Ed25519 (RFC 8032) over the message: exported for the RFC vectors in tests. */
export async function ed25519Sign(privateKey: Key, message: Uint8Array): Promise<Bytes> {
  assertKey(privateKey, "Ed25519", "private");
  return new Uint8Array(await subtle().sign({ name: "Ed25519" }, privateKey, concatBytes(message)));
}

export async function ed25519Verify(publicKey: Key, message: Uint8Array, sig: Uint8Array): Promise<void> {
  assertKey(publicKey, "Ed25519", "public");
  let ok: boolean;
  try {
    ok = await subtle().verify({ name: "Ed25519" }, publicKey, concatBytes(sig), concatBytes(message));
  } catch (cause) {
    throw new CryptoError("bad_signature", "the signature does not verify", { cause });
  }
  if (!ok) throw new CryptoError("bad_signature", "the signature does not verify");
}
