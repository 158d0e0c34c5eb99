// Writes src/vectors.json: the known-answer vectors of protocol versions 1 and 2.
//
// Deliberately a second implementation: it follows docs/protocol.md with node:crypto (and
// hash-wasm for Argon2id, which Node 20 lacks) instead of importing the package, so the
// vectors check the package against the written protocol, not against itself. Run it only
// when adding vectors; if an existing vector changes, the protocol changed and needs a new
// version, not a regenerated file.
//
//   node packages/crypto/scripts/make-vectors.mjs
import { createCipheriv, createHash, createHmac, createPrivateKey, createPublicKey, diffieHellman, hkdfSync, sign } from "node:crypto";
import { writeFileSync } from "node:fs";
import { argon2id } from "hash-wasm";

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const unhex = (text) => Buffer.from(text, "hex");
const b64u = (bytes) => Buffer.from(bytes).toString("base64url");
const text = (value) => ({ text: value, utf8: hex(Buffer.from(value, "utf8")) });
const range = (start, length) => Buffer.from(Array.from({ length }, (_, i) => (start + i) & 0xff));

// Sorted keys, no whitespace: the canonical JSON of docs/protocol.md.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const PKCS8 = { X25519: "302e020100300506032b656e04220420", Ed25519: "302e020100300506032b657004220420" };
function keyFromSeed(curve, seedHex) {
  const privateKey = createPrivateKey({ key: Buffer.concat([unhex(PKCS8[curve]), unhex(seedHex)]), format: "der", type: "pkcs8" });
  const publicKey = createPublicKey(privateKey);
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x, "base64url");
  return { privateKey, publicKey, raw };
}

function aesGcm(key, nonce, plaintext, aad) {
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

const associatedData = (header, aad = Buffer.alloc(0)) => Buffer.from(canonical({ aad: b64u(aad), header }), "utf8");

// Seeds: RFC 7748 section 6.1 (Alice, Bob), RFC 8032 section 7.1 test 1, RFC 7748 section 5.2.
const seeds = {
  accountX25519: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
  accountEd25519: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
  recipientX25519: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
  ephemeralX25519: "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
};
const account = { x: keyFromSeed("X25519", seeds.accountX25519), ed: keyFromSeed("Ed25519", seeds.accountEd25519) };
const recipient = keyFromSeed("X25519", seeds.recipientX25519);
const ephemeral = keyFromSeed("X25519", seeds.ephemeralX25519);

async function secureCodeWrap(code, also, params, salt, nonce, anchor) {
  const stretched = await argon2id({
    password: Buffer.from(code.normalize("NFC"), "utf8"),
    salt,
    memorySize: params.memoryKiB,
    iterations: params.iterations,
    parallelism: params.parallelism,
    hashLength: 32,
    outputType: "binary",
  });
  // Bound to the instance anchor of an account with an identity (docs/protocol.md §14.10).
  const info = anchor === undefined ? "sealwork/v1/secure-code-wrap" : `sealwork/v2/secure-code-wrap\n${anchor}`;
  const key = Buffer.from(hkdfSync("sha256", stretched, Buffer.alloc(0), Buffer.from(info, "utf8"), 32));
  const header = {
    v: 1,
    kind: "secure-code-wrap",
    alg: "argon2id-hkdf-sha256-aes256gcm",
    ...params,
    salt: b64u(salt),
    nonce: b64u(nonce),
    encryptPublic: b64u(account.x.raw),
    signPublic: b64u(account.ed.raw),
  };
  const plaintext = Buffer.concat([unhex(seeds.accountX25519), unhex(seeds.accountEd25519)]);
  const ct = aesGcm(key, nonce, plaintext, associatedData(header));
  return {
    ...(anchor === undefined ? {} : { anchor }),
    secureCode: text(code),
    alsoOpensWith: also.map(text),
    params,
    salt: hex(salt),
    nonce: hex(nonce),
    argon2idOutput: hex(stretched),
    wrapKey: hex(key),
    envelope: canonical({ ...header, ct: b64u(ct) }),
  };
}

function sealed(context, plaintext, nonce) {
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient.publicKey });
  const key = Buffer.from(
    hkdfSync("sha256", shared, Buffer.concat([ephemeral.raw, recipient.raw]), Buffer.from(`sealwork/v1/seal/${context}`), 32),
  );
  const header = { v: 1, kind: "sealed", alg: "x25519-hkdf-sha256-aes256gcm", epk: b64u(ephemeral.raw), nonce: b64u(nonce) };
  const ct = aesGcm(key, nonce, plaintext, associatedData(header));
  return { context, plaintext: hex(plaintext), nonce: hex(nonce), sharedSecret: hex(shared), sealKey: hex(key), envelope: canonical({ ...header, ct: b64u(ct) }) };
}

function aead(key, plaintext, aad, nonce) {
  const header = { v: 1, kind: "aead", alg: "aes256gcm", nonce: b64u(nonce) };
  const ct = aesGcm(key, nonce, plaintext, associatedData(header, Buffer.from(aad, "utf8")));
  return { key: hex(key), plaintext: hex(plaintext), aad, nonce: hex(nonce), envelope: canonical({ ...header, ct: b64u(ct) }) };
}

