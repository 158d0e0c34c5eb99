import { Button, Group, Image, Stack, Text, TextInput } from "@mantine/core";
import type { FormEvent, RefObject } from "react";
import { useTranslation } from "react-i18next";
import { isSixDigits } from "../../lib/validation";
import { ns } from "./i18n";

export interface EnableStepProps {
  qr: string;
  secret: string;
  code: string;
  onCodeChange: (code: string) => void;
  /** The code, once it has 6 digits; typing the sixth digit sends it too (spec 000 §5). */
  onSubmit: (code: string) => void;
  onCancel: () => void;
  finalizing: boolean;
  codeClassName?: string;
  codeRef: RefObject<HTMLInputElement | null>;
}

/** States enabling and finalizing: the QR code and secret, and the first code from the app. */
export function EnableStep({ qr, secret, code, onCodeChange, onSubmit, onCancel, finalizing, codeClassName, codeRef }: EnableStepProps) {
  const { t } = useTranslation([ns, "common"]);

  function change(value: string) {
    const digits = value.replace(/\D/g, "").slice(0, 6);
    onCodeChange(digits);
    if (isSixDigits(digits)) onSubmit(digits);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (isSixDigits(code)) onSubmit(code);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text>{t("scan")}</Text>
        <Image src={qr} alt={t("qrAlt")} w={240} h={240} fit="contain" />
        <TextInput
          label={t("secret")}
          // Groups of four are easier to type into an app by hand; apps ignore the spaces.
          value={secret.replace(/(.{4})(?=.)/g, "$1 ")}
          readOnly
          variant="filled"
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          maw={420}
        />
        <TextInput
          ref={codeRef}
          className={codeClassName}
          label={t("code")}
          description={t("codeHint")}
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => change(event.currentTarget.value)}
          disabled={finalizing}
          maw={240}
          autoFocus
        />
        <Group>
          <Button variant="default" onClick={onCancel} disabled={finalizing}>
            {t("common:cancel")}
          </Button>
          <Button type="submit" disabled={!isSixDigits(code)} loading={finalizing}>
            {t("verify")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
