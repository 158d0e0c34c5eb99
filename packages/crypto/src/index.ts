/**
 * @sealwork/crypto — the client-side protocol, versions 1 and 2 (docs/protocol.md).
 *
 * Everything the app needs and nothing more: the rest of the code base never calls WebCrypto
 * or hash-wasm directly. Runs unchanged in browsers and in Node 20+ (globalThis.crypto.subtle,
 * crypto.getRandomValues, hash-wasm's Argon2id). Every failure is a CryptoError with a stable
 * code; ciphertexts, wrapped keys and signatures are versioned envelopes.
 */

export { CRYPTO_ERROR_CODES, CryptoError, type CryptoErrorCode, isCryptoError } from "./errors";

export {
  type Bytes,
  base64urlDecode,
  base64urlEncode,
  hexEncode,
  utf8Decode,
  utf8Encode,
} from "./bytes";
export { canonicalJson } from "./canonical-json";

export {
  ARGON2ID_LIMITS,
  type AeadEnvelope,
  type Envelope,
  type EnvelopeKind,
  type EnvelopeOf,
  MAX_AEAD_PLAINTEXT,
  MAX_SEALED_PLAINTEXT,
  PROTOCOL_VERSION,
  type RecordSignatureEnvelope,
  type SealedEnvelope,
  type PickupWrapEnvelope,
  type SecureCodeWrapEnvelope,
  type SignatureEnvelope,
  parseEnvelope,
  serializeEnvelope,
} from "./envelope";

export type { Key, KeyPair } from "./primitives";

export {
  type AccountKeys,
  type AccountPublicKeys,
  type OkpPublicJwk,
  accountPublicKeys,
  exportPublicKey,
  generateAccountKeys,
  importAccountPublicKeys,
  importEncryptionPublicKey,
  importSigningPublicKey,
  lockAccountKeys,
} from "./account-keys";

export {
  generatePickupSecurityCode,
  isValidPickupSecurityCode,
  isValidSecureCode,
  normalizeSecureCode,
} from "./secure-code";

export { ARGON2ID_DEFAULTS, type Argon2idParams, type WrapBinding, unwrapAccountKeys, unwrapBoundAccountKeys, wrapAccountKeys } from "./secure-code-wrap";

export { type SealOptions, openSealed, sealFor } from "./seal";

export {
  type AeadOptions,
  decrypt,
  encrypt,
  exportSymmetricKey,
  generateSymmetricKey,
  importSymmetricKey,
} from "./aead";

export { sign, signRecord, verify, verifyRecord } from "./signatures";

export { SAFETY_NUMBER_ITERATIONS, type SafetyNumberParty, accountFingerprint, backupNameDigest, fingerprint, keyId, safetyNumber } from "./digests";

export {
  PICKUP_ARGON2ID_FLOOR,
  PICKUP_CODE_LENGTH,
  PICKUP_CODE_LETTERS,
  PICKUP_LINK_SECRET_BYTES,
  PICKUP_LOOKUP_PARAMS,
  type PickupFragment,
  type PickupKeys,
  type PickupParams,
  type PickupSecrets,
  type WrappedPickup,
  derivePickupKeys,
  formatPickupCode,
  generatePickupCode,
  generatePickupLinkSecret,
  isValidPickupCode,
  isDamagedPickupLink,
  meetsPickupFloor,
  normalizePickupCode,
  parsePickupFragment,
  pickupFragment,
  pickupLink,
  pickupLookup,
  pickupParams,
  pickupVerifier,
  unwrapPickupKey,
  wrapPickupKey,
} from "./pickup";

export {
  FILE_CHUNK_SIZE,
  type FileStream,
  type FileStreamHeader,
  decryptFileChunk,
  decryptFileStream,
  encryptFileChunk,
  encryptedFileSize,
  exportFileKey,
  fileChunkCount,
  importFileStream,
  newFileStream,
  parseFileStreamHeader,
  serializeFileStreamHeader,
} from "./file-stream";