// Pickups: the lookup hash and the guest's wrap of a conversation key (docs/protocol.md, Pickups).
async function argon(password, salt, params) {
  return Buffer.from(await argon2id({ password, salt, memorySize: params.memoryKiB, iterations: params.iterations, parallelism: params.parallelism, hashLength: 32, outputType: "binary" }));
}
const lookupParams = { memoryKiB: 19456, iterations: 2, parallelism: 1 };
async function pickupLookup(code, instanceName) {
  return { code, instanceName, params: lookupParams, lookup: b64u(await argon(Buffer.from(code, "utf8"), Buffer.from(`sealwork/v1/pickup-lookup/${instanceName}`, "utf8"), lookupParams)) };
}
// Pickup links, fragment version 2: "2" ‖ code ‖ link secret (or nothing) ‖ base64url(CRC-24 of
// what precedes it). CRC-24 here is table-driven (one byte at a time), the package's bitwise.
const CRC24_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n << 16;
  for (let k = 0; k < 8; k++) c = c & 0x800000 ? ((c << 1) ^ 0x864cfb) & 0xffffff : (c << 1) & 0xffffff;
  return c;
});
function crc24(bytes) {
  let crc = 0xb704ce;
  for (const byte of bytes) crc = ((crc << 8) & 0xffffff) ^ CRC24_TABLE[((crc >>> 16) ^ byte) & 0xff];
  return crc;
}
if (crc24(Buffer.from("123456789", "ascii")) !== 0x21cf02) throw new Error("CRC-24 does not give OpenPGP's check value");
function pickupLinkVector(appUrl, code, linkSecret) {
  const body = `2${code}${linkSecret ? b64u(linkSecret) : ""}`;
  const crc = crc24(Buffer.from(body, "ascii"));
  const fragment = body + b64u(Buffer.from([crc >>> 16, (crc >>> 8) & 0xff, crc & 0xff]));
  return { appUrl, code, linkSecret: linkSecret ? b64u(linkSecret) : null, crc24: crc, fragment, link: `${appUrl.replace(/\/+$/, "")}/login#${fragment}` };
}

async function pickupWrap(code, securityCode, linkSecret, params, salt, nonce, conversationKey) {
  const password = Buffer.concat([Buffer.from(code, "utf8"), Buffer.from(securityCode, "utf8"), linkSecret ?? Buffer.alloc(0)]);
  const stretched = await argon(password, salt, params);
  const both = Buffer.from(hkdfSync("sha256", stretched, Buffer.alloc(0), Buffer.from(`sealwork/v1/pickup/${code}`), 64));
  const [wrapKey, authKey] = [both.subarray(0, 32), both.subarray(32)];
  const header = { v: 1, kind: "pickup-wrap", alg: "argon2id-hkdf-sha256-aes256gcm", ...params, salt: b64u(salt), link: linkSecret ? 1 : 0, nonce: b64u(nonce) };
  const ct = aesGcm(wrapKey, nonce, conversationKey, associatedData(header));
  return {
    code,
    securityCode,
    linkSecret: linkSecret ? b64u(linkSecret) : null,
    fragment: code + (linkSecret ? b64u(linkSecret) : ""),
    params,
    salt: hex(salt),
    nonce: hex(nonce),
    conversationKey: hex(conversationKey),
    argon2idOutput: hex(stretched),
    wrapKey: hex(wrapKey),
    auth: b64u(authKey),
    verifier: b64u(createHash("sha256").update(authKey).digest()),
    envelope: canonical({ ...header, ct: b64u(ct) }),
  };
}

const signature = (domain, message) => b64u(sign(null, Buffer.concat([Buffer.from(domain), message]), account.ed.privateKey));
const digest = (name) => b64u(createHash("sha256").update(createHash("sha384").update(name.normalize("NFC"), "utf8").digest()).digest());
const sha256hex = (data) => createHash("sha256").update(data).digest("hex");
const groups = (h) => h.match(/.{4}/g).join(" ");

const grueziNfc = "Grüezi 🔐 ß";
const grueziNfd = grueziNfc.normalize("NFD");
const record = {
  type: "keypair",
  encryptPublic: b64u(account.x.raw),
  signPublic: b64u(account.ed.raw),
  name: grueziNfc,
  n: 1,
  nested: { z: [1, "two", null, true], a: -0.5, "é": "key sorted by UTF-16 code unit", Z: "upper case sorts first" },
};
const accountPublic = { encryptPublic: b64u(account.x.raw), signPublic: b64u(account.ed.raw) };
const small = { memoryKiB: 1024, iterations: 1, parallelism: 1 };

// Records (docs/protocol.md §8, "Contexts and associated data in use"): each kind with the
// context or associated data that binds it to its place. The conversation key is sealed for the
// recipient key above with the fixed ephemeral key; `legacy` ones use protocol v1's strings,
// which the open functions still accept for conversations made before ids were bound.
const recordKey = range(0xe0, 32);
const conversationKeyRecord = (conversationId, context, nonce, legacy = false) => ({ conversationId, epoch: 0, legacy, ...sealed(context, recordKey, nonce) });
const titleRecord = (conversationId, aad, title, nonce, legacy = false) => ({ conversationId, epoch: 0, legacy, title: text(title), ...aead(recordKey, Buffer.from(title, "utf8"), aad, nonce) });
// JSON.stringify of the payload with its fields in the schema's order (text, files; id, name,
// type, size, key, header, thumb), which is what a sealer writes whatever order it was given.
function messageRecord(conversationId, senderId, localid, payload, nonce) {
  const json = JSON.stringify(payload);
  return { conversationId, senderId, localid, payload, json: text(json), ...aead(recordKey, Buffer.from(json, "utf8"), `message:${conversationId}:${senderId}:${localid}`, nonce) };
}
const fileRef = {
  id: 7,
  name: `${grueziNfc}.pdf`,
  type: "application/pdf",
  size: 1234567,
  key: b64u(range(0x70, 32)),
  header: canonical({ v: 1, kind: "file-stream", alg: "aes256gcm-stream", chunk: 1048576, prefix: b64u(range(0x78, 7)) }),
  thumb: true,
};
async function pickupRecord(conversationId, title, secrets, nonces) {
  const wrap = await pickupWrap(secrets.code, secrets.securityCode, secrets.linkSecret, small, nonces.salt, nonces.wrap, recordKey);
  const creator = sealed(`conversation-key:${conversationId}:0`, recordKey, nonces.seal);
  const titled = aead(recordKey, Buffer.from(title, "utf8"), `conversation-title:${conversationId}:0`, nonces.title);
  return {
    conversationId,
    conversationKey: hex(recordKey),
    title: text(title),
    code: wrap.code,
    securityCode: wrap.securityCode,
    linkSecret: wrap.linkSecret,
    params: small,
    sealNonce: creator.nonce,
    wrapSalt: wrap.salt,
    wrapNonce: wrap.nonce,
    titleNonce: titled.nonce,
    sealed: creator.envelope,
    wrapped: wrap.envelope,
    verifier: wrap.verifier,
    auth: wrap.auth,
    titleEnvelope: titled.envelope,
  };
}

