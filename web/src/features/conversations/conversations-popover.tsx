import { ActionIcon, Anchor, Indicator, Popover, Stack } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ChatIcon } from "./conversation-icons";
import { ConversationRows } from "./conversation-rows";
import { useConversations } from "./list-conversations";
import { ns } from "./i18n";

/** The top bar's conversations popover, with a marker while any conversation is unread (spec 000 §2). */
export function ConversationsPopover() {
  const { t } = useTranslation(ns);
  const [opened, { toggle, close }] = useDisclosure(false);
  const { data } = useConversations();
  const unread = data?.conversations.some((c) => c.unread) ?? false;
  const label = unread ? `${t("popover.label")} (${t("popover.unread")})` : t("popover.label");
  return (
    // The marker sits outside the popover's target, which hands the button its ARIA attributes.
    <Indicator disabled={!unread} color="red" size={9} offset={4} processing={false}>
      <Popover opened={opened} onChange={(o) => (o ? undefined : close())} position="bottom-end" width={340} withinPortal>
        <Popover.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={label} onClick={toggle} data-unread={unread || undefined}>
            <ChatIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <ConversationRows limit={10} onNavigate={close} />
            <Anchor component={Link} to="/conversation/list" size="sm" onClick={close}>
              {t("allConversations")}
            </Anchor>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
