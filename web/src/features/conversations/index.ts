/**
 * What other features take from conversations: the signed distribution of a key through a
 * membership log, written once here and used by groups (docs/protocol.md §8, §14.8): the ring's
 * verification, the log changes and the people's verified keys.
 */
export { type DistributionProblem, type KeyRing, type RingInput, type RingKind, DistributionError, headCheck, isDistributionError, verifyRing } from "./distribution";
export { ringCache } from "./ring-cache";
export { extend, json, newLog, onNewest, ref, withKeys } from "./signed-changes";
/** The membership fingerprint of a verified log, shown on a group's members page too. */
export { MembershipFingerprint, logFingerprint } from "./membership-fingerprint";
export { keyOf, keysOfPerson, myIdentity, myKey, signerLookup } from "./signers";
/** A renewal of the user's account key (features/settings) renews the keys of the conversations they administer. */
export { type RenewProgress, renewConversationKeys } from "./renew-conversations";

/** The message screen's parts, used by a group's own conversation page (features/groups/conversation). */
export { MessageList } from "./message-list";
export { MessageBar } from "./message-bar";
export { draftKeys, returnToDraft, sentByMovedKey } from "./drafts";
export { type Message, shownMessage } from "./load-conversation";
export { type OpenedMessage, openChainedMessages, sealChainedMessage } from "./message-crypto";
export { type MessagePayload } from "./message-crypto";
export { addPending, dropPending, mergeMessages, newerCursor, newestId, oldestId, pendingMessage, reconcileAppend, setPendingStatus } from "./message-state";
export { messagePollQuery } from "./poll-conversation";
/** Paging back with older pages fetched ahead (in the page-chain worker). */
export { type OlderHistory, newVisit, olderPages, usePagesAhead } from "./older-pages";
/** A page that waits for its key after one's own key moved looks again with the same back-off. */
export { useKeyWait } from "./key-wait";
export { newLocalid } from "./append-message";
export { actionErrorText, loadErrorText } from "./conversation-errors";

/** Encrypted files in chunks through presigned URLs, for any container (a group's drive). */
export { type FileSpace, TransferError, type TransferOptions, downloadFile, fetchThumbnail, isAbort, uploadFile } from "./attachments/transfer";
/** One attached file with its thumbnail and Download, from any file space (a card's attachments). */
export { AttachmentView } from "./attachments/attachment-view";
