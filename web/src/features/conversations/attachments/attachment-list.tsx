import { Loader, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { call } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { ConversationKeys } from "../load-conversation";
import { AttachmentView } from "./attachment-view";
import type { FileRef } from "./file-ref";
import { conversationSpace } from "./transfer";
import { ns } from "../i18n";

export interface AttachmentListProps {
  conversationId: number;
  conversationKeys: ConversationKeys;
}

/** Every file attached in the conversation, newest first; messages that do not open (or whose signature fails) are skipped. */
async function listAttachments(conversationId: number, keys: ConversationKeys, signal: AbortSignal): Promise<FileRef[]> {
  const { motes } = await call("GET /api/conversations/{id}/attachments", { params: { id: conversationId }, signal });
  const opened = await keys.open(motes);
  return opened.flatMap((m) => (m.verification === "invalid" ? [] : (m.payload?.files ?? []))).reverse();
}

/** The right panel's list of the conversation's attachments ('No attachments found!'). */
export function AttachmentList({ conversationId, conversationKeys }: AttachmentListProps) {
  const { t } = useTranslation(ns);
  const files = useQuery({
    queryKey: queryKeys.conversations.attachments(conversationId),
    queryFn: ({ signal }) => listAttachments(conversationId, conversationKeys, signal),
  });
  return (
    <Stack gap="xs" data-testid="attachment-list">
      <Title order={5}>{t("attachments.title")}</Title>
      {files.isPending ? <Loader size="sm" /> : null}
      {files.isError ? (
        <Text size="sm" c="red">
          {t("attachments.fetchFailed")}
        </Text>
      ) : null}
      {files.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("attachments.none")}
        </Text>
      ) : null}
      {files.data?.map((file) => <AttachmentView key={file.id} space={conversationSpace(conversationId)} file={file} />)}
    </Stack>
  );
}
