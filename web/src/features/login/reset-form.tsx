import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { PasswordField } from "../../lib/ui/password-field";
import { useFields } from "../../lib/ui/use-fields";
import { isSixDigits, isValidPassword, PASSWORD_MIN } from "../../lib/validation";
import { registerErrorText } from "./login-errors";
import type { Account } from "./lookup-contact";
import { useResetPassword, useSendResetCode } from "./reset-password";
import { useMailedCode } from "./use-mailed-code";
import { ns } from "./i18n";

export interface ResetFormProps {
  account: Account;
  contact: string;
  onBack: () => void;
  onError: (message: string) => void;
}

type Field = "password" | "verification" | "code" | "totp";

/**
 * A forgotten password: a code goes to the contact, then a new password (and the 2FA code when
 * the account has it). The account key is untouched: it still opens with the secure code.
 */
export function ResetForm({ account, contact, onBack, onError }: ResetFormProps) {
  const { t } = useTranslation([ns, "common"]);
  const { values, setErrors, bind } = useFields<Field>(
    { password: "", verification: "", code: "", totp: "" },
    { code: (value) => value.replace(/\D/g, "").slice(0, 6) },
  );
  const mailed = useMailedCode(useSendResetCode(), { uid: account.id, contact }, onError);
  const reset = useResetPassword();
  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!isSixDigits(values.code)) found.code = t("common:validation.sixDigits");
    if (!isValidPassword(values.password)) found.password = t("common:validation.passwordTooShort", { min: PASSWORD_MIN });
    if (values.verification !== values.password) found.verification = t("common:validation.passwordMismatch");
    if (account.totp_enabled && !values.totp.trim()) found.totp = t("common:validation.sixDigits");
    setErrors(found);
    if (Object.keys(found).length > 0 || reset.isPending) return;
    reset.mutate(
      { contact, vericode: values.code, password: values.password, totp_auth: account.totp_enabled ? values.totp.trim() : undefined },
      { onError: (error) => onError(registerErrorText(error)) },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text fw={600}>{t("reset.heading")}</Text>
        <Text size="sm">{t("reset.codeSent", { contact })}</Text>
        <TextInput label={t("register.code")} inputMode="numeric" autoComplete="one-time-code" autoFocus {...bind("code")} />
        <PasswordField label={t("reset.password")} autoComplete="new-password" {...bind("password")} />
        <PasswordField label={t("register.passwordVerification")} autoComplete="new-password" {...bind("verification")} />
        {account.totp_enabled ? <TextInput label={t("totp")} description={t("reset.totpHint")} autoComplete="off" {...bind("totp")} /> : null}
        <Text size="sm" c="dimmed">
          {t("reset.keyNote")}
        </Text>
        <Group justify="space-between">
          <Button variant="subtle" onClick={onBack}>
            {t("common:back")}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={mailed.resend} loading={mailed.sending}>
              {t("register.resend")}
            </Button>
            <Button type="submit" loading={reset.isPending}>
              {t("reset.submit")}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
