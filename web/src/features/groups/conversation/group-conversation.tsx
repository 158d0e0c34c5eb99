import { Alert, Loader, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { MessageBar, MessageList, draftKeys, isDistributionError, loadErrorText } from "../../conversations";
import { GroupKeyWaitingError } from "../keys/group-ring";
import { GroupKeyRefusal } from "../keys/key-refusal";
import { ns as groupsNs } from "../i18n";
import { ns as keysNs } from "../keys/i18n";
import { useGroupConversation } from "./use-group-conversation";

/**
 * The group's conversation page (spec 001 §1, the reserved conversation page): every member reads
 * and writes; messages are sealed under the group key (docs/protocol.md, "Group messages").
 * Enter sends, Shift+Enter breaks the line; older messages load when scrolled to the top.
 */
export function GroupConversation({ groupId, readOnly }: { groupId: number; readOnly: boolean }) {
  const holder = useUnlockedKeys();
  const { t } = useTranslation("conversations");
  if (!holder) return <Text>{t("errors.keysMissing")}</Text>;
  return <Conversation key={groupId} groupId={groupId} holder={holder} readOnly={readOnly} />;
}

/** `readOnly`: the caller's level on the page is read (spec 001 §2): they read, and the bar says why it is off. */
function Conversation({ groupId, holder, readOnly }: { groupId: number; holder: UnlockedKeys; readOnly: boolean }) {
  const { t } = useTranslation([keysNs, groupsNs]);
  const [error, setError] = useState<string | null>(null);
  const state = useGroupConversation(groupId, holder, setError);
  const waiting = state.status === "ready" && !state.writable;

  return (
    // The page's header above, the message bar at the bottom of the view.
    <Stack gap="xs" h="calc(100dvh - 56px - 2 * var(--mantine-spacing-md) - 64px)" data-group-conversation={state.status}>
      {state.status === "loading" ? <Loader aria-label={t("conversation.loading")} /> : null}
      {state.error instanceof GroupKeyWaitingError ? (
        <Text size="sm" c="dimmed" data-group-key="waiting">
          {state.error.message}
        </Text>
      ) : isDistributionError(state.error) ? (
        <GroupKeyRefusal groupId={groupId} error={state.error} onArrived={state.reopen} />
      ) : state.error ? (
        <Text c="red">{loadErrorText(state.error)}</Text>
      ) : null}
      {waiting ? (
        <Alert color="yellow" data-rekey-pending>
          {t("distribution.rekeyPending")}
        </Alert>
      ) : null}
      {state.status === "ready" ? (
        <>
          <MessageList
            conversationId={null}
            me={holder.uid}
            messages={state.messages}
            attrib={state.attrib}
            more={state.more}
            loadingOlder={state.loadingOlder}
            startAhead={state.startAhead}
            onLoadOlder={state.loadOlder}
            onRetry={state.retry}
          />
          {readOnly ? (
            <Text size="sm" c="dimmed" data-read-only-bar>
              {t(`${groupsNs}:readOnly`)}
            </Text>
          ) : (
            <MessageBar conversationId={null} draftKey={draftKeys.group(groupId)} onSend={state.send} disabled={waiting} />
          )}
        </>
      ) : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Stack>
  );
}
