import { Button, Stack, TextInput } from "@mantine/core";
import { PasswordField } from "../../lib/ui/password-field";
import { useFields } from "../../lib/ui/use-fields";
import { type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isValidEmail, isValidName, isValidPassword, PASSWORD_MIN } from "../../lib/validation";
import { errorText } from "../../lib/error-text";
import { useSetupInstance } from "./setup-instance";
import { ns } from "./i18n";

type Field = "name" | "email" | "password" | "confirmation";

export interface SetupFormProps {
  token: string;
  onDone: () => void;
  onError: (message: string) => void;
}

export function SetupForm({ token, onDone, onError }: SetupFormProps) {
  const { t } = useTranslation([ns, "common"]);
  const { values, setErrors, bind } = useFields<Field>({ name: "", email: "", password: "", confirmation: "" });
  const setup = useSetupInstance();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!isValidName(values.name)) found.name = t("common:validation.nameRequired");
    if (!isValidEmail(values.email)) found.email = t("common:validation.invalidEmail");
    if (!isValidPassword(values.password)) found.password = t("common:validation.passwordTooShort", { min: PASSWORD_MIN });
    if (values.confirmation !== values.password) found.confirmation = t("common:validation.passwordMismatch");
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setup.mutate(
      { token, name: values.name.trim(), email: values.email.trim().toLowerCase(), password: values.password },
      {
        onSuccess: onDone,
        // The server's texts for a used or wrong token say what to do; a crash does not.
        onError: (error) => onError(errorText(error, t("failed"))),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={t("name")} autoComplete="name" autoFocus {...bind("name")} />
        <TextInput label={t("email")} type="email" autoComplete="email" {...bind("email")} />
        <PasswordField label={t("password")} autoComplete="new-password" {...bind("password")} />
        <PasswordField label={t("passwordConfirmation")} autoComplete="new-password" {...bind("confirmation")} />
        <Button type="submit" loading={setup.isPending}>
          {t("submit")}
        </Button>
      </Stack>
    </form>
  );
}