// Protocol v2 (docs/protocol.md, "Version 2: authenticated identities and distribution"): key ids,
// safety numbers, an instance's identity chain (root, an invited administrator, an invited user
// who rotated), a conversation's membership log, its signed record, a signed key copy and signed
// messages. Ed25519 is deterministic, so every signature is a known answer too.
const V2_RECORD_DOMAIN = "sealwork/v2/sign/record\n";
const seedOf = (name) => createHash("sha256").update(`sealwork/vectors/v2/${name}`).digest("hex");
function person(name) {
  const seed = { x25519: seedOf(`${name}/x25519`), ed25519: seedOf(`${name}/ed25519`) };
  const x = keyFromSeed("X25519", seed.x25519);
  const ed = keyFromSeed("Ed25519", seed.ed25519);
  return { seed, x, ed, pub: { encryptPublic: b64u(x.raw), signPublic: b64u(ed.raw) } };
}
const v2sign = (who, record) =>
  canonical({ v: 1, kind: "record-signature", alg: "ed25519", sig: b64u(sign(null, Buffer.concat([Buffer.from(V2_RECORD_DOMAIN), Buffer.from(canonical(record), "utf8")]), who.ed.privateKey)) });
const keyIdOf = (pub) => b64u(createHash("sha256").update(`sealwork/v2/key-id\n${canonical({ encryptPublic: pub.encryptPublic, signPublic: pub.signPublic })}`, "utf8").digest().subarray(0, 16));
const refOf = (userId, who) => ({ userId, keyId: keyIdOf(who.pub) });
const sha256b64u = (textValue) => b64u(createHash("sha256").update(textValue, "utf8").digest());
const normaliseAddress = (address) => {
  const trimmed = address.trim();
  return trimmed.startsWith("+") ? `+${trimmed.slice(1).replace(/\s+/g, "")}` : trimmed.toLowerCase();
};

function safetyHalf({ userId, encryptPublic, signPublic }) {
  const identity = Buffer.from(canonical({ encryptPublic, signPublic, userId }), "utf8");
  let hash = createHash("sha512").update("sealwork/v2/safety-number\n").update(identity).digest();
  for (let round = 1; round < 5200; round++) hash = createHash("sha512").update(hash).update(identity).digest();
  let digits = "";
  for (let chunk = 0; chunk < 6; chunk++) digits += String(hash.readUIntBE(chunk * 5, 5) % 100000).padStart(5, "0");
  return digits;
}
// docs/protocol.md §14.7, "Membership fingerprints": 12 digits of a log head, in groups of four.
function membershipFingerprint(container, head) {
  const digest = createHash("sha256").update("sealwork/v2/membership-fingerprint\n").update(canonical({ container, hash: head.hash, seq: head.seq }), "utf8").digest();
  const digits = [0, 5].map((at) => String(digest.readUIntBE(at, 5) % 1000000).padStart(6, "0")).join("");
  return digits.match(/.{4}/g).join(" ");
}
const fingerprintOf = (container, head) => ({ container, head, fingerprint: membershipFingerprint(container, head) });
const safetyNumber = (a, b) => [safetyHalf(a), safetyHalf(b)].sort().join("").match(/.{5}/g).join(" ");

const T0 = 1750000000000;
const DAY = 86400000;
const people = {
  root: person("root"),
  jurg: person("jurg"),
  jurgTemp: person("jurg-temp"),
  carol: person("carol"),
  carolTemp: person("carol-temp"),
  carolNext: person("carol-next"),
  carolResetTemp: person("carol-reset-temp"),
  carolAfterReset: person("carol-after-reset"),
  vera: person("vera-v1"),
  veraIdentity: person("vera-identity"),
};
const { root, jurg, jurgTemp, carol, carolTemp, carolNext, carolResetTemp, carolAfterReset, vera, veraIdentity } = people;

function invitation(inviteId, email, temp, issuerUserId, issuer, expires) {
  const record = {
    type: "invitation",
    v: 2,
    inviteId,
    email: normaliseAddress(email),
    tempSignPublic: temp.pub.signPublic,
    tempEncryptPublic: temp.pub.encryptPublic,
    issuerUserId,
    issuerKeyId: keyIdOf(issuer.pub),
    expires,
  };
  return { record, signature: v2sign(issuer, record) };
}
function identity(userId, email, seq, who, created, certifiedBy, certifier) {
  const record = { type: "identity", v: 2, userId, email, seq, ...who.pub, created, certifiedBy };
  return { record, self: v2sign(who, record), ...(certifier ? { certifier: v2sign(certifier, record) } : {}) };
}
function admin(userId, who, issuerUserId, issuer, granted) {
  const record = { type: "admin", v: 2, userId, keyId: keyIdOf(who.pub), issuerUserId, issuerKeyId: keyIdOf(issuer.pub), granted };
  return { record, signature: v2sign(issuer, record) };
}

