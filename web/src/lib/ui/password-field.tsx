import { PasswordInput, type PasswordInputProps } from "@mantine/core";
import { useTranslation } from "react-i18next";

/**
 * Mantine's PasswordInput, with a reveal toggle whose name does not contain "password": the
 * default ("Toggle password visibility") also answers to the field's own label.
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation("common");
  return <PasswordInput visibilityToggleButtonProps={{ "aria-label": t("revealToggle") }} {...props} />;
}
