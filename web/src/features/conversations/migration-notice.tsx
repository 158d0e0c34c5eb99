import { Alert, Button, Group, List, Text } from "@mantine/core";
import type { Attribution } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../lib/query-keys";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { actionErrorText } from "./conversation-errors";
import { type Migration, confirmMigration } from "./load-conversation";
import { ns } from "./i18n";

/**
 * A version 1 conversation its author or an admin may move to a signed membership log: the people
 * the server lists, for the member to confirm before anyone is signed in (a v1 conversation has no
 * signed record of them: docs/protocol.md §14.8, "Migration"). Until then it works as before.
 */
export function MigrationNotice({ id, holder, migration, attrib }: { id: number; holder: UnlockedKeys; migration: Migration; attrib: Attribution }) {
  const { t } = useTranslation(ns);
  const client = useQueryClient();
  const [later, setLater] = useState(false);
  const sign = useMutation({
    mutationFn: () => confirmMigration(id, holder, migration),
    // Read afresh: its log, its signed keys, its messages.
    onSuccess: () => client.resetQueries({ queryKey: queryKeys.conversations.one(id) }),
  });
  if (later) return null;
  const nameOf = (uid: number) => attrib[String(uid)]?.name ?? `#${uid}`;
  // Oneself first, then the others by name (the server's order says nothing).
  const people = [...migration.participants].sort((x, y) => Number(y.user_id === holder.uid) - Number(x.user_id === holder.uid) || nameOf(x.user_id).localeCompare(nameOf(y.user_id)));
  return (
    <Alert color="blue" title={t("migration.heading")} data-migration>
      <Text size="sm">{t("migration.intro")}</Text>
      <List size="sm" my="xs" data-migration-list>
        {people.map((p) => (
          <List.Item key={p.user_id} data-participant={p.user_id}>
            {p.user_id === holder.uid ? t("migration.you", { name: nameOf(p.user_id) }) : nameOf(p.user_id)}
          </List.Item>
        ))}
      </List>
      {sign.error ? (
        <Text size="sm" c="red" role="alert">
          {actionErrorText(sign.error, "migrationFailed")}
        </Text>
      ) : null}
      <Group gap="xs" mt="xs">
        <Button size="xs" loading={sign.isPending} onClick={() => sign.mutate()}>
          {t("migration.confirm")}
        </Button>
        <Button size="xs" variant="default" disabled={sign.isPending} onClick={() => setLater(true)}>
          {t("migration.later")}
        </Button>
      </Group>
    </Alert>
  );
}