const jurgEmailTyped = "  Jürg.Müller@Example.ORG ";
const rootIdentity = identity(1, "root@example.org", 0, root, T0, { kind: "root" });
const inviteJurg = invitation(102, jurgEmailTyped, jurgTemp, 1, root, T0 + 30 * DAY);
const jurgIdentity = identity(2, inviteJurg.record.email, 0, jurg, T0 + DAY, { kind: "invitation", invitation: inviteJurg }, jurgTemp);
const jurgAdmin = admin(2, jurg, 1, root, T0 + 2 * DAY);
const inviteCarol = invitation(103, "carol@example.org", carolTemp, 2, jurg, T0 + 31 * DAY);
const carolBirth = identity(3, "carol@example.org", 0, carol, T0 + 3 * DAY, { kind: "invitation", invitation: inviteCarol }, carolTemp);
// Vera (user 7) kept her protocol v1 key: Jürg certifies it in the instance of the root; the root's rule says v1 keys need this.
const veraCertificateRecord = { type: "legacy-key", v: 2, userId: 7, ...vera.pub, anchor: keyIdOf(root.pub), issuerUserId: 2, issuerKeyId: keyIdOf(jurg.pub), certified: T0 + 5 * DAY };
const legacyRuleRecord = { type: "legacy-rule", v: 2, rule: "certified-only", anchor: keyIdOf(root.pub), userId: 1, made: T0 + 6 * DAY };
const carolRotated = identity(3, "carol@example.org", 1, carolNext, T0 + 4 * DAY, { kind: "previous", keyId: keyIdOf(carol.pub) }, carol);
// Carol lost her key: Jürg resets it, and her next record (seq 2) is certified by the reset's temporary key.
const carolResetRecord = {
  type: "key-reset",
  v: 2,
  userId: 3,
  email: "carol@example.org",
  replaces: keyIdOf(carolNext.pub),
  tempSignPublic: carolResetTemp.pub.signPublic,
  tempEncryptPublic: carolResetTemp.pub.encryptPublic,
  issuerUserId: 2,
  issuerKeyId: keyIdOf(jurg.pub),
  expires: T0 + 40 * DAY,
};
const carolReset = { record: carolResetRecord, signature: v2sign(jurg, carolResetRecord) };
// Vera moves from her certified v1 key to an identity: a birth record of fresh keys, certified by the v1 key, carrying Jürg's certificate.
const veraCertificate = { record: veraCertificateRecord, signature: v2sign(jurg, veraCertificateRecord) };
const veraBirth = identity(7, "vera@example.org", 0, veraIdentity, T0 + 8 * DAY, { kind: "legacy", certificate: veraCertificate }, vera);
const carolResetIdentity = identity(3, "carol@example.org", 2, carolAfterReset, T0 + 7 * DAY, { kind: "reset", reset: carolReset }, carolResetTemp);

// The membership log of conversation 42: Jürg and Carol added, Jürg promoted, Carol removed by Jürg, rekey.
const container = "conversation:42";
const entryHashOf = (signed) => sha256b64u(canonical(signed));
/** A container's log, entry by entry: each names the hash of the one before. */
function logOf(name) {
  const entries = [];
  const append = (action, subject, epoch, authorId, author, at) => {
    const previous = entries.at(-1);
    const record = { type: "membership", v: 2, container: name, seq: entries.length, prev: previous ? entryHashOf(previous) : "", action, subject, epoch, author: authorId, authorKeyId: keyIdOf(author.pub), at };
    entries.push({ record, signature: v2sign(author, record) });
  };
  return { entries, append };
}
const { entries: logEntries, append: entry } = logOf(container);
entry("create", refOf(1, root), 0, 1, root, T0 + 10 * DAY);
entry("add", refOf(2, jurg), 0, 1, root, T0 + 10 * DAY + 1);
entry("add", refOf(3, carolNext), 0, 1, root, T0 + 10 * DAY + 2);
entry("promote", refOf(2, jurg), 0, 1, root, T0 + 10 * DAY + 3);
entry("remove", refOf(3, carolNext), 0, 2, jurg, T0 + 10 * DAY + 4);
entry("rekey", null, 1, 2, jurg, T0 + 10 * DAY + 5);
const logHead = { seq: logEntries.length - 1, hash: entryHashOf(logEntries.at(-1)) };

// Epoch 1's key, its commitment, the record Jürg signs, his copy for the root user, and messages.
const epochKey = range(0x90, 32);
const commitment = b64u(createHmac("sha256", epochKey).update("sealwork/v2/key-commitment\nconversation-key:42:1", "utf8").digest());
const conversationRecord = {
  type: "conversation",
  v: 2,
  conversationId: 42,
  epoch: 1,
  participants: [refOf(1, root), refOf(2, jurg)],
  keyCommitment: commitment,
  author: 2,
  authorKeyId: keyIdOf(jurg.pub),
  logHead,
};
function sealedFor(recipientWho, context, plaintext, nonce) {
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipientWho.x.publicKey });
  const key = Buffer.from(hkdfSync("sha256", shared, Buffer.concat([ephemeral.raw, recipientWho.x.raw]), Buffer.from(`sealwork/v1/seal/${context}`), 32));
  const header = { v: 1, kind: "sealed", alg: "x25519-hkdf-sha256-aes256gcm", epk: b64u(ephemeral.raw), nonce: b64u(nonce) };
  return canonical({ ...header, ct: b64u(aesGcm(key, nonce, plaintext, associatedData(header))) });
}
const copyNonce = range(0x0f, 12);
const copySealed = sealedFor(root, "conversation-key:42:1", epochKey, copyNonce);
const copyRecord = { type: "sealed-key", v: 2, conversationId: 42, epoch: 1, recipientUserId: 1, recipientKeyId: keyIdOf(root.pub), sealedDigest: sha256b64u(copySealed), sealer: 2, sealerKeyId: keyIdOf(jurg.pub) };
// A message may sign the head of the log its sender verified (logHead); without one, the record is as before.
const withHead = (head) => (head ? { logHead: head } : {});
function signedMessage(senderId, sender, localid, payload, nonce, head) {
  const json = JSON.stringify(payload);
  const sealedMessage = aead(epochKey, Buffer.from(json, "utf8"), `message:42:1:${senderId}:${localid}`, nonce);
  const place = { conversationId: 42, epoch: 1, senderId, localid };
  if (!sender) return { place, payload, json: text(json), ...sealedMessage };
  const signed = { type: "message", v: 2, ...place, senderKeyId: keyIdOf(sender.pub), envelopeDigest: sha256b64u(sealedMessage.envelope), ...withHead(head) };
  return { place, payload, json: text(json), ...sealedMessage, signatureRecord: signed, signature: v2sign(sender, signed), senderKeyId: keyIdOf(sender.pub), ...withHead(head) };
}

