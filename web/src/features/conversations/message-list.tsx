import type { Attribution } from "@sealwork/contracts";
import { Box, Button, Group, Loader, Text } from "@mantine/core";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { AttachmentView } from "./attachments/attachment-view";
import { conversationSpace } from "./attachments/transfer";
import { RelativeTime } from "./relative-time";
import type { Message } from "./use-conversation";
import { ns } from "./i18n";
import classes from "./message-row.module.css";

/** Spec 000 §9: older messages load when the view is scrolled within 100 px of the top. */
const SCROLL_DISTANCE = 100;
/** The line above the messages: the loader while paging back, '(no more messages)' at the start. */
const HEADER_HEIGHT = 32;
/** Mantine's xs spacing: between messages and around them. */
const SPACING = 10;
/** A guess for a message not measured yet (a short one); real heights replace it once drawn. */
const ESTIMATED_HEIGHT = 64;
/**
 * Once the user pages back, older pages are taken into the list while the view is within this many
 * messages of the oldest one held (a page is 50), so scrolling on does not wait for them.
 */
const PREFETCH_MESSAGES = 60;
/**
 * Paging back, older pages are taken into the list at most this often (ms): those fetched ahead
 * meanwhile (load-conversation.ts) come in together, one render for several, and the CPU is left
 * to fetching and decrypting the next ones (issue 9: drawing every page on its own took about as
 * much CPU as the server answering it). About six frames; the first page comes at once, and a page
 * slower than this to arrive is not held back at all.
 */
const TAKE_INTERVAL = 100;

export interface MessageListProps {
  /** Where attached files are downloaded from; null where messages carry no files (a group's conversation). */
  conversationId: number | null;
  me: number;
  messages: Message[];
  attrib: Attribution;
  more: boolean;
  loadingOlder: boolean;
  /**
   * The first message of the history is in, fetched ahead: the next take need not wait for
   * TAKE_INTERVAL (nothing is fetched any more that the CPU is left to).
   */
  startAhead?: boolean;
  onLoadOlder: () => void;
  onRetry: (message: Message) => void;
}

/**
 * Oldest at the top, newest at the bottom; scrolling up pages back until '(no more messages)'.
 * Virtualised (TanStack Virtual): only the messages in view and a few around them are in the page,
 * measured as they are drawn (text, thumbnails). The virtualizer keeps the place when older
 * messages arrive above (anchored to the message in view) and follows new ones while the view is
 * at the bottom.
 */
