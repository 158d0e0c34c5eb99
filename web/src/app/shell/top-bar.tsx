import { ActionIcon, Badge, Burger, Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ConversationsPopover } from "../../features/conversations/conversations-popover"; // conversations
import { isGuest } from "../../lib/guest";
import { useFeature, useInstance } from "../../lib/instance";
import { useRequiredSession } from "../../lib/session";
import { HomeIcon, SettingsIcon } from "../../lib/ui/icons";
import { UserMenu } from "./user-menu";
import { ns } from "../i18n";

export interface TopBarProps {
  /** The burger that opens the left navigation on phones; null when the instance has none. */
  navigation: { open: boolean; toggle: () => void } | null;
}

export function TopBar({ navigation }: TopBarProps) {
  const { t } = useTranslation(ns);
  const { title, data: instance } = useInstance();
  // A pickup's guest has no conversation list and no settings (spec 000 §2, §6).
  const guest = isGuest(useRequiredSession());
  const conversations = useFeature("convo") === true;
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap" miw={0}>
        {navigation ? (
          <Burger
            opened={navigation.open}
            onClick={navigation.toggle}
            hiddenFrom="xs"
            size="sm"
            aria-label={t(navigation.open ? "closeNavigation" : "openNavigation")}
          />
        ) : null}
        <ActionIcon component={Link} to="/" variant="subtle" size="lg" aria-label={t("goHome")}>
          <HomeIcon />
        </ActionIcon>
        <Text fw={700} truncate>
          {title}
        </Text>
        {instance?.inEnv === "staging" ? (
          <Badge color="orange" variant="light">
            {t("staging")}
          </Badge>
        ) : null}
      </Group>
      <Group gap="xs" wrap="nowrap">
        {guest ? null : (
          <>
            {conversations ? <ConversationsPopover /> : null}
            <ActionIcon component={Link} to="/settings/" variant="subtle" size="lg" aria-label={t("openSettings")}>
              <SettingsIcon />
            </ActionIcon>
          </>
        )}
        <UserMenu />
      </Group>
    </Group>
  );
}
