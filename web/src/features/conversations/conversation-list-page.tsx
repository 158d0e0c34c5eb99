import { Button, Group, Paper, Stack, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { usePageTitle } from "../../lib/page-title";
import { PlusIcon } from "./conversation-icons";
import { ConversationRows } from "./conversation-rows";
import { ns } from "./i18n";

/** /conversation/list: 'Messages', New conversation and New pickup, the rows (spec 000 §2). */
export function ConversationListPage() {
  const { t } = useTranslation(ns);
  usePageTitle(t("titles.conversations"));
  return (
    <Stack gap="md" maw={800}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t("title")}
        </Title>
        <Group gap="xs">
          <Button component={Link} to="/conversation/new" leftSection={<PlusIcon size={16} />}>
            {t("newConversation")}
          </Button>
          <Button component={Link} to="/pickup/new" variant="light" leftSection={<PlusIcon size={16} />}>
            {t("newPickup")}
          </Button>
        </Group>
      </Group>
      <Paper withBorder p="sm" radius="md">
        <ConversationRows />
      </Paper>
    </Stack>
  );
}