export function MessageList({ conversationId, me, messages, attrib, more, loadingOlder, startAhead = false, onLoadOlder, onRetry }: MessageListProps) {
  const { t, i18n } = useTranslation(ns);
  // The rows' words, looked up once here: a translation hook in every row costs more than the row.
  const words = useMemo(
    () => ({
      sending: t("sending"),
      invalidPayload: t("invalidPayload"),
      notSent: t("notSent"),
      retry: t("retry"),
      unsigned: t("distribution.unsigned"),
      unsignedHint: t("distribution.unsignedHint"),
      unverifiedMessage: t("distribution.unverifiedMessage"),
    }),
    [t],
  );
  const viewport = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => ESTIMATED_HEIGHT,
    getItemKey: (index) => messages[index]!.key,
    overscan: 3,
    gap: SPACING,
    scrollMargin: HEADER_HEIGHT,
    paddingEnd: SPACING,
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: SCROLL_DISTANCE,
  });

  // The view opens at the newest message.
  useLayoutEffect(() => {
    virtualizer.scrollToEnd();
    // Once, when the list appears; afterwards the virtualizer's anchoring and following hold.
  }, []);

  const pagingBack = useRef(false);
  const lastTaken = useRef(Number.NEGATIVE_INFINITY);
  const waiting = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const loadOlder = useRef(onLoadOlder);
  loadOlder.current = onLoadOlder;
  useEffect(() => () => clearTimeout(waiting.current), []);
  const take = () => {
    clearTimeout(waiting.current);
    waiting.current = undefined;
    lastTaken.current = performance.now();
    loadOlder.current();
  };
  /** Paging back: the next older pages, at once or when TAKE_INTERVAL has passed since the last ones. */
  const pageBack = () => {
    pagingBack.current = true;
    if (waiting.current !== undefined) return;
    const wait = lastTaken.current + TAKE_INTERVAL - performance.now();
    if (wait > 0 && !startAhead) waiting.current = setTimeout(take, wait);
    else take();
  };
  // The start of the history came in while a take waited: taken now.
  useEffect(() => {
    if (startAhead && waiting.current !== undefined) take();
  }, [startAhead]);
  const check = () => {
    const el = viewport.current;
    if (el && more && !loadingOlder && el.scrollTop < SCROLL_DISTANCE) pageBack();
  };
  // A page that does not fill the view cannot be scrolled: load more at once. Paging back, take
  // the next pages while the view nears the oldest message held (checked before the browser
  // paints, not on the next scroll). From the virtualizer's own figures: reading the element's
  // would lay the page out again on every render.
  useLayoutEffect(() => {
    if (!more || loadingOlder || !virtualizer.scrollRect) return;
    const inView = virtualizer.getVirtualItemForOffset(virtualizer.scrollOffset ?? 0)?.index ?? 0;
    const unscrollable = HEADER_HEIGHT + virtualizer.getTotalSize() <= virtualizer.scrollRect.height + SCROLL_DISTANCE;
    if (unscrollable) onLoadOlder();
    else if (pagingBack.current && inView < PREFETCH_MESSAGES) pageBack();
  });

  const items = virtualizer.getVirtualItems();
  return (
    <Box
      ref={viewport}
      onScroll={check}
      flex={1}
      mih={0}
      // The virtualizer corrects the scroll position itself; the browser's own anchoring would correct it twice.
      style={{ overflowY: "auto", overflowAnchor: "none" }}
      role="log"
      aria-label={t("messages")}
      // Keyboard users scroll the history too (axe: scrollable-region-focusable).
      tabIndex={0}
      data-testid="message-list"
      data-messages={messages.length}
    >
      <Group justify="center" align="center" h={HEADER_HEIGHT}>
        {/* Paging back, also between two takes (TAKE_INTERVAL): older messages are on their way. */}
        {loadingOlder || (pagingBack.current && more) ? <Loader size="xs" aria-label={t("loadingOlder")} /> : null}
        {/* At the start of the history '(no more messages)'; a conversation without any says so instead. */}
        {!more ? (
          <Text size="sm" c="dimmed" ta="center" data-empty={messages.length === 0 || undefined}>
            {t(messages.length === 0 ? "noMessagesYet" : "noMoreMessages")}
          </Text>
        ) : null}
      </Group>
      <div style={{ position: "relative", height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const m = messages[item.index]!;
          const mine = m.sourceId === me;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              style={{
                position: "absolute",
                top: 0,
                insetInline: SPACING,
                transform: `translateY(${item.start - HEADER_HEIGHT}px)`,
                display: "flex",
                justifyContent: mine ? "flex-end" : "flex-start",
              }}
            >
              <MessageItem
                conversationId={conversationId}
                message={m}
                mine={mine && m.verification !== "invalid"}
                // A message whose signature fails is nobody's: never the name the server gives it.
                name={m.verification === "invalid" ? t("distribution.unverifiedSender") : (attrib[String(m.sourceId)]?.name ?? t("unknownSender"))}
                language={i18n.language}
                words={words}
                onRetry={onRetry}
              />
            </div>
          );
        })}
      </div>
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
  language,
  words,
  onRetry,
}: {
  conversationId: number | null;
  message: Message;
  mine: boolean;
  name: string;
  language: string;
  words: Record<"sending" | "invalidPayload" | "notSent" | "retry" | "unsigned" | "unsignedHint" | "unverifiedMessage", string>;
  onRetry: (m: Message) => void;
}) {
  const { payload } = message;
  const verified = message.verification === undefined ? undefined : message.verification === "signed" ? "true" : message.verification === "invalid" ? "false" : message.verification;
  // Plain elements styled by message-row.module.css, as Mantine drew them (see there why).
  return (
    <div
      className={classes.message}
      data-mine={mine || undefined}
      aria-busy={message.status === "pending" || undefined}
      data-message={message.id ?? "pending"}
      data-status={message.status}
      data-message-verified={verified}
    >
      <div className={classes.head}>
        <div className={classes.sender}>
          <p className={classes.name} data-invalid={message.verification === "invalid" || undefined}>
            {name}
          </p>
          {message.verification === "unsigned" ? (
            <p className={classes.note} title={words.unsignedHint}>
              {words.unsigned}
            </p>
          ) : null}
        </div>
        {message.status === "pending" ? <p className={classes.note}>{words.sending}</p> : <RelativeTime seconds={message.timestamp} language={language} />}
      </div>
      {message.verification === "invalid" ? (
        <p className={classes.warning} data-message-unverified>
          {words.unverifiedMessage}
        </p>
      ) : payload === null ? (
        <p className={classes.warning}>{words.invalidPayload}</p>
      ) : (
        <>
          {payload.text ? (
            <p className={classes.text} data-message-text>
              {payload.text}
            </p>
          ) : null}
          {conversationId !== null ? payload.files?.map((file) => <AttachmentView key={file.id} space={conversationSpace(conversationId)} file={file} />) : null}
        </>
      )}
      {message.status === "failed" ? (
        <Group gap="xs">
          <Text size="xs" c="red">
            {words.notSent}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => onRetry(message)}>
            {words.retry}
          </Button>
        </Group>
      ) : null}
    </div>
  );
});
