import { ActionIcon, Button, Divider, Group, Loader, Modal, Stack, Text, Textarea, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { formatDateTime, fromSeconds } from "../../../lib/format";
import { TrashIcon } from "../../../lib/ui/icons";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { AttachmentView } from "../../conversations";
import { RichView } from "../cards";
import { cardSpace } from "../records/records";
import { useRecord, useRecordChanges } from "../records/use-records";
import { ns } from "./i18n";
import { PinMedia, isMedia } from "./pin-media";

/**
 * A pin's popup (spec 002 §2 Pinboard): its media (fetched and decrypted now), attachments, title,
 * content, the comments with a new-comment box and Post, and Close. Comments are sealed here as
 * records of their own; an empty one is not posted; Escape closes.
 */
export function PinViewer({ groupId, pageId, id, holder, onClose }: { groupId: number; pageId: number; id: number; holder: UnlockedKeys; onClose: () => void }) {
  const { t } = useTranslation(ns);
  const card = useRecord(groupId, id, holder);
  const payload = card.data?.record.payload ?? null;
  const title = payload?.title || t("untitled");
  return (
    <Modal opened onClose={onClose} title={card.data ? title : t("loading")} size="lg" centered>
      {card.isPending ? <Loader size="sm" /> : null}
      {card.isError ? <Text c="red">{errorText(card.error, t("loadFailed"))}</Text> : null}
      {card.data ? (
        <Stack gap="sm">
          {payload === null ? <Text c="red">{t("invalid")}</Text> : null}
          {payload?.media && isMedia(payload.media) ? <PinMedia pageId={pageId} media={payload.media} title={title} /> : null}
          {payload?.content ? (
            <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-pin-content>
              {payload.content}
            </Text>
          ) : null}
          {payload?._html ? <RichView html={payload._html} label={t("viewer.body")} /> : null}
          {payload?.attached?.length ? (
            <Stack gap="xs" role="region" aria-label={t("viewer.attachments")}>
              <Title order={5}>{t("viewer.attachments")}</Title>
              {payload.attached.map((file) => (
                <AttachmentView key={file.id} space={cardSpace(pageId)} file={file} />
              ))}
            </Stack>
          ) : null}
          <Divider />
          <Comments groupId={groupId} id={id} holder={holder} comments={card.data.comments} attrib={card.data.attrib} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("viewer.close")}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

type Loaded = NonNullable<ReturnType<typeof useRecord>["data"]>;

function Comments({ groupId, id, holder, comments, attrib }: { groupId: number; id: number; holder: UnlockedKeys; comments: Loaded["comments"]; attrib: Loaded["attrib"] }) {
  const { t } = useTranslation(ns);
  const { comment, uncomment } = useRecordChanges(groupId, holder);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);

  const post = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || comment.isPending) return;
    setError(null);
    // The box empties at once; a comment that fails comes back into it with the spec's text.
    const posted = text;
    setText("");
    comment.mutate(
      { moteId: id, text: posted },
      {
        onError: (failure) => {
          setText((now) => now || posted);
          setError(errorText(failure, t("viewer.postFailed")));
        },
      },
    );
  };

  return (
    <Stack gap="xs" role="region" aria-label={t("viewer.comments")}>
      <Title order={5}>{t("viewer.comments")}</Title>
      {comments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("viewer.noComments")}
        </Text>
      ) : null}
      {comments.map((c) => (
        <Group key={c.id} gap="xs" wrap="nowrap" align="flex-start" justify="space-between" data-comment={c.id}>
          <Stack gap={0} miw={0}>
            <Text size="xs" c="dimmed">
              {attrib[String(c.authorId)]?.name ?? t("viewer.unknownAuthor")} · {formatDateTime(fromSeconds(c.timestamp))}
            </Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} c={c.text === null ? "red" : undefined}>
              {c.text ?? t("viewer.invalidComment")}
            </Text>
          </Stack>
          {c.deletable ? (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t("viewer.delete")}
              loading={uncomment.isPending && uncomment.variables?.commentId === c.id}
              onClick={() => uncomment.mutate({ moteId: id, commentId: c.id }, { onError: (failure) => setError(errorText(failure, t("viewer.deleteFailed"))) })}
            >
              <TrashIcon size={16} />
            </ActionIcon>
          ) : null}
        </Group>
      ))}
      <form onSubmit={post}>
        <Stack gap="xs">
          <Textarea
            label={t("viewer.newComment")}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            autosize
            minRows={2}
            onKeyDown={(e) => {
              // Enter posts, Shift+Enter breaks the line.
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) post(e);
            }}
          />
          {error ? (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" disabled={!text.trim()} loading={comment.isPending}>
              {t("viewer.post")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
