import { Anchor, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { isRecoveryCode } from "@sealwork/contracts";
import { PasswordField } from "../../lib/ui/password-field";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useShake } from "../../lib/ui/use-shake";
import { isSixDigits } from "../../lib/validation";
import { isPasswordFailure, isTotpFailure, loginErrorText } from "./login-errors";
import { useLoginUser } from "./login-user";
import type { Account } from "./lookup-contact";
import { ns } from "./i18n";

export interface PasswordFormProps {
  account: Account;
  onBack: () => void;
  /** The forgotten-password step: a code to the contact, then a new password. */
  onForgot: () => void;
  onError: (message: string) => void;
}

/**
 * Password, plus the 2FA code when the account has it; a complete code submits by itself. A
 * recovery code can stand in for the 2FA code (the server normalises look-alike characters).
 */
export function PasswordForm({ account, onBack, onForgot, onError }: PasswordFormProps) {
  const { t } = useTranslation([ns, "common"]);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [useRecovery, setUseRecovery] = useState(false);
  // true: marked invalid without a message of its own (the error dialog says why).
  const [errors, setErrors] = useState<{ password?: string | true; code?: string | true }>({});
  const login = useLoginUser();
  const codeBox = useShake();
  const codeInput = useRef<HTMLInputElement>(null);

  function attempt(currentCode: string) {
    const found: typeof errors = {};
    if (!password) found.password = t("common:validation.passwordRequired");
    if (account.totp_enabled && !useRecovery && !isSixDigits(currentCode)) found.code = t("common:validation.sixDigits");
    if (account.totp_enabled && useRecovery && !isRecoveryCode(currentCode)) found.code = t("twoFactor.recoveryInvalid");
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
          // Spec 000 §4: a refused password marks the field invalid (and the code field, when
          // either may have been wrong); the dialog gives the reason.
          if (isPasswordFailure(error)) setErrors({ password: true, code: isTotpFailure(error) ? true : undefined });
          onError(loginErrorText(error));
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    attempt(code);
  }

  function changeCode(value: string) {
    if (useRecovery) {
      // Left as typed (but upper-cased); a recovery code is sent with the button, not by itself.
      setCode(value.toUpperCase().slice(0, 16));
      return;
    }
    const digits = value.replace(/\D/g, "").slice(0, 6);
    setCode(digits);
    // Spec 000 §5: the code is submitted as soon as it is complete.
    if (digits.length === 6 && password) attempt(digits);
  }

  function toggleRecovery() {
    setUseRecovery((current) => !current);
    setCode("");
    setErrors((current) => ({ ...current, code: undefined }));
    codeInput.current?.focus();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text>{t("signingInAs", { recognition: account.recognition })}</Text>
        <PasswordField
          label={t("password")}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            if (errors.password === true) setErrors((current) => ({ ...current, password: undefined }));
          }}
          error={errors.password}
          autoFocus
        />
        <Anchor component="button" type="button" size="sm" onClick={onForgot} style={{ alignSelf: "flex-start" }}>
          {t("reset.forgot")}
        </Anchor>
        {account.totp_enabled ? (
          <Stack gap={4}>
            <TextInput
              ref={codeInput}
              className={codeBox.className}
              label={useRecovery ? t("twoFactor.recovery") : t("totp")}
              description={useRecovery ? t("twoFactor.recoveryHint") : t("totpHint")}
              inputMode={useRecovery ? "text" : "numeric"}
              autoComplete={useRecovery ? "off" : "one-time-code"}
              value={code}
              onChange={(event) => changeCode(event.currentTarget.value)}
              error={errors.code}
            />
            <Anchor component="button" type="button" size="sm" onClick={toggleRecovery} style={{ alignSelf: "flex-start" }}>
              {useRecovery ? t("twoFactor.useCode") : t("twoFactor.useRecovery")}
            </Anchor>
          </Stack>
        ) : null}
        <Group justify="space-between">
          <Button variant="subtle" onClick={onBack}>
            {t("common:back")}
          </Button>
          <Button type="submit" loading={login.isPending}>
            {t("submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
