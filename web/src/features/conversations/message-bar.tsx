import { ActionIcon, CloseButton, Group, Paper, Stack, Text, Textarea } from "@mantine/core";
import { memo, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../lib/format";
import { AttachmentPicker } from "./attachments/attachment-picker";
import type { FileRef } from "./attachments/file-ref";
import { SendIcon } from "./conversation-icons";
import { updateDraft, useDraft } from "./drafts";
import { ns } from "./i18n";

export interface MessageBarProps {
  /** Where files are uploaded to; null: text only (a group's conversation). */
  conversationId: number | null;
  /** Where what is typed waits while the bar is away (drafts.ts: the key popup after the key moved). */
  draftKey: string;
  disabled?: boolean;
  /** False when there was nothing to send (empty trimmed text and no files). */
  onSend: (text: string, files: FileRef[]) => boolean;
}

/**
 * Enter sends, Shift+Enter breaks the line; attached files wait as chips for the next send.
 * Memoised: a page of older messages re-renders the screen, and the growing text field measures
 * itself (a layout) on every render.
 */
export const MessageBar = memo(function MessageBar({ conversationId, draftKey, disabled, onSend }: MessageBarProps) {
  const { t } = useTranslation(ns);
  const { text, files } = useDraft(draftKey);
  const setText = (value: string) => updateDraft(draftKey, (draft) => ({ ...draft, text: value }));
  const setFiles = (change: (current: FileRef[]) => FileRef[]) => updateDraft(draftKey, (draft) => ({ ...draft, files: change(draft.files) }));
  // Spec 000 §5: a trimmed empty text without files sends nothing, so Send is not offered then.
  const nothingToSend = text.trim() === "" && files.length === 0;

  const send = () => {
    if (!onSend(text, files)) return;
    updateDraft(draftKey, () => ({ text: "", files: [] }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <Stack gap={4}>
      {files.length > 0 ? (
        <Group gap={6} aria-label={t("pendingFiles")} role="list">
          {files.map((file) => (
            <Paper key={file.id} withBorder px={8} py={2} radius="xl" role="listitem">
              <Group gap={4} wrap="nowrap">
                <Text size="xs" truncate maw={220}>
                  {file.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatFileSize(file.size)}
                </Text>
                <CloseButton size="xs" aria-label={t("removeFile", { name: file.name })} onClick={() => setFiles((current) => current.filter((f) => f.id !== file.id))} />
              </Group>
            </Paper>
          ))}
        </Group>
      ) : null}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        {conversationId !== null ? (
          <AttachmentPicker conversationId={conversationId} disabled={disabled} onAttached={(file) => setFiles((current) => [...current, file])} />
        ) : null}
        <Textarea
          aria-label={t("message")}
          placeholder={t("messagePlaceholder")}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={onKeyDown}
          autosize
          minRows={1}
          maxRows={6}
          flex={1}
          disabled={disabled}
        />
        <ActionIcon size="lg" onClick={send} disabled={disabled || nothingToSend} aria-label={t("send")}>
          <SendIcon size={18} />
        </ActionIcon>
      </Group>
    </Stack>
  );
});
