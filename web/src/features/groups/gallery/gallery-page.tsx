import { Paper, SimpleGrid, Stack, Text, UnstyledButton } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CardPage, CardThumb, EditButton, type Photo, PhotoBrowser, isMedia } from "../cards";
import type { PageTypeProps } from "../pages/type-slot";
import type { OpenedRecord } from "../records/records";
import { ns } from "./i18n";

/** Spec 002 §5: a gallery's card needs media. */
const REQUIRED = ["media"] as const;

/** The gallery's pictures: the cards that open and carry an image or video, titled for the captions. */
export function photosOf(cards: OpenedRecord[], untitled: string): (Photo & { record: OpenedRecord })[] {
  return cards.flatMap((record) => {
    const media = record.payload?.media;
    return media && isMedia(media) ? [{ key: record.id, media, title: record.payload?.title || untitled, record }] : [];
  });
}

/**
 * The gallery page (spec 002 §2 Gallery): the cards' thumbnails (decrypted here) in a grid; one
 * opens the dark photo browser with the titles as captions, where only the picture shown and its
 * neighbours are fetched and decrypted. Add and Edit go through the card editor (media required).
 */
export function GalleryPage(props: PageTypeProps) {
  const { t } = useTranslation(ns);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <CardPage {...props} required={REQUIRED} parts={{ media: true }}>
      {({ cards, edit }) => {
        const photos = photosOf(cards, t("untitled"));
        return (
          <>
            <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} role="list" aria-label={t("grid")}>
              {photos.map((photo, index) => (
                <Paper key={photo.key} withBorder p="xs" radius="md" role="listitem" data-gallery-item={photo.key}>
                  <Stack gap={4}>
                    <UnstyledButton onClick={() => setOpen(index)} aria-label={t("open", { title: photo.title })}>
                      <CardThumb pageId={props.page.id} media={photo.media} title={photo.title} />
                    </UnstyledButton>
                    <Text size="sm" fw={500} lineClamp={1} style={{ overflowWrap: "anywhere" }}>
                      {photo.title}
                    </Text>
                    <EditButton record={photo.record} readOnly={props.page.read_only} title={photo.title} onEdit={() => edit(photo.record)} />
                  </Stack>
                </Paper>
              ))}
            </SimpleGrid>
            {open !== null && photos.length > 0 ? <PhotoBrowser pageId={props.page.id} photos={photos} start={Math.min(open, photos.length - 1)} onClose={() => setOpen(null)} /> : null}
          </>
        );
      }}
    </CardPage>
  );
}
