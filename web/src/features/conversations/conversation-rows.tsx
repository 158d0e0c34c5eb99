import type { Attribution, ConversationView } from "@sealwork/contracts";
import { Box, Group, Loader, Stack, Text, UnstyledButton } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { ChatIcon, PickupIcon } from "./conversation-icons";
import { useConversationLabel } from "./conversation-label";
import { useConversations } from "./list-conversations";
import { RelativeTime } from "./relative-time";
import { ns } from "./i18n";

/** The unread dot (spec 000 §2). */
export function UnreadDot() {
  const { t } = useTranslation(ns);
  return <Box component="span" role="img" aria-label={t("unread")} w={10} h={10} bg="indigo" style={{ borderRadius: "50%", flex: "none" }} data-unread />;
}

function ConversationRow({ conversation, attribution, onNavigate }: { conversation: ConversationView; attribution: Attribution; onNavigate?: () => void }) {
  const { i18n } = useTranslation();
  const label = useConversationLabel(conversation, attribution);
  const Icon = conversation.recipient_id === 0 ? PickupIcon : ChatIcon;
  return (
    <UnstyledButton component={Link} to={`/conversation/${conversation.id}`} onClick={onNavigate} py={6} px={4} data-conversation-row={conversation.id}>
      <Group gap="sm" wrap="nowrap">
        <Icon size={18} />
        <Text fw={conversation.unread ? 700 : 400} truncate flex={1}>
          {label}
        </Text>
        {conversation.unread ? <UnreadDot /> : null}
        <RelativeTime seconds={conversation.timestamp} language={i18n.language} />
      </Group>
    </UnstyledButton>
  );
}

/**
 * Where the rows show, opening one is the likely next step: the conversation screen's code is
 * fetched while the browser is idle, so the open waits for the messages only (issue 9).
 */
function preloadConversationScreen() {
  const load = () => void import("./conversation-page");
  if (typeof requestIdleCallback !== "function") {
    const timer = setTimeout(load, 500);
    return () => clearTimeout(timer);
  }
  const handle = requestIdleCallback(load, { timeout: 2_000 });
  return () => cancelIdleCallback(handle);
}

/** The user's conversations with unread dots and relative times: the list page, home and the top bar. */
export function ConversationRows({ limit, onNavigate }: { limit?: number; onNavigate?: () => void }) {
  const { t } = useTranslation(ns);
  const { data, isPending, isError } = useConversations();
  const [dialog, setDialog] = useState(false);
  useEffect(() => setDialog(isError), [isError]);
  useEffect(preloadConversationScreen, []);

  if (isPending) return <Loader size="sm" />;
  if (isError || !data) {
    return (
      <>
        <Text c="red">{t("errors.listFailed")}</Text>
        <ErrorDialog message={dialog ? t("errors.listFailed") : null} onClose={() => setDialog(false)} />
      </>
    );
  }
  if (data.conversations.length === 0) return <Text c="dimmed">{t("empty")}</Text>;
  const shown = limit === undefined ? data.conversations : data.conversations.slice(0, limit);
  return (
    <Stack gap={0} component="nav" aria-label={t("title")}>
      {shown.map((c) => (
        <ConversationRow key={c.id} conversation={c} attribution={data.attribution} onNavigate={onNavigate} />
      ))}
    </Stack>
  );
}