// The epoch chain: epoch 1's key carries epoch 0's (a newcomer of epoch 1 walks back to it).
const epoch0Key = range(0xa0, 32);
const epoch0Commitment = b64u(createHmac("sha256", epoch0Key).update("sealwork/v2/key-commitment\nconversation-key:42:0", "utf8").digest());
const epochLink = { previousKey: hex(epoch0Key), previousCommitment: epoch0Commitment, nonce: hex(range(0x4f, 12)), ...aead(epochKey, epoch0Key, "epoch-chain:42:1", range(0x4f, 12)) };

// Group 7 (docs/protocol.md, "Group keys" and "Records and dockeys"): the same people; Carol removed,
// epoch 1's record and Jürg's copy for the root user, the link to epoch 0, and a record of epoch 1:
// its dockey, its payload in NFC and NFD, and the root user's signed grant of its key to Carol.
const groupLog = logOf("group:7");
groupLog.append("create", refOf(1, root), 0, 1, root, T0 + 20 * DAY);
groupLog.append("add", refOf(2, jurg), 0, 1, root, T0 + 20 * DAY + 1);
groupLog.append("add", refOf(3, carolNext), 0, 1, root, T0 + 20 * DAY + 2);
groupLog.append("promote", refOf(2, jurg), 0, 1, root, T0 + 20 * DAY + 3);
groupLog.append("remove", refOf(3, carolNext), 0, 2, jurg, T0 + 20 * DAY + 4);
groupLog.append("rekey", null, 1, 2, jurg, T0 + 20 * DAY + 5);
const groupHead = { seq: groupLog.entries.length - 1, hash: entryHashOf(groupLog.entries.at(-1)) };
const groupCommit = (key, epoch) => b64u(createHmac("sha256", key).update(`sealwork/v2/key-commitment\ngroup-key:7:${epoch}`, "utf8").digest());
const groupKey0 = range(0xb0, 32);
const groupKey1 = range(0xc0, 32);
const groupRecord = { type: "group", v: 2, groupId: 7, epoch: 1, members: [refOf(1, root), refOf(2, jurg)], keyCommitment: groupCommit(groupKey1, 1), author: 2, authorKeyId: keyIdOf(jurg.pub), logHead: groupHead };
const groupCopySealed = sealedFor(root, "group-key:7:1", groupKey1, range(0x5f, 12));
const groupCopyRecord = { type: "group-sealed-key", v: 2, groupId: 7, epoch: 1, recipientUserId: 1, recipientKeyId: keyIdOf(root.pub), sealedDigest: sha256b64u(groupCopySealed), sealer: 2, sealerKeyId: keyIdOf(jurg.pub) };
const recordId = b64u(range(0xe0, 16));
const recordKey1 = range(0xd0, 32);
const grantSealed = sealedFor(carolNext, `dek:7:${recordId}`, recordKey1, range(0xaf, 12));
const grantRecord = { type: "record-grant", v: 2, groupId: 7, recordId, recipientUserId: 3, recipientKeyId: keyIdOf(carolNext.pub), sealedDigest: sha256b64u(grantSealed), sealer: 1, sealerKeyId: keyIdOf(root.pub) };
function driveItemVector(payload, nonce) {
  const json = JSON.stringify(payload);
  return { payload, json: text(json), nonce: hex(nonce), ...aead(recordKey1, Buffer.from(json, "utf8"), `mote:7:${recordId}`, nonce) };
}
const commentId = b64u(range(0xf0, 16));
const commentKey = range(0x40, 32);
function commentVector(payload) {
  const json = JSON.stringify(payload);
  return {
    recordId: commentId,
    dek: hex(commentKey),
    dockey: { epoch: 1, nonce: hex(range(0xe1, 12)), ...aead(groupKey1, commentKey, `dockey:7:${commentId}:1`, range(0xe1, 12)) },
    payload,
    json: text(json),
    nonce: hex(range(0xef, 12)),
    ...aead(commentKey, Buffer.from(json, "utf8"), `mote:7:${commentId}`, range(0xef, 12)),
  };
}
// A message of group 7's own conversation: the group's associated data and signed record type.
function groupMessage(senderId, sender, localid, payload, nonce, head) {
  const json = JSON.stringify(payload);
  const sealedMessage = aead(groupKey1, Buffer.from(json, "utf8"), `group-message:7:1:${senderId}:${localid}`, nonce);
  const place = { groupId: 7, epoch: 1, senderId, localid };
  const signed = { type: "group-message", v: 2, ...place, senderKeyId: keyIdOf(sender.pub), envelopeDigest: sha256b64u(sealedMessage.envelope), ...withHead(head) };
  return { place, json: text(json), ...sealedMessage, signatureRecord: signed, signature: v2sign(sender, signed), senderKeyId: keyIdOf(sender.pub), ...withHead(head) };
}
// A restricted page of group 7 (docs/protocol.md, "Restricted pages"): page 31's keys of generations
// 1 to 3, the links of generations 2 and 3 (the third carries the second's digest after the key),
// Jürg's signed copies of generations 1 and 3 for the root user (each covering its link's digest),
// a card sealed under generation 1 and a comment under generation 3.
const PAGE = 31;
const pageKeys = [range(0x21, 32), range(0x31, 32), range(0x41, 32)];
const pageLink2 = { nonce: hex(range(0x2a, 12)), ...aead(pageKeys[1], pageKeys[0], `pagekey-chain:7:${PAGE}:2`, range(0x2a, 12)) };
const pageLink3 = {
  nonce: hex(range(0x3a, 12)),
  ...aead(pageKeys[2], Buffer.concat([pageKeys[1], createHash("sha256").update(pageLink2.envelope, "utf8").digest()]), `pagekey-chain:7:${PAGE}:3`, range(0x3a, 12)),
};
function pageKeyCopy(generation, linkDigest, nonce) {
  const sealedCopy = sealedFor(root, `pagekey:7:${PAGE}:${generation}`, pageKeys[generation - 1], nonce);
  const signed = { type: "page-key", v: 2, groupId: 7, pageId: PAGE, generation, linkDigest, recipientUserId: 1, recipientKeyId: keyIdOf(root.pub), sealedDigest: sha256b64u(sealedCopy), sealer: 2, sealerKeyId: keyIdOf(jurg.pub) };
  return { generation, nonce: hex(nonce), sealed: sealedCopy, linkDigest, signatureRecord: signed, signature: v2sign(jurg, signed), sealer: 2, sealerKeyId: keyIdOf(jurg.pub) };
}
function pageRecord(recordIdBytes, dekBytes, generation, payload, nonces) {
  const id = b64u(recordIdBytes);
  const json = JSON.stringify(payload);
  return {
    recordId: id,
    generation,
    dek: hex(dekBytes),
    dockey: { nonce: hex(nonces[0]), ...aead(pageKeys[generation - 1], dekBytes, `pagedockey:7:${id}:${PAGE}:${generation}`, nonces[0]) },
    payload,
    json: text(json),
    nonce: hex(nonces[1]),
    ...aead(dekBytes, Buffer.from(json, "utf8"), `mote:7:${id}`, nonces[1]),
  };
}
const pageKey = {
  pageId: PAGE,
  keys: pageKeys.map(hex),
  links: [
    { generation: 2, digest: sha256b64u(pageLink2.envelope), ...pageLink2 },
    { generation: 3, digest: sha256b64u(pageLink3.envelope), ...pageLink3 },
  ],
  copies: [pageKeyCopy(1, null, range(0x4a, 12)), pageKeyCopy(3, sha256b64u(pageLink3.envelope), range(0x5a, 12))],
  mote: pageRecord(range(0x10, 16), range(0x50, 32), 1, { title: grueziNfd, content: grueziNfc, tags: ["hr"] }, [range(0x6a, 12), range(0x7a, 12)]),
  comment: pageRecord(range(0x20, 16), range(0x60, 32), 3, { text: grueziNfc }, [range(0x8a, 12), range(0x9a, 12)]),
};
const group = {
  groupId: 7,
  log: { container: "group:7", entries: groupLog.entries, hashes: groupLog.entries.map(entryHashOf), state: { epoch: 1, members: [refOf(1, root), refOf(2, jurg)], admins: [1, 2], needsRekey: false, head: groupHead } },
  keys: [hex(groupKey0), hex(groupKey1)],
  commitments: [groupCommit(groupKey0, 0), groupCommit(groupKey1, 1)],
  record: { record: groupRecord, signature: v2sign(jurg, groupRecord) },
  copy: { nonce: hex(range(0x5f, 12)), sealed: groupCopySealed, signatureRecord: groupCopyRecord, signature: v2sign(jurg, groupCopyRecord), sealer: 2, sealerKeyId: keyIdOf(jurg.pub) },
  epochLink: { nonce: hex(range(0x6f, 12)), ...aead(groupKey1, groupKey0, "group-epoch-chain:7:1", range(0x6f, 12)) },
  recordKey: {
    recordId,
    dek: hex(recordKey1),
    dockey: { epoch: 1, nonce: hex(range(0x7f, 12)), ...aead(groupKey1, recordKey1, `dockey:7:${recordId}:1`, range(0x7f, 12)) },
    payloads: [
      { text: text(grueziNfc), nonce: hex(range(0x8f, 12)), ...aead(recordKey1, Buffer.from(grueziNfc, "utf8"), `mote:7:${recordId}`, range(0x8f, 12)) },
      { text: text(grueziNfd), nonce: hex(range(0x9f, 12)), ...aead(recordKey1, Buffer.from(grueziNfd, "utf8"), `mote:7:${recordId}`, range(0x9f, 12)) },
    ],
    grant: { nonce: hex(range(0xaf, 12)), sealed: grantSealed, signatureRecord: grantRecord, signature: v2sign(root, grantRecord), sealer: 1, sealerKeyId: keyIdOf(root.pub) },
    // The same record as a folder of the drive: its payload is this JSON text, keys in this order.
    driveItem: driveItemVector({ type: "folder", name: grueziNfc, tags: ["legal", "Q1"] }, range(0xcf, 12)),
    // The same record as a card (mote): the editor payload with a custom field, keys in the schema's order.
    mote: driveItemVector({ title: grueziNfc, content: grueziNfd, tags: ["legal", "Q1"], event_start: "2027-03-01T09:00", event_end: "2027-03-01T10:30", cf_amount: { amount: 217.5, currency: "HKD" } }, range(0xdf, 12)),
    // A comment on it: a record of its own (its own id and key), its key under epoch 1.
    comment: commentVector({ text: grueziNfd }),
  },
  message: groupMessage(2, jurg, "local-9", { text: grueziNfd }, range(0xbf, 12)),
  // The same kind of message naming the head of the group's log that Jürg verified.
  messageWithHead: groupMessage(2, jurg, "local-10", { text: grueziNfc }, range(0xce, 12), groupHead),
  pageKey,
};

