import { Alert, Button, Code, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../lib/query-keys";
import { type Contact, isTrustError } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { contactQuery, markVerified, safetyNumberQuery } from "./contact-trust";
import { ns } from "./i18n";

export interface TrustEntry {
  contact?: Contact;
  error?: unknown;
}

/** Beside a person's name: verified, not certified (a protocol v1 key), a key an administrator reset (not blocking), or a changed key. */
export function TrustBadge({ entry }: { entry: TrustEntry | undefined }) {
  const { t } = useTranslation(ns);
  if (isTrustError(entry?.error, "untrusted_key", "stale_key")) {
    return (
      <Text size="xs" c="red" fw={700} data-trust="changed">
        {t("trust.changed")}
      </Text>
    );
  }
  const contact = entry?.contact;
  if (!contact) return null;
  if (contact.verified) {
    return (
      <Text size="xs" c="green.8" data-trust="verified">
        {t("trust.verified")}
      </Text>
    );
  }
  if (contact.reset) {
    return (
      <Text size="xs" c="var(--mantine-color-orange-light-color)" fw={700} data-trust="reset">
        {t("trust.reset")}
      </Text>
    );
  }
  return contact.certified ? null : (
    <Text size="xs" c="dimmed" data-trust="legacy">
      {t("trust.notCertified")}
    </Text>
  );
}

/**
 * A person's safety number (docs/protocol.md §14.6): 60 digits the two compare in person or on a
 * call; the same on both sides only if each holds the other's real key. Marking it verified is
 * kept in the pin (with the user's encrypted account data), for this key and its rotations.
 */
export function SafetyNumberModal({ me, person, onClose }: { me: UnlockedKeys; person: { uid: number; name: string } | null; onClose: () => void }) {
  const { t } = useTranslation(ns);
  return (
    <Modal opened={person !== null} onClose={onClose} title={person ? t("trust.title", { name: person.name }) : ""} centered>
      {person ? <SafetyNumber me={me} uid={person.uid} name={person.name} /> : null}
    </Modal>
  );
}

function SafetyNumber({ me, uid, name }: { me: UnlockedKeys; uid: number; name: string }) {
  const { t } = useTranslation(ns);
  const client = useQueryClient();
  const contact = useQuery(contactQuery(me, uid));
  const number = useQuery({ ...safetyNumberQuery(me, contact.data ?? placeholder), enabled: contact.data !== undefined });
  const mark = useMutation({
    mutationFn: (verified: boolean) => markVerified(me, contact.data!, verified),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.identities.contact(me.uid, uid) }),
  });
  if (contact.error) {
    return (
      <Alert color="red" role="alert" data-trust-warning>
        {contact.error.message}
      </Alert>
    );
  }
  if (!contact.data || !number.data) return <Loader size="sm" aria-label={t("trust.computing")} />;
  const { verified, certified, reset } = contact.data;
  return (
    <Stack gap="sm" data-safety-contact={uid} data-verified={verified}>
      <Text size="sm">{t("trust.compare", { name })}</Text>
      <Code block fz="lg" data-safety-number={number.data} aria-label={t("trust.number")}>
        {groupsOf(number.data).join("\n")}
      </Code>
      <Text size="sm" c={certified ? undefined : "dimmed"}>
        {certified ? t("trust.certifiedText") : t("trust.legacyText", { name })}
      </Text>
      {reset ? (
        <Text size="sm" c="var(--mantine-color-orange-light-color)" data-reset-text>
          {t("trust.resetText", { name })}
        </Text>
      ) : null}
      {verified ? <Text size="sm" c="green.8">{t("trust.verifiedText", { name })}</Text> : null}
      {mark.error ? <Alert color="red">{mark.error.message}</Alert> : null}
      <Group justify="flex-end">
        <Button variant={verified ? "default" : "filled"} loading={mark.isPending} onClick={() => mark.mutate(!verified)}>
          {verified ? t("trust.unmark") : t("trust.mark")}
        </Button>
      </Group>
    </Stack>
  );
}

const placeholder: Contact = { userId: 1, keyId: "", seq: 0, encryptPublic: "", signPublic: "", certified: false, verified: false, reset: false, keys: [] };

/** "12345 67890 …" as three lines of four groups. */
function groupsOf(number: string): string[] {
  const groups = number.split(" ");
  return [0, 4, 8].map((start) => groups.slice(start, start + 4).join(" "));
}
