import { Button, Stack, TextInput } from "@mantine/core";
import { PasswordField } from "../../lib/ui/password-field";
import { useFields } from "../../lib/ui/use-fields";
import { type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../lib/api";
import { isValidEmail, isValidName, isValidPassword, PASSWORD_MIN } from "../../lib/validation";
import { useSetupInstance } from "./setup-instance";

type Field = "name" | "email" | "password" | "confirmation";

export interface SetupFormProps {
  token: string;
  onDone: () => void;
  onError: (message: string) => void;
}

export function SetupForm({ token, onDone, onError }: SetupFormProps) {
  const { t } = useTranslation();
  const { values, setErrors, bind } = useFields<Field>({ name: "", email: "", password: "", confirmation: "" });
  const setup = useSetupInstance();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!isValidName(values.name)) found.name = t("validation.nameRequired");
    if (!isValidEmail(values.email)) found.email = t("validation.invalidEmail");
    if (!isValidPassword(values.password)) found.password = t("validation.passwordTooShort", { min: PASSWORD_MIN });
    if (values.confirmation !== values.password) found.confirmation = t("validation.passwordMismatch");
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setup.mutate(
      { token, name: values.name.trim(), email: values.email.trim().toLowerCase(), password: values.password },
      {
        onSuccess: onDone,
        // The server's texts for a used or wrong token say what to do; a crash does not.
        onError: (error) => onError(isApiError(error) && error.status >= 400 && error.status < 500 ? error.message : t("setup.failed")),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={t("setup.name")} autoComplete="name" autoFocus {...bind("name")} />
        <TextInput label={t("setup.email")} type="email" autoComplete="email" {...bind("email")} />
        <PasswordField label={t("setup.password")} autoComplete="new-password" {...bind("password")} />
        <PasswordField label={t("setup.passwordConfirmation")} autoComplete="new-password" {...bind("confirmation")} />
        <Button type="submit" loading={setup.isPending}>
          {t("setup.submit")}
        </Button>
      </Stack>
    </form>
  );
}