const v2 = {
  about: "Protocol v2: the people below have X25519 and Ed25519 seeds; every record is made from them and the fixed times.",
  seeds: Object.fromEntries(Object.entries(people).map(([name, who]) => [name, who.seed])),
  publicKeys: Object.fromEntries(Object.entries(people).map(([name, who]) => [name, who.pub])),
  keyIds: Object.fromEntries(Object.entries(people).map(([name, who]) => [name, keyIdOf(who.pub)])),
  safetyNumbers: [
    { a: { userId: 1, ...root.pub }, b: { userId: 2, ...jurg.pub }, number: safetyNumber({ userId: 1, ...root.pub }, { userId: 2, ...jurg.pub }) },
    { a: { userId: 3, ...carolNext.pub }, b: { userId: 2, ...jurg.pub }, number: safetyNumber({ userId: 3, ...carolNext.pub }, { userId: 2, ...jurg.pub }) },
  ],
  identities: {
    times: { T0, DAY },
    jurgEmailTyped: text(jurgEmailTyped),
    jurgEmail: text(inviteJurg.record.email),
    root: rootIdentity,
    inviteJurg,
    jurg: jurgIdentity,
    jurgAdmin,
    inviteCarol,
    carol: [carolBirth, carolRotated],
    // What verifyIdentity answers for Carol with the root's key id pinned.
    veraCertificate,
    legacyRule: { record: legacyRuleRecord, signature: v2sign(root, legacyRuleRecord) },
    carolVerified: { userId: 3, seq: 1, keyId: keyIdOf(carolNext.pub), anchor: keyIdOf(root.pub), admin: false, keys: [keyIdOf(carol.pub), keyIdOf(carolNext.pub)] },
    // Carol's key reset by Jürg, and her record after it (her chain: carol, then this).
    carolReset,
    carolAfterReset: carolResetIdentity,
    // Vera's birth record certified by her v1 key (her chain: this alone; Jürg's and the root's as issuers).
    veraBirth,
  },
  membershipLog: {
    container,
    entries: logEntries,
    hashes: logEntries.map(entryHashOf),
    state: { epoch: 1, members: [refOf(1, root), refOf(2, jurg)], admins: [1, 2], needsRekey: false, head: logHead },
  },
  // The conversation's and the group's heads, and the conversation's first entry as a head of its own.
  membershipFingerprints: [
    fingerprintOf(container, logHead),
    fingerprintOf("group:7", groupHead),
    fingerprintOf(container, { seq: 0, hash: entryHashOf(logEntries[0]) }),
  ],
  conversation: {
    key: hex(epochKey),
    commitment,
    record: { record: conversationRecord, signature: v2sign(jurg, conversationRecord) },
    copy: { nonce: hex(copyNonce), sealed: copySealed, signatureRecord: copyRecord, signature: v2sign(jurg, copyRecord), sealer: 2, sealerKeyId: keyIdOf(jurg.pub) },
    messages: [
      signedMessage(2, jurg, "local-1", { text: grueziNfc }, range(0x1f, 12)),
      signedMessage(1, root, "local-2", { text: grueziNfd, files: [fileRef] }, range(0x2f, 12)),
      // A pickup's guest cannot sign: the v2 associated data only.
      signedMessage(0, null, "g-1", { text: "Danke!" }, range(0x3f, 12)),
    ],
    // Messages naming the head of conversation 42's log their sender verified (signed with it).
    messagesWithHead: [signedMessage(2, jurg, "local-3", { text: grueziNfd }, range(0xcd, 12), logHead)],
    epochLink,
  },
  group,
};

