/** Spec 001 §5: group currency codes are ISO 4217, upper-cased, the first the default; USD when none. */
export const DEFAULT_CURRENCY = "USD";
export const CURRENCY_CODES_MAX = 20;

/** The ISO 4217 codes this browser knows (as the server checks them: Intl.supportedValuesOf). */
function knownCodes(): ReadonlySet<string> {
  return new Set(Intl.supportedValuesOf("currency"));
}

export type CurrencyResult = { ok: true; codes: string[] } | { ok: false; unknown: string[] } | { ok: false; tooMany: true };

/**
 * A comma list as typed: trimmed, upper-cased, blanks and repeats dropped; every code must be
 * ISO 4217. Empty means the default (USD).
 */
export function parseCurrencyCodes(text: string, known: ReadonlySet<string> = knownCodes()): CurrencyResult {
  const codes = [...new Set(text.split(/[,;\s]+/).map((code) => code.trim().toUpperCase()).filter(Boolean))];
  const unknown = codes.filter((code) => !known.has(code));
  if (unknown.length > 0) return { ok: false, unknown };
  if (codes.length > CURRENCY_CODES_MAX) return { ok: false, tooMany: true };
  return { ok: true, codes: codes.length > 0 ? codes : [DEFAULT_CURRENCY] };
}
