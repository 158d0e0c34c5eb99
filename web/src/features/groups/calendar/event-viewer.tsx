import { Button, Divider, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { Comments } from "../cards";
import type { OpenedRecord } from "../records/records";
import { useRecord } from "../records/use-records";
import { eventOfRecord, parseLocal } from "./calendar-events";
import { ns } from "./i18n";

const WHEN = new Intl.DateTimeFormat("de-CH", { weekday: "short", day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });

/**
 * The event viewer popup (spec 002 §2 Calendar): title, time, content, tags, the comments with a
 * new-comment box and Post (shared by the page types; loaded with the card when the popup opens);
 * Edit for those who may. Escape closes it.
 */
export function EventViewer({
  groupId,
  holder,
  record,
  canEdit,
  onEdit,
  onClose,
}: {
  groupId: number;
  holder: UnlockedKeys;
  record: OpenedRecord;
  canEdit: boolean;
  onEdit: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(ns);
  const card = useRecord(groupId, record.id, holder);
  const event = eventOfRecord(record, t("untitled"));
  const start = parseLocal(event?.start);
  const end = parseLocal(event?.end);
  const payload = record.payload;
  return (
    <Modal opened onClose={onClose} title={event?.title ?? t("untitled")} centered closeButtonProps={{ "aria-label": t("viewer.close") }}>
      <Stack gap="sm" data-event-viewer={record.id}>
        {start && end ? (
          <div>
            <Text size="xs" c="dimmed">
              {t("viewer.time")}
            </Text>
            <Text data-event-time>{WHEN.formatRange(start, end)}</Text>
          </div>
        ) : null}
        {payload?.content ? (
          <div>
            <Text size="xs" c="dimmed">
              {t("viewer.content")}
            </Text>
            <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-event-content>
              {payload.content}
            </Text>
          </div>
        ) : null}
        {payload?.tags?.length ? (
          <Text size="sm">
            {t("viewer.tags")}: {payload.tags.join(", ")}
          </Text>
        ) : null}
        <Divider />
        {card.isPending ? <Loader size="sm" /> : null}
        {card.isError ? <Text c="red">{errorText(card.error, t("viewer.loadFailed"))}</Text> : null}
        {card.data ? <Comments groupId={groupId} id={record.id} holder={holder} loaded={card.data} /> : null}
        <Group justify="flex-end" gap="xs">
          {canEdit ? <Button onClick={onEdit}>{t("viewer.edit")}</Button> : null}
          <Button variant="default" onClick={onClose}>
            {t("viewer.close")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