const vectors = {
  about: "Known answers for protocol version 1, written by scripts/make-vectors.mjs from docs/protocol.md with node:crypto. Text inputs carry their UTF-8 bytes so an editor that normalises Unicode cannot silently change a vector.",
  primitives: {
    sha: {
      source: "FIPS 180-2 appendix examples",
      input: text("abc"),
      sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      sha384: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
      sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    },
    hmacSha256: {
      source: "RFC 4231 test case 2",
      key: text("Jefe"),
      data: text("what do ya want for nothing?"),
      mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    },
    hkdf: {
      source: "RFC 5869 appendix A.1",
      ikm: "0b".repeat(22),
      salt: "000102030405060708090a0b0c",
      info: "f0f1f2f3f4f5f6f7f8f9",
      length: 42,
      okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    },
    aesGcm: [
      { source: "GCM specification test case 13", key: "00".repeat(32), nonce: "00".repeat(12), plaintext: "", aad: "", ciphertextAndTag: "530f8afbc74536b9a963b4f1c4cb738b" },
      { source: "GCM specification test case 14", key: "00".repeat(32), nonce: "00".repeat(12), plaintext: "00".repeat(16), aad: "", ciphertextAndTag: "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919" },
      {
        source: "GCM specification test case 16",
        key: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
        nonce: "cafebabefacedbaddecaf888",
        plaintext: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
        aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
        ciphertextAndTag: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f66276fc6ece0f4e1768cddf8853bb2d551b",
      },
    ],
    x25519: {
      source: "RFC 7748 section 6.1",
      alicePrivate: seeds.accountX25519,
      alicePublic: "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
      bobPrivate: seeds.recipientX25519,
      bobPublic: "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
      shared: "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
    },
    ed25519: {
      source: "RFC 8032 section 7.1 test 1",
      secret: seeds.accountEd25519,
      public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
      message: "",
      signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    },
    argon2id: [
      { source: "phc-winner-argon2 src/test.c", password: text("password"), salt: text("somesalt"), memoryKiB: 256, iterations: 2, parallelism: 1, output: "9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe" },
      { source: "phc-winner-argon2 src/test.c", password: text("password"), salt: text("somesalt"), memoryKiB: 65536, iterations: 2, parallelism: 1, output: "09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7" },
    ],
  },
  seeds,
  publicKeys: {
    accountX25519: hex(account.x.raw),
    accountEd25519: hex(account.ed.raw),
    recipientX25519: hex(recipient.raw),
    ephemeralX25519: hex(ephemeral.raw),
  },
  secureCodeWrap: [
    await secureCodeWrap(grueziNfc + " 42", [grueziNfd + " 42"], small, range(0x00, 16), range(0x10, 12)),
    // U+212B ANGSTROM SIGN and A + U+030A both normalise to U+00C5.
    await secureCodeWrap("Ångström 7", ["A\u030Angstro\u0308m 7", "\u212Bngstrom 7".replace("o", "ö")], small, range(0x40, 16), range(0x50, 12)),
    await secureCodeWrap("correct horse 9", [], { memoryKiB: 65536, iterations: 3, parallelism: 1 }, range(0x60, 16), range(0x70, 12)),
    await secureCodeWrap("Anchored 5", [], small, range(0x80, 16), range(0x90, 12), "AAECAwQFBgcICQoLDA0ODw"),
  ],
  sealed: [
    sealed("group-key:g-7f3a:1", range(0x00, 32), range(0x20, 12)),
    sealed("conversation-key:c-42", Buffer.from(grueziNfc, "utf8"), range(0x80, 12)),
  ],
  aead: [
    aead(range(0x00, 32), Buffer.from(grueziNfc, "utf8"), "mote:g-7f3a:m-1:1", range(0x30, 12)),
    aead(range(0xa0, 32), Buffer.alloc(0), "", range(0xc0, 12)),
  ],
  signature: { data: text(grueziNfc), envelope: canonical({ v: 1, kind: "signature", alg: "ed25519", sig: signature("sealwork/v1/sign/bytes\n", Buffer.from(grueziNfc, "utf8")) }) },
  recordSignature: {
    record,
    canonical: canonical(record),
    envelope: canonical({ v: 1, kind: "record-signature", alg: "ed25519", sig: signature("sealwork/v1/sign/record\n", Buffer.from(canonical(record), "utf8")) }),
  },
  backupNameDigest: [
    { name: text(""), digest: digest("") },
    { name: text("abc"), digest: digest("abc") },
    { name: text("backup/42/keypair"), digest: digest("backup/42/keypair") },
    { name: text(grueziNfc), digest: digest(grueziNfc) },
    { name: text(grueziNfd), digest: digest(grueziNfd) },
  ],
  pickupLookup: [await pickupLookup("ABABA12121", "local"), await pickupLookup("ZYXWV09876", "acme-prod")],
  pickupWrap: [
    await pickupWrap("HJKMN34567", "012345", range(0xd0, 16), small, range(0x80, 16), range(0x90, 12), range(0xa0, 32)),
    await pickupWrap("PQRST00001", "999999", null, small, range(0x11, 16), range(0x22, 12), range(0x33, 32)),
    await pickupWrap("ABABA12121", "654321", range(0x01, 16), { memoryKiB: 65536, iterations: 3, parallelism: 1 }, range(0x44, 16), range(0x55, 12), range(0x66, 32)),
  ],
  pickupLink: [
    pickupLinkVector("https://app.example", "HJKMN34567", range(0xd0, 16)),
    pickupLinkVector("http://localhost:3000/", "PQRST00001", null),
    pickupLinkVector("https://sealwork.example/acme", "ABABA12121", range(0x01, 16)),
  ],
  records: {
    conversationKey: [
      conversationKeyRecord(42, "conversation-key:42:0", range(0x01, 12)),
      conversationKeyRecord(Number.MAX_SAFE_INTEGER, `conversation-key:${Number.MAX_SAFE_INTEGER}:0`, range(0x02, 12)),
      conversationKeyRecord(42, "conversation-key:0", range(0x03, 12), true),
    ],
    conversationTitle: [
      titleRecord(42, "conversation-title:42:0", grueziNfc, range(0x04, 12)),
      titleRecord(42, "conversation-title:42:0", grueziNfd, range(0x05, 12)),
      titleRecord(43, "conversation-title:43:0", "Ångström", range(0x06, 12)),
      titleRecord(42, "conversation-title", "A\u030Angstro\u0308m", range(0x07, 12), true),
    ],
    message: [
      messageRecord(42, 3, "local-1", { text: grueziNfc }, range(0x08, 12)),
      messageRecord(42, 3, "local-2", { text: grueziNfd }, range(0x09, 12)),
      messageRecord(42, 0, "g_1-x", { text: "Danke!\nZweite Zeile", files: [fileRef] }, range(0x0a, 12)),
      messageRecord(43, 5, "k9", {}, range(0x0b, 12)),
    ],
    thumbnail: [{ ...aead(range(0x70, 32), Buffer.from("\u00ff\u00d8\u00ff\u00e0 JFIF thumbnail bytes", "latin1"), "thumbnail", range(0x0c, 12)) }],
    pickup: [
      await pickupRecord(44, grueziNfd, { code: "HJKMN34567", securityCode: "012345", linkSecret: range(0xd0, 16) }, { seal: range(0x0d, 12), salt: range(0x80, 16), wrap: range(0x90, 12), title: range(0x0e, 12) }),
    ],
  },
  fingerprint: {
    accountX25519: groups(sha256hex(account.x.raw)),
    accountEd25519: groups(sha256hex(account.ed.raw)),
    account: { publicKeys: accountPublic, fingerprint: groups(sha256hex(Buffer.from(`sealwork/v1/account-fingerprint\n${canonical(accountPublic)}`, "utf8"))) },
  },
  v2,
};

const out = new URL("../src/vectors.json", import.meta.url);
writeFileSync(out, `${JSON.stringify(vectors, null, 2)}\n`);
console.log(`wrote ${out.pathname}`);
