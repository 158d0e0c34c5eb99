import { Center, Paper, SimpleGrid, Stack, Text, UnstyledButton, useMatches } from "@mantine/core";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CardThumb, EditButton, type Photo } from "../cards";
import type { OpenedRecord } from "../records/records";
import { ns } from "./i18n";

/** Pictures a row, by the width of the screen (Mantine's breakpoints). */
const COLUMNS = { base: 2, sm: 3, md: 4 } as const;
/** Mantine's md spacing, between rows and tiles. */
const GAP = 16;
/**
 * The thumbnail's frame (CardThumb draws at most 200 px high): a tile is as high while its
 * thumbnail loads as after, so rows measured while loading do not let more rows in, whose
 * thumbnails would be fetched only to be dropped.
 */
const THUMB_FRAME = 200;
/** A guess for a row not drawn yet (the frame, the title, Edit); drawn rows are measured. */
const ESTIMATED_ROW = 280;
/** Rows drawn above and below the view, so a slow scroll finds them ready. */
const OVERSCAN = 1;

export type GalleryPhoto = Photo & { record: OpenedRecord };

/**
 * The gallery's grid, virtualised by rows over the window's scroll (TanStack Virtual): only the
 * rows in view and one either side are in the page, so only their thumbnails are fetched and
 * decrypted (each tile's CardThumb asks for its own); the others stay sealed until scrolled to.
 * A gallery of 1,000 pictures builds a few dozen tiles (issue 14).
 */
export function GalleryGrid({ pageId, photos, readOnly, onOpen, onEdit }: { pageId: number; photos: GalleryPhoto[]; readOnly: boolean; onOpen: (index: number) => void; onEdit: (record: OpenedRecord) => void }) {
  const { t } = useTranslation(ns);
  const columns = useMatches(COLUMNS);
  const list = useRef<HTMLDivElement>(null);
  // Where the grid starts in the page: the virtualizer counts the window's scroll from there.
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const at = Math.round(el.getBoundingClientRect().top + window.scrollY);
    if (at !== top) setTop(at);
  });
  const virtualizer = useWindowVirtualizer({
    count: Math.ceil(photos.length / columns),
    estimateSize: () => ESTIMATED_ROW,
    overscan: OVERSCAN,
    gap: GAP,
    scrollMargin: top,
  });

  return (
    <div ref={list} role="list" aria-label={t("grid")} data-gallery-tiles={photos.length} style={{ position: "relative", height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((row) => (
        <SimpleGrid
          key={row.key}
          cols={columns}
          spacing={GAP}
          data-index={row.index}
          ref={virtualizer.measureElement}
          style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${row.start - top}px)` }}
        >
          {photos.slice(row.index * columns, (row.index + 1) * columns).map((photo, i) => {
            const index = row.index * columns + i;
            return (
              <Paper key={photo.key} withBorder p="xs" radius="md" role="listitem" aria-setsize={photos.length} aria-posinset={index + 1} data-gallery-item={photo.key}>
                <Stack gap={4}>
                  <UnstyledButton onClick={() => onOpen(index)} aria-label={t("open", { title: photo.title })}>
                    <Center h={THUMB_FRAME} style={{ overflow: "hidden" }}>
                      <CardThumb pageId={pageId} media={photo.media} title={photo.title} />
                    </Center>
                  </UnstyledButton>
                  <Text size="sm" fw={500} lineClamp={1} style={{ overflowWrap: "anywhere" }}>
                    {photo.title}
                  </Text>
                  <EditButton record={photo.record} readOnly={readOnly} title={photo.title} onEdit={() => onEdit(photo.record)} />
                </Stack>
              </Paper>
            );
          })}
        </SimpleGrid>
      ))}
    </div>
  );
}
