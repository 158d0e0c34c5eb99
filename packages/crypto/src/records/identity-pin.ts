import * as z from "zod";
import { CryptoError } from "../errors";
import type { VerifiedIdentity } from "./identity-keys";
import { countField, idField, keyIdField, parseRecord } from "./v2-fields";

/**
 * Pins (docs/protocol.md, "Pins"): the identity key a client has seen for each contact, kept in
 * its encrypted account data so another browser of the same user has them too. Plain JSON.
 */
export interface IdentityPin {
  userId: number;
  keyId: string;
  seq: number;
  /** The user compared safety numbers with this person and marked them verified. */
  verified: boolean;
}

export type PinStatus = "new" | "same" | "rotated" | "reset";

export interface PinCheck {
  status: PinStatus;
  /** What to keep from now on (unchanged when "same"). */
  pin: IdentityPin;
}

const pinSchema = z.strictObject({ userId: idField, keyId: keyIdField, seq: countField, verified: z.boolean() });

/**
 * Compares a verified identity with the pin held for that user. No pin: "new" (pin it, not yet
 * verified). The pinned key: "same". A later key whose chain contains the pinned key at the pinned
 * seq: "rotated", and the pin moves to the current key; the verified mark carries over, because
 * the key the user verified signed the rotation. A later key that an administrator's key reset
 * certified anywhere after the pinned one: "reset", the pin moves and is no longer verified (the
 * key the user compared did not sign it; the client says that the key changed). A pinned version 1
 * key (seq 0) that certified the chain's birth record (docs/protocol.md §14.14) counts as the key
 * before the birth: "rotated" (or "reset"), the verified mark carried. Refuses: stale_key when the chain ends below the
 * pinned seq (an old record), untrusted_key when the key differs without a chain from the pinned
 * one. Pure: no I/O, throws instead of rejecting.
 */
export function checkPin(pin: IdentityPin | undefined, identity: VerifiedIdentity): PinCheck {
  const current = { userId: identity?.userId, keyId: identity?.keyId, seq: identity?.seq };
  if (pin === undefined) return { status: "new", pin: parseRecord(pinSchema, { ...current, verified: false }, "pin", "invalid_input") };
  const held = parseRecord(pinSchema, pin, "pin", "invalid_input");
  if (held.userId !== identity.userId) throw new CryptoError("invalid_input", "the pin is another user's");
  // A version 1 key pinned (seq 0) that certified the birth record: the chain goes on from it, as from a pinned key.
  if (held.seq === 0 && identity.keys?.[0]?.legacy === held.keyId) return moved(held, identity, 0);
  if (identity.seq < held.seq) throw new CryptoError("stale_key", `the server answered key ${identity.seq} of user ${held.userId}, older than the pinned ${held.seq}`);
  if (identity.keys?.[held.seq]?.keyId !== held.keyId) throw new CryptoError("untrusted_key", `user ${held.userId}'s key changed without a chain from the pinned key`);
  if (identity.seq === held.seq) return { status: "same", pin: held };
  return moved(held, identity, held.seq + 1);
}

/** The pin moved to the current key; `after` is the index of the first key after the pinned one. */
function moved(held: IdentityPin, identity: VerifiedIdentity, after: number): PinCheck {
  const pin = { ...held, keyId: identity.keyId, seq: identity.seq };
  if (identity.keys.slice(after).some((key) => key.reset)) return { status: "reset", pin: { ...pin, verified: false } };
  return { status: "rotated", pin };
}
