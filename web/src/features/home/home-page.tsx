import { ActionIcon, Group, Menu, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useFeature } from "../../lib/instance";
import { usePageTitle } from "../../lib/page-title";
import { useRequiredSession } from "../../lib/session";
import { Icon } from "../../lib/ui/icons";
import { ns } from "./i18n";

/** Home: groups, then conversations and pickups (spec 000 §2). Both lists come from their features (the router passes them in). */
export function HomePage({ groups, conversations }: { groups?: ReactNode; conversations?: ReactNode }) {
  const { t } = useTranslation(ns);
  const session = useRequiredSession();
  // An instance without conversations (spec 000 §1) shows neither their list nor the plus menu.
  const withConversations = useFeature("convo") === true;
  usePageTitle(t("titles.home"));

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="nowrap">
        <Title order={1} size="h2">
          {t("greeting", { name: session.name })}
        </Title>
        {withConversations || session.hasSuperAdminRole ? <PlusMenu conversations={withConversations} newGroup={Boolean(session.hasSuperAdminRole)} /> : null}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {groups ? <ListSection title={t("groups")}>{groups}</ListSection> : <EmptyList title={t("groups")} empty={t("noGroups")} hint={t("noGroupsHint")} />}
        {!withConversations ? null : conversations ? (
          <ListSection title={t("conversations")}>{conversations}</ListSection>
        ) : (
          <EmptyList title={t("conversations")} empty={t("noConversations")} hint={t("noConversationsHint")} />
        )}
      </SimpleGrid>
    </Stack>
  );
}

/** Spec 000 §2: the plus popover, new conversation and new pickup (only while conversations are on); new group for super administrators (issue 12). */
function PlusMenu({ conversations, newGroup }: { conversations: boolean; newGroup: boolean }) {
  const { t } = useTranslation(ns);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="light" size="lg" aria-label={t("create")}>
          <Icon>
            <path d="M12 5v14M5 12h14" />
          </Icon>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {newGroup ? (
          <Menu.Item component={Link} to="/group/new">
            {t("newGroup")}
          </Menu.Item>
        ) : null}
        {conversations ? (
          <>
            <Menu.Item component={Link} to="/conversation/new">
              {t("newConversation")}
            </Menu.Item>
            <Menu.Item component={Link} to="/pickup/new">
              {t("newPickup")}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

function ListSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function EmptyList({ title, empty, hint }: { title: string; empty: string; hint: string }) {
  return (
    <ListSection title={title}>
      <Text fw={500}>{empty}</Text>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
    </ListSection>
  );
}
