import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { PasswordField } from "../../lib/ui/password-field";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useShake } from "../../lib/ui/use-shake";
import { isSixDigits } from "../../lib/validation";
import { isTotpFailure, loginErrorKey } from "./login-errors";
import { useLoginUser } from "./login-user";
import type { Account } from "./lookup-contact";

export interface PasswordFormProps {
  account: Account;
  onBack: () => void;
  onError: (message: string) => void;
}

/** Password, plus the 2FA code when the account has it; a complete code submits by itself. */
export function PasswordForm({ account, onBack, onError }: PasswordFormProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const login = useLoginUser();
  const codeBox = useShake();
  const codeInput = useRef<HTMLInputElement>(null);

  function attempt(currentCode: string) {
    const found: typeof errors = {};
    if (!password) found.password = t("validation.passwordRequired");
    if (account.totp_enabled && !isSixDigits(currentCode)) found.code = t("validation.sixDigits");
    setErrors(found);
    if (found.password || found.code || login.isPending) return;
    login.mutate(
      { id: account.id, password, totp_auth: account.totp_enabled ? currentCode : undefined },
      {
        onError: (error) => {
          if (account.totp_enabled && isTotpFailure(error)) {
            setCode("");
            codeBox.shake();
            codeInput.current?.focus();
          }
          onError(t(loginErrorKey(error)));
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    attempt(code);
  }

  function changeCode(value: string) {
    const digits = value.replace(/\D/g, "").slice(0, 6);
    setCode(digits);
    // Spec 000 §5: the code is submitted as soon as it is complete.
    if (digits.length === 6 && password) attempt(digits);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text>{t("login.signingInAs", { recognition: account.recognition })}</Text>
        <PasswordField
          label={t("login.password")}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={errors.password}
          autoFocus
        />
        {account.totp_enabled ? (
          <TextInput
            ref={codeInput}
            className={codeBox.className}
            label={t("login.totp")}
            description={t("login.totpHint")}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => changeCode(event.currentTarget.value)}
            error={errors.code}
          />
        ) : null}
        <Group justify="space-between">
          <Button variant="subtle" onClick={onBack}>
            {t("common.back")}
          </Button>
          <Button type="submit" loading={login.isPending}>
            {t("login.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
