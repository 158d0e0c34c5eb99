import { Button, Stack, TextInput } from "@mantine/core";
import { type PickupFragment, isDamagedPickupLink, normalizePickupCode, parsePickupFragment } from "@sealwork/crypto";
import { useEffect, useRef, useState, type ClipboardEvent, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { type GuestPickup, WeakPickupError } from "../../lib/guest";
import { pickupErrorText } from "./login-errors";
import { PickupLinkError, useLookupPickup } from "./lookup-pickup";
import { pickupCodeInput } from "./pickup-code";
import { ns } from "./i18n";

export interface PickupFormProps {
  /** The pickup link's fragment the user opened: filled in and looked up at once. */
  initial?: PickupFragment;
  /** The pickup exists: next, the security code (the key popup's pickup state). */
  onFound: (pickup: GuestPickup) => void;
  onError: (message: string) => void;
}

/** A guest's entry (spec 000 §2): the pickup code (ABABA-12121), typed, or pasted as a link or fragment. */
export function PickupForm({ initial, onFound, onError }: PickupFormProps) {
  const { t } = useTranslation(ns);
  const [code, setCode] = useState(() => pickupCodeInput(initial?.code ?? ""));
  // A link's secret belongs to the code it came with; typing another code drops it.
  const [linkSecret, setLinkSecret] = useState<string | null>(initial?.linkSecret ?? null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const lookup = useLookupPickup();
  const autoSubmitted = useRef(false);

  function attempt(fragment: PickupFragment | null) {
    if (!fragment) return setInvalid(t("pickup.invalid"));
    setInvalid(null);
    lookup.mutate(fragment, {
      onSuccess: onFound,
      onError: (error) => {
        if (error instanceof WeakPickupError) return onError(error.text());
        onError(error instanceof PickupLinkError ? t(error.needsLink ? "pickup.needsLink" : "pickup.incorrect") : pickupErrorText(error));
      },
    });
  }

  useEffect(() => {
    if (!initial || autoSubmitted.current) return;
    autoSubmitted.current = true;
    attempt(initial);
  });

  function paste(event: ClipboardEvent<HTMLInputElement>) {
    const text = event.clipboardData.getData("text");
    const pasted = parsePickupFragment(text);
    // A pasted link that lost or changed a character is not looked up (see isDamagedPickupLink).
    if (!pasted && text.includes("#") && isDamagedPickupLink(text)) {
      event.preventDefault();
      return setInvalid(t("pickup.pasteDamaged"));
    }
    if (!pasted) return;
    event.preventDefault();
    setCode(pickupCodeInput(pasted.code));
    setLinkSecret(pasted.linkSecret);
    attempt(pasted);
  }

  function change(value: string) {
    setCode(pickupCodeInput(value));
    setLinkSecret(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const normal = normalizePickupCode(code);
    attempt(normal ? { code: normal, linkSecret } : null);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t("pickup.code")}
          description={t("pickup.hint")}
          placeholder={t("pickup.placeholder")}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={code}
          onChange={(event) => change(event.currentTarget.value)}
          onPaste={paste}
          error={invalid}
          autoFocus
        />
        <Button type="submit" loading={lookup.isPending}>
          {t("continue")}
        </Button>
      </Stack>
    </form>
  );
}
