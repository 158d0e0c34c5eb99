import type { Attribution } from "@sealwork/contracts";
import { Box, Button, Group, Loader, Paper, Stack, Text, Tooltip } from "@mantine/core";
import { memo, useEffect, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { AttachmentView } from "./attachments/attachment-view";
import { exactTime, relativeTime } from "./conversation-time";
import type { Message } from "./use-conversation";

/** Spec 000 §9: older messages load when the view is scrolled within 100 px of the top. */
const SCROLL_DISTANCE = 100;

export interface MessageListProps {
  conversationId: number;
  me: number;
  messages: Message[];
  attrib: Attribution;
  more: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (message: Message) => void;
}

/** Oldest at the top, newest at the bottom; scrolling up pages back until '(no more messages)'. */
export function MessageList({ conversationId, me, messages, attrib, more, loadingOlder, onLoadOlder, onRetry }: MessageListProps) {
  const { t } = useTranslation();
  const viewport = useRef<HTMLDivElement>(null);
  const firstKey = messages[0]?.key;
  const lastKey = messages.at(-1)?.key;
  // Starts empty, so the first messages (however they arrive) scroll to the bottom.
  const previous = useRef<{ firstKey?: string; lastKey?: string; height: number; atBottom: boolean }>({ height: 0, atBottom: true });

  // Keeps the place when older messages arrive above; follows new ones when at the bottom.
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const before = previous.current;
    if (before.firstKey !== undefined && firstKey !== before.firstKey && lastKey === before.lastKey) {
      el.scrollTop += el.scrollHeight - before.height;
    } else if (lastKey !== before.lastKey && (before.atBottom || before.lastKey === undefined)) {
      el.scrollTop = el.scrollHeight;
    }
    previous.current = { firstKey, lastKey, height: el.scrollHeight, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_DISTANCE };
  }, [firstKey, lastKey, messages.length]);

  const check = () => {
    const el = viewport.current;
    if (!el) return;
    previous.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_DISTANCE;
    previous.current.height = el.scrollHeight;
    if (more && !loadingOlder && el.scrollTop < SCROLL_DISTANCE) onLoadOlder();
  };
  // A page that does not fill the view cannot be scrolled: load more at once.
  useEffect(() => {
    const el = viewport.current;
    if (el && more && !loadingOlder && el.scrollHeight <= el.clientHeight + SCROLL_DISTANCE) onLoadOlder();
  });

  return (
    <Box ref={viewport} onScroll={check} flex={1} mih={0} style={{ overflowY: "auto" }} role="log" aria-label={t("conversations.messages")} data-testid="message-list">
      <Stack gap="xs" p="xs">
        {loadingOlder ? (
          <Group justify="center">
            <Loader size="xs" aria-label={t("conversations.loadingOlder")} />
          </Group>
        ) : null}
        {!more ? (
          <Text size="sm" c="dimmed" ta="center">
            {t("conversations.noMoreMessages")}
          </Text>
        ) : null}
        {messages.map((m) => (
          <MessageItem key={m.key} conversationId={conversationId} message={m} mine={m.sourceId === me} name={attrib[String(m.sourceId)]?.name ?? t("conversations.unknownSender")} onRetry={onRetry} />
        ))}
      </Stack>
    </Box>
  );
}

/**
 * Memoised: a page of older messages, a poll's news or a sent message re-render only the
 * messages that changed, not the whole conversation (npm run bench: paging back 2000 messages).
 */
const MessageItem = memo(function MessageItem({
  conversationId,
  message,
  mine,
  name,
  onRetry,
}: {
  conversationId: number;
  message: Message;
  mine: boolean;
  name: string;
  onRetry: (m: Message) => void;
}) {
  const { t } = useTranslation();
  const { payload } = message;
  return (
    <Paper
      withBorder
      p="xs"
      radius="md"
      maw="85%"
      bg={mine ? "var(--mantine-color-indigo-light)" : undefined}
      style={{ alignSelf: mine ? "flex-end" : "flex-start", opacity: message.status === "pending" ? 0.7 : 1 }}
      data-message={message.id ?? "pending"}
      data-status={message.status}
    >
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="xs" fw={600}>
          {name}
        </Text>
        <Tooltip label={exactTime(message.timestamp)}>
          <Text size="xs" c="dimmed">
            {message.status === "pending" ? t("conversations.sending") : relativeTime(message.timestamp)}
          </Text>
        </Tooltip>
      </Group>
      {payload === null ? (
        <Text size="sm" c="red">
          {t("conversations.invalidPayload")}
        </Text>
      ) : (
        <>
          {payload.text ? (
            <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-message-text>
              {payload.text}
            </Text>
          ) : null}
          {payload.files?.map((file) => <AttachmentView key={file.id} conversationId={conversationId} file={file} />)}
        </>
      )}
      {message.status === "failed" ? (
        <Group gap="xs">
          <Text size="xs" c="red">
            {t("conversations.notSent")}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => onRetry(message)}>
            {t("conversations.retry")}
          </Button>
        </Group>
      ) : null}
    </Paper>
  );
});
