/**
 * What other features take from conversations: the signed distribution of a key through a
 * membership log, written once here and used by groups (docs/protocol.md §8, §14.8): the ring's
 * verification, the log changes and the people's verified keys.
 */
export { type DistributionProblem, type KeyRing, type RingInput, type RingKind, DistributionError, isDistributionError, verifyRing } from "./distribution";
export { extend, json, newLog, onNewest, ref, withKeys } from "./signed-changes";
export { keyOf, keysOfPerson, myIdentity, myKey, signerLookup } from "./signers";
