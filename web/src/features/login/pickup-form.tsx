import { Alert, Button, Stack, TextInput } from "@mantine/core";
import { useEffect, useRef, useState, type ClipboardEvent, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLookupPickup } from "./lookup-pickup";
import { formatPickupCode, PICKUP_CODE_LENGTH, pickupCodeChars, pickupCodeFromPaste } from "./pickup-code";
import { pickupErrorKey } from "./login-errors";

export interface PickupFormProps {
  /** A code taken from the address the user opened; it is filled in and submitted at once. */
  initialCode?: string;
  onError: (message: string) => void;
}

/** A guest's entry: the pickup code (ABABA-12121), typed or pasted as a link. */
export function PickupForm({ initialCode, onError }: PickupFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState(() => formatPickupCode(initialCode ?? ""));
  const [invalid, setInvalid] = useState<string | null>(null);
  const lookup = useLookupPickup();
  const autoSubmitted = useRef(false);

  function attempt(value: string) {
    const chars = pickupCodeChars(value);
    if (chars.length !== PICKUP_CODE_LENGTH) {
      setInvalid(t("login.pickup.invalid"));
      return;
    }
    setInvalid(null);
    lookup.mutate(chars, { onError: (error) => onError(t(pickupErrorKey(error))) });
  }

  useEffect(() => {
    if (!initialCode || autoSubmitted.current) return;
    autoSubmitted.current = true;
    attempt(initialCode);
  });

  function paste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = pickupCodeFromPaste(event.clipboardData.getData("text"));
    if (!pasted) return;
    event.preventDefault();
    setCode(formatPickupCode(pasted));
    attempt(pasted);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    attempt(code);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t("login.pickup.code")}
          description={t("login.pickup.hint")}
          placeholder={t("login.pickup.placeholder")}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={code}
          onChange={(event) => setCode(formatPickupCode(event.currentTarget.value))}
          onPaste={paste}
          error={invalid}
          autoFocus
        />
        {lookup.isSuccess ? <Alert color="blue">{t("login.pickup.found")}</Alert> : null}
        <Button type="submit" loading={lookup.isPending}>
          {t("login.continue")}
        </Button>
      </Stack>
    </form>
  );
}
