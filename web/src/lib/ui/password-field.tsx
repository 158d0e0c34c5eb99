import { PasswordInput, type PasswordInputProps } from "@mantine/core";
import { useTranslation } from "react-i18next";

/**
 * Mantine's PasswordInput, with
 * - a reveal toggle whose name does not contain "password": the default ("Toggle password
 *   visibility") also answers to the field's own label;
 * - `aria-invalid` on the field while it shows an error: Mantine marks the field only with a
 *   data attribute and a red border, which a screen reader does not announce (every other Mantine
 *   input sets it).
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation("common");
  return <PasswordInput visibilityToggleButtonProps={{ "aria-label": t("revealToggle") }} aria-invalid={props.error ? true : undefined} {...props} />;
}
