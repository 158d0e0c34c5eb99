import { ActionIcon, Box, Group, Modal, Text } from "@mantine/core";
import type { FileRef } from "@sealwork/crypto";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CardMedia } from "./card-media";
import { nearIndexes, swipeStep, wrapIndex } from "./card-text";
import { ns } from "./i18n";

/** One picture of the photo browser: its media (sealed in the page's file space) and caption. */
export interface Photo {
  key: number | string;
  media: FileRef;
  title: string;
}

/**
 * The dark photo browser of the blog and the gallery (spec 002 §2): one picture at a time with
 * its title as the caption; Previous and Next, the arrow keys and a horizontal drag (swipe) move
 * round the ring, Escape closes. Only the picture shown and its two neighbours are fetched and
 * decrypted; the others stay sealed until one comes near.
 */
export function PhotoBrowser({ pageId, photos, start, onClose }: { pageId: number; photos: Photo[]; start: number; onClose: () => void }) {
  const { t } = useTranslation(ns);
  const [index, setIndex] = useState(start);
  const total = photos.length;
  const move = (step: number) => setIndex((now) => wrapIndex(now, step, total));
  const dragFrom = useRef<number | null>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "ArrowRight") move(1);
      else if (event.key === "ArrowLeft") move(-1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [total]);

  const shown = photos[index];
  if (!shown) return null;
  const near = new Set(nearIndexes(index, total));
  return (
    <Modal
      opened
      onClose={onClose}
      fullScreen
      title={t("photos.label")}
      closeButtonProps={{ "aria-label": t("photos.close") }}
      styles={{ content: { background: "#000", color: "#fff" }, header: { background: "#000", color: "#fff" } }}
      data-photo-browser
    >
      <Group wrap="nowrap" align="center" gap="xs" h="calc(100dvh - 120px)">
        <ActionIcon variant="subtle" color="gray" size="xl" aria-label={t("photos.previous")} onClick={() => move(-1)} disabled={total < 2}>
          <span aria-hidden>‹</span>
        </ActionIcon>
        <Box
          flex={1}
          h="100%"
          style={{ touchAction: "pan-y", userSelect: "none", display: "flex", alignItems: "center", justifyContent: "center", minWidth: 0 }}
          onDragStart={(event) => event.preventDefault()}
          onPointerDown={(event) => (dragFrom.current = event.clientX)}
          onPointerUp={(event) => {
            if (dragFrom.current !== null) move(swipeStep(event.clientX - dragFrom.current));
            dragFrom.current = null;
          }}
          onPointerCancel={() => (dragFrom.current = null)}
          data-photo-stage
        >
          {photos.map((photo, i) =>
            near.has(i) ? (
              <Box key={photo.key} w="100%" style={{ display: i === index ? "block" : "none" }} data-photo={i === index ? "shown" : "near"}>
                <CardMedia pageId={pageId} media={photo.media} title={photo.title} maxHeight="calc(100dvh - 180px)" />
              </Box>
            ) : null,
          )}
        </Box>
        <ActionIcon variant="subtle" color="gray" size="xl" aria-label={t("photos.next")} onClick={() => move(1)} disabled={total < 2}>
          <span aria-hidden>›</span>
        </ActionIcon>
      </Group>
      <Group justify="space-between" mt="xs">
        <Text fw={500} style={{ overflowWrap: "anywhere" }} data-photo-caption>
          {shown.title}
        </Text>
        <Text size="sm" c="gray.5">
          {t("photos.position", { n: index + 1, total })}
        </Text>
      </Group>
    </Modal>
  );
}
