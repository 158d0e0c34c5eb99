import { ActionIcon, Button, Group, Stack, Text, Textarea, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { formatDateTime, fromSeconds } from "../../../lib/format";
import { TrashIcon } from "../../../lib/ui/icons";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { useRecord, useRecordChanges } from "../records/use-records";
import { ns } from "./i18n";

type Loaded = NonNullable<ReturnType<typeof useRecord>["data"]>;

/** Spec 002 §9: the comment box is 60 to 180 px high (it grows with its text, then scrolls). */
export const COMMENT_BOX_PX = { min: 60, max: 180 } as const;

/**
 * A card's comments with a new-comment box and Post (spec 002 §2 Pinboard, Blog), for every page
 * type's viewer: each comment sealed here as a record of its own; an empty one is not posted;
 * Enter posts, Shift+Enter breaks the line; the author and those who may delete theirs.
 */
export function Comments({ groupId, id, holder, loaded }: { groupId: number; id: number; holder: UnlockedKeys; loaded: Pick<Loaded, "comments" | "attrib" | "record"> }) {
  const { t } = useTranslation(ns);
  const { comments, attrib, record } = loaded;
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
      { moteId: id, pageId: record.pageId, text: posted },
      {
        onError: (failure) => {
          setText((now) => now || posted);
          setError(errorText(failure, t("comments.postFailed")));
        },
      },
    );
  };

  return (
    <Stack gap="xs" role="region" aria-label={t("comments.label")}>
      <Title order={5}>{t("comments.label")}</Title>
      {comments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("comments.none")}
        </Text>
      ) : null}
      {comments.map((c) => (
        <Group key={c.id} gap="xs" wrap="nowrap" align="flex-start" justify="space-between" data-comment={c.id}>
          <Stack gap={0} miw={0}>
            <Text size="xs" c="dimmed">
              {attrib[String(c.authorId)]?.name ?? t("comments.unknownAuthor")} · {formatDateTime(fromSeconds(c.timestamp))}
            </Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} c={c.text === null ? "red" : undefined}>
              {c.text ?? t("comments.invalid")}
            </Text>
          </Stack>
          {c.deletable ? (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t("comments.delete")}
              loading={uncomment.isPending && uncomment.variables?.commentId === c.id}
              onClick={() => uncomment.mutate({ moteId: id, commentId: c.id }, { onError: (failure) => setError(errorText(failure, t("comments.deleteFailed"))) })}
            >
              <TrashIcon size={16} />
            </ActionIcon>
          ) : null}
        </Group>
      ))}
      <form onSubmit={post}>
        <Stack gap="xs">
          <Textarea
            label={t("comments.newComment")}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            autosize
            minRows={2}
            styles={{ input: { minHeight: COMMENT_BOX_PX.min, maxHeight: COMMENT_BOX_PX.max } }}
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
              {t("comments.post")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
