import { INVITATION_CODE_ALPHABET, INVITATION_CODE_LENGTH, isInvitationCode, normalizeInvitationCode } from "@sealwork/contracts";

/**
 * The invitation code (spec 000 §5; docs/protocol.md §13): eight characters from the 32 of
 * Crockford's base 32. One random byte per character, masked to 5 bits: 256 is a multiple of 32,
 * so every character is equally likely (40 bits in all).
 */
export function generateInvitationCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(INVITATION_CODE_LENGTH));
  return [...bytes].map((b) => INVITATION_CODE_ALPHABET[b & 31]).join("");
}

export { isInvitationCode, normalizeInvitationCode };
