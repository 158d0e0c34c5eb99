import { Alert, Anchor, Button, Group, List, Text } from "@mantine/core";
import type { Attribution } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type VersionOneConversation, useConversationLabel } from "../conversations";
import { ns } from "./i18n";

/**
 * Before a renewal: the user's version 1 conversations, which the new key would close to them
 * (docs/protocol.md §14.13, "Version 1 conversations and a renewal"). Each is named as the lists
 * name it and links to it, where its author or an admin is offered the migration; "Renew anyway"
 * goes on to the code. Without the list (`found` null: it failed) the same choice, said as a doubt.
 */
export function VersionOneWarning({ found, onCancel, onAccept }: { found: { conversations: VersionOneConversation[]; attribution: Attribution } | null; onCancel: () => void; onAccept: () => void }) {
  const { t } = useTranslation([ns, "common"]);
  return (
    <Alert color="yellow" title={t("renew.versionOne.heading")} data-version-one-warning>
      {found ? (
        <>
          <Text size="sm">{t("renew.versionOne.intro", { count: found.conversations.length })}</Text>
          <List size="sm" my="xs">
            {found.conversations.map((entry) => (
              <VersionOneItem key={entry.conversation.id} entry={entry} attribution={found.attribution} onOpen={onCancel} />
            ))}
          </List>
          <Text size="sm">{t("renew.versionOne.advice")}</Text>
        </>
      ) : (
        <Text size="sm">{t("renew.versionOne.failed")}</Text>
      )}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={onCancel}>
          {t("common:cancel")}
        </Button>
        <Button color="red" onClick={onAccept}>
          {t("renew.versionOne.anyway")}
        </Button>
      </Group>
    </Alert>
  );
}

function VersionOneItem({ entry, attribution, onOpen }: { entry: VersionOneConversation; attribution: Attribution; onOpen: () => void }) {
  const { t } = useTranslation(ns);
  const { id, author_id } = entry.conversation;
  const label = useConversationLabel(entry.conversation, attribution);
  const author = attribution[String(author_id)]?.name ?? `#${author_id}`;
  return (
    <List.Item data-version-one={id}>
      <Anchor component={Link} to={`/conversation/${id}`} onClick={onOpen}>
        {label}
      </Anchor>{" "}
      <Text span size="sm" c="dimmed">
        {entry.mayMigrate ? t("renew.versionOne.yours") : t("renew.versionOne.ask", { name: author })}
      </Text>
    </List.Item>
  );
}
