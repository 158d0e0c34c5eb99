import { Button, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isValidEmail, isValidPhone } from "../../lib/validation";
import { lookupErrorKey } from "./login-errors";
import { useLookupContact, type Account } from "./lookup-contact";

export interface ContactFormProps {
  mode: "phone" | "email";
  onFound: (account: Account, contact: string) => void;
  onError: (message: string) => void;
}

/** First step: the phone number or email that identifies the account. */
export function ContactForm({ mode, onFound, onError }: ContactFormProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const lookup = useLookupContact();

  function submit(event: FormEvent) {
    event.preventDefault();
    const contact = value.trim();
    const valid = mode === "phone" ? isValidPhone(contact) : isValidEmail(contact);
    if (!valid) {
      setInvalid(t(mode === "phone" ? "validation.invalidPhone" : "validation.invalidEmail"));
      return;
    }
    setInvalid(null);
    lookup.mutate(contact, {
      onSuccess: (account) => onFound(account, contact),
      onError: (error) => onError(t(lookupErrorKey(error))),
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {mode === "phone" ? (
          <TextInput
            key="phone"
            label={t("login.phone")}
            placeholder={t("login.phonePlaceholder")}
            type="tel"
            autoComplete="tel"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={invalid}
            autoFocus
          />
        ) : (
          <TextInput
            key="email"
            label={t("login.email")}
            placeholder={t("login.emailPlaceholder")}
            type="email"
            autoComplete="email"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={invalid}
            autoFocus
          />
        )}
        <Button type="submit" loading={lookup.isPending}>
          {t("login.continue")}
        </Button>
      </Stack>
    </form>
  );
}
