import { Button, Divider, Group, Loader, Modal, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { AttachmentView } from "../../conversations";
import { CardMedia, Comments, RichView, isMedia } from "../cards";
import { cardSpace } from "../records/records";
import { useRecord } from "../records/use-records";
import { ns } from "./i18n";

/**
 * A pin's popup (spec 002 §2 Pinboard): its media (fetched and decrypted now), attachments, title,
 * content, the comments with a new-comment box and Post (shared by the page types), and Close;
 * Escape closes.
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
          {payload?.media && isMedia(payload.media) ? <CardMedia pageId={pageId} media={payload.media} title={title} /> : null}
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
          <Comments groupId={groupId} id={id} holder={holder} loaded={card.data} />
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
