import { Alert, Box, Button, Drawer, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { usePageTitle } from "../../lib/page-title";
import { queryKeys } from "../../lib/query-keys";
import { useRequiredSession } from "../../lib/session";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { isGuest, useGuestKeys } from "../../lib/guest";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import type { KeyHolder } from "./conversation-crypto";
import { ConversationPanel } from "./conversation-panel";
import { useContactsTrust } from "./contact-trust";
import { participantNames } from "./conversation-label";
import { draftKeys } from "./drafts";
import { MessageBar } from "./message-bar";
import { MessageList } from "./message-list";
import { MigrationNotice } from "./migration-notice";
import { recordVisit } from "./recent-conversations";
import { useConversation } from "./use-conversation";
import { ns } from "./i18n";

/** Spec 000 §2: the right panel shows from 700 px; narrower, it opens as a drawer. */
const PANEL_BREAKPOINT = 700;
const PANEL_WIDTH = 300;

/** /conversation/{id}: one conversation (spec 000 §2, §4). */
export function ConversationPage() {
  const { t } = useTranslation([ns, "errors"]);
  const { id: raw } = useParams();
  const id = Number(raw);
  const unlocked = useConversationKeys(id);
  usePageTitle(t("titles.conversation"));
  // Not an id: no such conversation ever existed.
  if (!Number.isSafeInteger(id) || id < 1) return <Text>{t("errors:not_found")}</Text>;
  if (!unlocked) return <Text>{t("errors.keysMissing")}</Text>;
  return <ConversationScreen key={id} id={id} unlocked={unlocked} />;
}

/** A member's account keys, or a pickup guest's keys for this pickup. */
export function useConversationKeys(id: number): KeyHolder | null {
  const account = useUnlockedKeys();
  const guest = useGuestKeys();
  return account ?? (guest?.conversationId === id ? guest : null);
}

function ConversationScreen({ id, unlocked }: { id: number; unlocked: KeyHolder }) {
  const { t } = useTranslation(ns);
  const session = useRequiredSession();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const state = useConversation(id, unlocked, setError);
  const { loadOlder, send, retry } = state;
  const wide = useMediaQuery(`(min-width: ${PANEL_BREAKPOINT}px)`) ?? true;
  const [drawer, { open, close }] = useDisclosure(false);

  // The first load recorded the visit: the list's unread dot for this one goes, and it heads
  // the left panel's Recently list (members only: a guest has this one conversation).
  const ready = state.status === "ready";
  useEffect(() => {
    if (!ready) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists() });
    if (!isGuest(session)) recordVisit(session.id, id);
  }, [ready, queryClient, session, id]);

  const heading = conversationHeading(state, session.id, t("onlyYou"));
  // A person whose key changed without a valid chain, or went back to an older one: nothing more
  // is written here until it is cleared up (docs/protocol.md §14.5).
  const account = useUnlockedKeys();
  const { blocking } = useContactsTrust(isGuest(session) ? null : account, state.participants.map((p) => p.user_id));
  const blockedName = blocking ? (state.attrib[String(blocking.userId)]?.name ?? `#${blocking.userId}`) : null;
  const panel = <PanelOf id={id} state={state} onError={setError} />;
  const hasPanel = state.keys !== null && state.meta !== null;
  // Protocol v2: a member left and no admin has renewed the key yet; nothing is sent meanwhile.
  const waiting = state.keys !== null && !state.keys.writable;

  return (
    <Group align="stretch" gap="md" wrap="nowrap" h="calc(100dvh - 56px - 2 * var(--mantine-spacing-md))">
      <Stack gap="xs" flex={1} miw={0}>
        <Group justify="space-between" wrap="nowrap">
          <Title order={1} size="h3" lineClamp={1} style={{ overflowWrap: "anywhere" }}>
            {heading}
          </Title>
          {!wide && hasPanel ? (
            <Button variant="light" size="xs" onClick={open}>
              {t("panel.open")}
            </Button>
          ) : null}
        </Group>
        {state.status === "loading" ? <Loader /> : null}
        {/* A load that failed says so once: in the dialog, then here once it is closed. */}
        {state.status === "error" && error === null && !state.refused ? <Text c="red">{state.error}</Text> : null}
        {/* Keys refused (a forked log, a ghost participant, a copy not from a participant): the warning, no messages. */}
        {state.refused ? (
          <Alert
            color={state.refused.reason === "key_moved" ? "yellow" : "red"}
            role="alert"
            title={t(state.refused.reason === "key_moved" ? "distribution.movedHeading" : "distribution.heading")}
            data-trust-warning={state.refused.reason}
          >
            {state.refused.message}
          </Alert>
        ) : null}
        {waiting ? (
          <Alert color="yellow" data-rekey-pending>
            {t("distribution.rekeyPending")}
          </Alert>
        ) : null}
        {state.titleFailed ? (
          <Alert color="red" role="alert" data-title-error>
            {t("errors.titleFailed")}
          </Alert>
        ) : null}
        {state.migration && account ? <MigrationNotice id={id} holder={account} migration={state.migration} attrib={state.attrib} /> : null}
        {blocking ? (
          <Alert color="red" role="alert" title={t("trust.blocked", { name: blockedName })} data-trust-warning={blocking.reason}>
            {blocking.message}
          </Alert>
        ) : null}
        {state.status === "ready" ? (
          <>
            <MessageList
              conversationId={id}
              me={unlocked.uid}
              messages={state.messages}
              attrib={state.attrib}
              more={state.more}
              loadingOlder={state.loadingOlder}
              startAhead={state.startAhead}
              onLoadOlder={loadOlder}
              onRetry={retry}
            />
            <MessageBar conversationId={id} draftKey={draftKeys.conversation(id)} onSend={send} disabled={blocking !== null || waiting} />
          </>
        ) : null}
      </Stack>
      {wide && hasPanel ? (
        <Box w={PANEL_WIDTH} style={{ flex: "none", overflowY: "auto", borderInlineStart: "1px solid var(--mantine-color-default-border)" }}>
          {panel}
        </Box>
      ) : null}
      {!wide ? (
        <Drawer opened={drawer} onClose={close} position="right" size={PANEL_WIDTH} title={t("panel.heading")}>
          {panel}
        </Drawer>
      ) : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Group>
  );
}

type ConversationState = ReturnType<typeof useConversation>;

/** The title, else the other people's names ("Only you" when there are none). */
export function conversationHeading(state: ConversationState, me: number, onlyYou: string): string {
  return state.title ?? (state.meta ? participantNames({ participants: state.participants }, state.attrib, me) || onlyYou : "");
}

/** The right panel of a loaded conversation (nothing until its key and facts are in). */
export function PanelOf({ id, state, onError }: { id: number; state: ConversationState; onError: (text: string) => void }) {
  if (!state.keys || !state.meta) return null;
  return (
    <ConversationPanel
      conversationId={id}
      conversationKeys={state.keys}
      title={state.title}
      recipientId={state.meta.recipient_id}
      authorId={state.meta.author_id}
      participants={state.participants}
      attrib={state.attrib}
      onParticipants={state.setParticipants}
      onTitle={state.setTitle}
      onError={onError}
    />
  );
}
