import { PICKUP_CODE_LENGTH, formatPickupCode } from "@sealwork/crypto";

/**
 * The pickup code as it is being typed: upper-cased, letters and digits only, at most 10, and
 * the hyphen once a sixth character is in (ABABA-12121). What counts as a valid code is
 * normalizePickupCode's rule (@sealwork/crypto), applied on submit.
 */
export function pickupCodeInput(input: string): string {
  const chars = input
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, PICKUP_CODE_LENGTH);
  return chars.length > 5 ? formatPickupCode(chars) : chars;
}