// Records (docs/protocol.md §8, "Contexts and associated data in use"): one seal/open pair per
// record kind, with the context or associated data and the payload schema it needs. Seal
// functions answer the envelope's canonical text, as the API stores it.
export { CONVERSATION_EPOCH, type ConversationPlace, type LegacyOption } from "./records/place";
export {
  LEGACY_CONVERSATION_KEY_CONTEXT,
  type OpenedConversationKey,
  conversationKeyContext,
  openConversationKey,
  sealConversationKey,
} from "./records/conversation-key";
export {
  LEGACY_CONVERSATION_TITLE_AAD,
  type OpenedConversationTitle,
  conversationTitleAad,
  openConversationTitle,
  sealConversationTitle,
} from "./records/conversation-title";
export { type FileRef, fileRefSchema, parseFileRef } from "./records/file-ref";
export {
  type AnyMessagePlace,
  type GroupMessagePlace,
  type MessagePayload,
  type MessagePlace,
  type MessagePlaceV2,
  groupMessageAad,
  messageAad,
  messageAadV2,
  messagePayloadSchema,
  openMessage,
  sealMessage,
} from "./records/message";
export { THUMBNAIL_AAD, openThumbnail, sealThumbnail } from "./records/thumbnail";
export { type PickupToSeal, type SealedPickup, openPickup, sealPickup } from "./records/pickup";

// Protocol v2 (docs/protocol.md, "Version 2: authenticated identities and distribution"): signed
// records that a client checks instead of taking the server's word for keys and membership.
export {
  type IdentityKeys,
  type KeysOf,
  type VerifiedIdentity,
  type VerifiedKey,
  identityKeys,
  keyLookup,
} from "./records/identity-keys";
export {
  type AdminRecord,
  type Certification,
  type IdentityRecord,
  type InvitationRecord,
  type KeyResetRecord,
  type SignedAdmin,
  type SignedIdentity,
  type SignedInvitation,
  type SignedKeyReset,
  createInvitation,
  createInvitedIdentity,
  createKeyReset,
  createLegacyIdentity,
  createResetIdentity,
  createRootIdentity,
  grantAdmin,
  parseSignedAdmin,
  parseSignedIdentity,
  parseSignedInvitation,
  parseSignedKeyReset,
  rotateIdentity,
} from "./records/identity";
export {
  type IdentityChain,
  type IdentityRecords,
  type InstanceTrust,
  MAX_CHAIN_DEPTH,
  rootAnchor,
  verifyAdminKey,
  verifyIdentity,
  verifyInvitation,
  verifyKeyReset,
} from "./records/identity-chain";
export {
  type LegacyKeyRecord,
  type LegacyRuleRecord,
  type SignedLegacyKey,
  type SignedLegacyRule,
  type VerifiedLegacyKey,
  certifyLegacyKey,
  createLegacyRule,
  parseSignedLegacyKey,
  parseSignedLegacyRule,
  verifyLegacyKey,
  verifyLegacyRule,
} from "./records/legacy-key";
export { type IdentityPin, type PinCheck, type PinStatus, checkPin } from "./records/identity-pin";
export {
  ACCOUNT_DATA_KINDS,
  type AccountDataKind,
  type AccountDataPlace,
  accountDataAad,
  accountDataMark,
  openAccountData,
  sealAccountData,
} from "./records/account-data";
export { type KeyRef, normalizeEmail } from "./records/v2-fields";
export {
  type LogHead,
  type LogState,
  MEMBERSHIP_ACTIONS,
  type MembershipAction,
  type MembershipEntry,
  type SignedMembershipEntry,
  type VerifiedLog,
  appendToLog,
  createLog,
  entryHash,
  extendLog,
  findHead,
  membershipContainer,
  verifyLog,
} from "./records/membership-log";
export { membershipFingerprint } from "./records/membership-fingerprint";
export {
  type ConversationEpoch,
  type ConversationRecord,
  type SealedKeyRecord,
  type SignedConversation,
  type SignedSealedKey,
  commitKey,
  createConversationRecord,
  openSignedConversationKey,
  parseSignedConversation,
  parseSignedSealedKey,
  sealSignedConversationKey,
  verifyConversationRecord,
} from "./records/conversation-v2";
export { epochChainAad, openEpochLink, sealEpochLink } from "./records/epoch-chain";
export {
  type GroupMessageSignatureRecord,
  type MessageSignatureRecord,
  type OpenedSignedMessage,
  type SignedMessage,
  type SignedMessagePlace,
  type SignedMessageToOpen,
  MessageVouchers,
  checkMessageHead,
  openSignedMessage,
  openSignedMessages,
  parseSignedMessage,
  sealSignedMessage,
  signedMessageDigest,
  verifyMessageSignature,
} from "./records/signed-message";

