import { useTranslation } from "react-i18next";

/** Characters as people count them (a code point each), not UTF-16 units. */
export const characterCount = (value: string): number => [...value].length;

/**
 * A text field's limit, said rather than enforced silently (a `maxLength` cuts pasted text
 * without a word): the count against the limit as the field's description, and an error once
 * the text is longer, which the form checks before it submits (`over`).
 */
export function useLengthLimit(value: string, max: number) {
  const { t } = useTranslation("common");
  const count = characterCount(value);
  const over = count > max;
  return {
    over,
    description: t("limit.count", { count, max }),
    error: over ? t("limit.over", { count, max }) : undefined,
  };
}
