import { Button, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isValidEmail, isValidPhone } from "../../lib/validation";
import { lookupErrorText } from "./login-errors";
import { useLookupContact, type Account } from "./lookup-contact";
import { ns } from "./i18n";

export interface ContactFormProps {
  mode: "phone" | "email";
  onFound: (account: Account, contact: string) => void;
  onError: (message: string) => void;
}

/** First step: the phone number or email that identifies the account. */
export function ContactForm({ mode, onFound, onError }: ContactFormProps) {
  const { t } = useTranslation([ns, "common"]);
  const [value, setValue] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const lookup = useLookupContact();

  function submit(event: FormEvent) {
    event.preventDefault();
    const contact = value.trim();
    const valid = mode === "phone" ? isValidPhone(contact) : isValidEmail(contact);
    if (!valid) {
      setInvalid(t(mode === "phone" ? "common:validation.invalidPhone" : "common:validation.invalidEmail"));
      return;
    }
    setInvalid(null);
    lookup.mutate(contact, {
      onSuccess: (account) => onFound(account, contact),
      onError: (error) => onError(lookupErrorText(error)),
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {mode === "phone" ? (
          <TextInput
            key="phone"
            label={t("phone")}
            placeholder={t("phonePlaceholder")}
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
            label={t("email")}
            placeholder={t("emailPlaceholder")}
            type="email"
            autoComplete="email"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={invalid}
            autoFocus
          />
        )}
        <Button type="submit" loading={lookup.isPending}>
          {t("continue")}
        </Button>
      </Stack>
    </form>
  );
}
