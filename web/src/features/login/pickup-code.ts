export const PICKUP_CODE_LENGTH = 10;

/** The characters of a pickup code: upper-cased, without spaces or hyphens, at most 10. */
export function pickupCodeChars(input: string): string {
  return input
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, PICKUP_CODE_LENGTH);
}

/** ABABA12121 → ABABA-12121; the hyphen appears once a sixth character is typed. */
export function formatPickupCode(input: string): string {
  const chars = pickupCodeChars(input);
  return chars.length > 5 ? `${chars.slice(0, 5)}-${chars.slice(5)}` : chars;
}

/**
 * A pasted pickup link, its address fragment ("#ABABA12121x") or a whole code: the first 10
 * alphanumerics of what follows the "#". Anything else is ordinary typing (null).
 */
export function pickupCodeFromPaste(text: string): string | null {
  const trimmed = text.trim();
  const hashAt = trimmed.lastIndexOf("#");
  const fragment = hashAt >= 0 ? trimmed.slice(hashAt + 1) : trimmed;
  if (hashAt < 0 && !/^[A-Za-z0-9][A-Za-z0-9 -]{9,11}$/.test(fragment)) return null;
  const alphanumerics = fragment.replace(/[^A-Za-z0-9]/g, "");
  return alphanumerics.length >= PICKUP_CODE_LENGTH ? alphanumerics.slice(0, PICKUP_CODE_LENGTH).toUpperCase() : null;
}
