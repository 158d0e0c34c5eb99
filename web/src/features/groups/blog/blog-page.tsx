import { Button, Divider, Group, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import type { FileRef } from "@sealwork/crypto";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { formatDate, fromSeconds } from "../../../lib/format";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { CardPage, Comments, EditButton, PhotoBrowser, RichView, firstCharacters, isCut, isMedia } from "../cards";
import type { PageTypeProps } from "../pages/type-slot";
import type { OpenedRecord } from "../records/records";
import { useRecord } from "../records/use-records";
import { AttachmentSwiper, isImage } from "./attachment-swiper";
import { ns } from "./i18n";

/** Spec 002 §9: a post's teaser is the first 255 characters of its content. */
export const BLOG_TEASER_CHARACTERS = 255;
/** Spec 002 §5: a blog's post needs a title and content. */
const REQUIRED = ["title", "content"] as const;

/** What a post's swiper holds: its media first, then its attachments. */
export function filesOfPost(payload: OpenedRecord["payload"]): FileRef[] {
  if (!payload) return [];
  return [...(payload.media && isMedia(payload.media) ? [payload.media] : []), ...(payload.attached ?? [])];
}

/**
 * The blog page (spec 002 §2 Blog): the posts as teasers (title, date, the first 255 characters of
 * the content), More opening the full post (content, rich body, the attachment swiper with the
 * photo browser for its images, comments) and Less closing it; Edit for those who may.
 */
export function BlogPage(props: PageTypeProps) {
  const { t } = useTranslation(ns);
  return (
    <CardPage {...props} required={REQUIRED} parts={{ media: true, html: true }}>
      {({ cards, holder, edit }) => (
        <Stack role="list" aria-label={t("posts")}>
          {cards.map((record) => (
            <Post key={record.id} groupId={props.groupId} record={record} readOnly={props.page.read_only} holder={holder} onEdit={() => edit(record)} />
          ))}
        </Stack>
      )}
    </CardPage>
  );
}

function Post({ groupId, record, readOnly, holder, onEdit }: { groupId: number; record: OpenedRecord; readOnly: boolean; holder: UnlockedKeys; onEdit: () => void }) {
  const { t } = useTranslation(ns);
  const [open, setOpen] = useState(false);
  const payload = record.payload;
  const title = payload ? payload.title || t("untitled") : t("invalid");
  const content = payload?.content ?? "";
  return (
    <Paper withBorder p="md" radius="md" role="listitem" data-post={record.id}>
      <Stack gap="xs">
        <Title order={3} size="h4" c={payload ? undefined : "red"} style={{ overflowWrap: "anywhere" }}>
          {title}
        </Title>
        <Text size="xs" c="dimmed" data-post-date>
          {formatDate(fromSeconds(record.timestamp))}
        </Text>
        {open ? (
          <FullPost groupId={groupId} record={record} title={title} holder={holder} />
        ) : content ? (
          <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-post-teaser>
            {firstCharacters(content, BLOG_TEASER_CHARACTERS)}
            {isCut(content, BLOG_TEASER_CHARACTERS) ? "…" : ""}
          </Text>
        ) : null}
        <Group gap="xs">
          {payload ? (
            <Button size="compact-sm" variant="light" onClick={() => setOpen(!open)} aria-expanded={open} aria-label={t(open ? "lessOf" : "moreOf", { title })}>
              {t(open ? "less" : "more")}
            </Button>
          ) : null}
          <EditButton record={record} readOnly={readOnly} title={title} onEdit={onEdit} />
        </Group>
      </Stack>
    </Paper>
  );
}

/** The whole post, with the comments loaded when it opens. */
function FullPost({ groupId, record, title, holder }: { groupId: number; record: OpenedRecord; title: string; holder: UnlockedKeys }) {
  const { t } = useTranslation(ns);
  const loaded = useRecord(groupId, record.id, holder);
  const [photo, setPhoto] = useState<number | null>(null);
  const payload = record.payload;
  const files = filesOfPost(payload);
  const images = files.filter(isImage).map((file) => ({ key: file.id, media: file, title: file.name }));
  return (
    <Stack gap="sm">
      {payload?.content ? (
        <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-post-content>
          {payload.content}
        </Text>
      ) : null}
      {payload?._html ? <RichView html={payload._html} label={t("body", { title })} /> : null}
      {files.length ? <AttachmentSwiper pageId={record.pageId} files={files} onOpenImage={(file) => setPhoto(images.findIndex((image) => image.key === file.id))} /> : null}
      <Divider />
      {loaded.isPending ? <Loader size="sm" /> : null}
      {loaded.isError ? <Text c="red">{errorText(loaded.error, t("commentsFailed"))}</Text> : null}
      {loaded.data ? <Comments groupId={groupId} id={record.id} holder={holder} loaded={loaded.data} /> : null}
      {photo !== null && photo >= 0 ? <PhotoBrowser pageId={record.pageId} photos={images} start={photo} onClose={() => setPhoto(null)} /> : null}
    </Stack>
  );
}