// Groups (docs/protocol.md, "Group keys" and "Records and dockeys"): the conversations' signed
// distribution with the group's names and strings (membership log `group:<id>`), and the record
// (mote) data keys wrapped under an epoch key and granted to explicit grantees.
export {
  type GroupEpoch,
  type GroupRecord,
  type GroupSealedKeyRecord,
  type SignedGroup,
  commitGroupKey,
  createGroupRecord,
  groupEpochChainAad,
  groupKeyContext,
  openGroupEpochLink,
  openGroupKey,
  parseSignedGroup,
  sealGroupEpochLink,
  sealGroupKey,
  verifyGroupRecord,
} from "./records/group-key";
export {
  type DockeyPlace,
  RECORD_ID_BYTES,
  type RecordGrantRecord,
  type RecordPlace,
  dockeyAad,
  generateRecordId,
  generateRecordKey,
  grantRecordKey,
  openRecordGrant,
  openRecordPayload,
  recordGrantContext,
  recordPayloadAad,
  sealRecordPayload,
  unwrapRecordKey,
  wrapRecordKey,
} from "./records/record-key";
export {
  DRIVE_ITEM_TYPES,
  DRIVE_NAME_MAX,
  DRIVE_TAGS_MAX,
  DRIVE_TAG_MAX,
  type DriveItemGrant,
  type DriveItemPayload,
  type DriveItemType,
  type SealedDriveItem,
  driveItemPayloadSchema,
  openDriveItem,
  openDriveItemGrant,
  sealDriveItem,
  sealDriveItemForReaders,
} from "./records/drive-item";
export {
  COMMENT_TEXT_MAX,
  type CommentPayload,
  type CustomFieldValue,
  MOTE_ATTACHED_MAX,
  MOTE_CUSTOM_FIELDS_MAX,
  MOTE_TAGS_MAX,
  MOTE_TAG_MAX,
  MOTE_TEXT_MAX,
  MOTE_TITLE_MAX,
  type MotePayload,
  type SealedRecord,
  commentPayloadSchema,
  motePayloadSchema,
  type PageSealedRecord,
  openComment,
  openCommentForPage,
  openMote,
  openMoteForPage,
  sealComment,
  sealCommentForPage,
  sealMote,
  sealMoteForPage,
} from "./records/mote";
// Restricted pages (docs/protocol.md, "Restricted pages"): a page key per generation, sealed for
// each reader and signed by an administrator; the page's records' DEKs are wrapped under it.
export {
  type OpenedPageKey,
  type PageKeyCopy,
  type PageKeyCopyRecord,
  type PageKeyPlace,
  type PageRecordPlace,
  generatePageKey,
  openPageKey,
  openPageKeyLink,
  pageDockeyAad,
  pageKeyChainAad,
  pageKeyContext,
  pageKeyLinkDigest,
  sealPageKey,
  sealPageKeyLink,
  unwrapRecordKeyForPage,
  wrapRecordKeyForPage,
} from "./records/page-key";
