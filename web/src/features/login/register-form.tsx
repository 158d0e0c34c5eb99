import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { PasswordField } from "../../lib/ui/password-field";
import { useFields } from "../../lib/ui/use-fields";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isSixDigits, isValidName, isValidPassword, PASSWORD_MIN } from "../../lib/validation";
import { registerErrorText } from "./login-errors";
import type { Account } from "./lookup-contact";
import { useRegisterUser } from "./register-user";
import { useSendVerification } from "./send-verification";
import { useMailedCode } from "./use-mailed-code";
import { ns } from "./i18n";

export interface RegisterFormProps {
  account: Account;
  contact: string;
  onBack: () => void;
  onError: (message: string) => void;
}

type Field = "name" | "password" | "verification" | "code";

/** An invited account without a password: a code is emailed, then name and password are set. */
export function RegisterForm({ account, contact, onBack, onError }: RegisterFormProps) {
  const { t } = useTranslation([ns, "common"]);
  const { values, setErrors, bind } = useFields<Field>(
    { name: "", password: "", verification: "", code: "" },
    { code: (value) => value.replace(/\D/g, "").slice(0, 6) },
  );
  const mailed = useMailedCode(useSendVerification(), { uid: account.id, contact }, onError);
  const register = useRegisterUser();
  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!isValidName(values.name)) found.name = t("common:validation.nameRequired");
    if (!isValidPassword(values.password)) found.password = t("common:validation.passwordTooShort", { min: PASSWORD_MIN });
    if (values.verification !== values.password) found.verification = t("common:validation.passwordMismatch");
    if (!isSixDigits(values.code)) found.code = t("common:validation.sixDigits");
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    register.mutate(
      { name: values.name.trim(), password: values.password, contact, vericode: values.code },
      // 409: already registered; the server's text says what to do.
      { onError: (error) => onError(registerErrorText(error)) },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text fw={600}>{t("register.heading")}</Text>
        <Text size="sm">{t("register.codeSent", { contact })}</Text>
        <TextInput label={t("register.name")} autoComplete="name" autoFocus {...bind("name")} />
        <PasswordField label={t("register.password")} autoComplete="new-password" {...bind("password")} />
        <PasswordField
          label={t("register.passwordVerification")}
          autoComplete="new-password"
          {...bind("verification")}
        />
        <TextInput
          label={t("register.code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          {...bind("code")}
        />
        <Group justify="space-between">
          <Button variant="subtle" onClick={onBack}>
            {t("common:back")}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={mailed.resend} loading={mailed.sending}>
              {t("register.resend")}
            </Button>
            <Button type="submit" loading={register.isPending}>
              {t("register.submit")}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
