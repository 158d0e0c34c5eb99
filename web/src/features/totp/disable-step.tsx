import { Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { isRecoveryCode } from "@sealwork/contracts";
import type { FormEvent, RefObject } from "react";
import { useTranslation } from "react-i18next";
import { isSixDigits } from "../../lib/validation";
import { ns } from "./i18n";

export interface DisableStepProps {
  code: string;
  onCodeChange: (code: string) => void;
  onSubmit: (code: string) => void;
  onCancel: () => void;
  destroying: boolean;
  codeClassName?: string;
  codeRef: RefObject<HTMLInputElement | null>;
}

const acceptable = (code: string) => isSixDigits(code) || isRecoveryCode(code);

/** States disabling and destroying: a current code, or a recovery code, switches 2FA off. */
export function DisableStep({ code, onCodeChange, onSubmit, onCancel, destroying, codeClassName, codeRef }: DisableStepProps) {
  const { t } = useTranslation([ns, "common"]);

  function change(value: string) {
    const typed = value.toUpperCase().slice(0, 16);
    onCodeChange(typed);
    // Six digits are a complete code and go by themselves; a recovery code waits for the button.
    if (isSixDigits(typed)) onSubmit(typed);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (acceptable(code)) onSubmit(code);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text>{t("disableIntro")}</Text>
        <TextInput
          ref={codeRef}
          className={codeClassName}
          label={t("disableCode")}
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => change(event.currentTarget.value)}
          disabled={destroying}
          maw={240}
          autoFocus
        />
        <Group>
          <Button variant="default" onClick={onCancel} disabled={destroying}>
            {t("common:cancel")}
          </Button>
          <Button type="submit" color="red" disabled={!acceptable(code)} loading={destroying}>
            {t("disableSubmit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
