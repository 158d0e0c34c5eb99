import { Box, Button, Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CardPage, CardThumb, EditButton, firstCharacters, isMedia } from "../cards";
import type { PageTypeProps } from "../pages/type-slot";
import type { OpenedRecord } from "../records/records";
import { ns } from "./i18n";
import { PinViewer } from "./pin-viewer";

/** Spec 002 §9: a pin shows the first 100 characters of its content. */
export const PIN_PREVIEW_CHARACTERS = 100;
/**
 * Spec 002 §9: a pin's media keeps a spacer of 100 px while its thumbnail loads, so the board does
 * not jump when it arrives (the spec adds the media's own spacing; this client's media records
 * carry none).
 */
export const PIN_SPACER_PX = 100;
/** Spec 002 §5: a pinboard's card needs a title and content. */
const REQUIRED = ["title", "content"] as const;

/**
 * The pinboard page (spec 002 §2 Pinboard): the page's cards with thumbnail, title, the first
 * 100 characters of their content, View and Edit; View opens the pin's popup, Edit and the page's
 * add button the card editor. Everything shown was decrypted here; a read-only page offers no
 * editing. The empty state is the page type's.
 */
export function PinboardPage(props: PageTypeProps) {
  const { t } = useTranslation(ns);
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <CardPage {...props} required={REQUIRED} parts={{ media: true, html: true }}>
      {({ cards, holder, edit }) => (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} role="list" aria-label={t("board")}>
            {cards.map((record) => (
              <Pin key={record.id} record={record} pageId={props.page.id} readOnly={props.page.read_only} onView={() => setViewing(record.id)} onEdit={() => edit(record)} />
            ))}
          </SimpleGrid>
          {viewing !== null ? <PinViewer groupId={props.groupId} pageId={props.page.id} id={viewing} holder={holder} onClose={() => setViewing(null)} /> : null}
        </>
      )}
    </CardPage>
  );
}

function Pin({ record, pageId, readOnly, onView, onEdit }: { record: OpenedRecord; pageId: number; readOnly: boolean; onView: () => void; onEdit: () => void }) {
  const { t } = useTranslation(ns);
  const payload = record.payload;
  const title = payload ? payload.title || t("untitled") : t("invalid");
  const preview = payload?.content ? firstCharacters(payload.content, PIN_PREVIEW_CHARACTERS) : "";
  return (
    <Paper withBorder p="sm" radius="md" role="listitem" data-pin={record.id}>
      <Stack gap="xs">
        {payload?.media && isMedia(payload.media) ? (
          <Box style={{ minHeight: PIN_SPACER_PX }} data-pin-spacer>
            <CardThumb pageId={pageId} media={payload.media} title={title} />
          </Box>
        ) : null}
        <Text fw={600} c={payload ? undefined : "red"} style={{ overflowWrap: "anywhere" }}>
          {title}
        </Text>
        {preview ? (
          <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }} data-pin-preview>
            {preview}
          </Text>
        ) : null}
        <Group gap="xs">
          <Button size="compact-sm" variant="light" onClick={onView} aria-label={t("viewCard", { title })}>
            {t("view")}
          </Button>
          <EditButton record={record} readOnly={readOnly} title={title} onEdit={onEdit} />
        </Group>
      </Stack>
    </Paper>
  );
}
