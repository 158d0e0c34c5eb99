import { Button, Group, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../lib/api";
import { actionErrorText } from "./conversation-errors";
import { type FoundPerson, lookupPerson } from "./lookup-person";
import { ns } from "./i18n";

export interface PersonPickerProps {
  /** Checks the person before they are taken; a text refuses them. */
  check?: (person: FoundPerson) => string | null;
  onPick: (person: FoundPerson) => void | Promise<void>;
  busy?: boolean;
}

/**
 * Finds a colleague by their exact email address or phone number (the user list is for
 * administrators only, spec 000 §6), so nobody can browse the instance's accounts.
 */
export function PersonPicker({ check, onPick, busy }: PersonPickerProps) {
  const { t } = useTranslation(ns);
  const [contact, setContact] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!contact.trim()) return;
    setLooking(true);
    setError(null);
    try {
      const person = await lookupPerson(contact);
      const refused = check?.(person) ?? null;
      if (refused) setError(refused);
      else {
        setContact("");
        await onPick(person);
      }
    } catch (cause) {
      setError(isApiError(cause, 404) ? t("new.notFound") : actionErrorText(cause, "addFailed"));
    } finally {
      setLooking(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label={t("new.contact")}
          description={t("new.contactHint")}
          value={contact}
          onChange={(e) => setContact(e.currentTarget.value)}
          error={error}
          flex={1}
          autoComplete="off"
        />
        <Button type="submit" loading={looking || busy} disabled={!contact.trim()}>
          {t("new.add")}
        </Button>
      </Group>
    </form>
  );
}
