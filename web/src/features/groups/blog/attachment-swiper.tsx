import { ActionIcon, Box, Group, Text, UnstyledButton } from "@mantine/core";
import type { FileRef } from "@sealwork/crypto";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AttachmentView } from "../../conversations";
import { CardThumb, nearIndexes, wrapIndex } from "../cards";
import { cardSpace } from "../records/records";
import { ns } from "./i18n";

/** Spec 002 §9: the blog's swiper slides in 500 ms. */
export const SWIPER_SPEED_MS = 500;

export const isImage = (file: FileRef) => file.type.startsWith("image/");

/**
 * A post's attachment swiper (spec 002 §2 Blog): one slide at a time on a horizontal strip that
 * slides in the spec's time, Previous and Next round the ring. An image shows its thumbnail and
 * opens the photo browser; another file is the conversations' attachment (its own download).
 * Only the slide shown and its neighbours are drawn, so images are decrypted when they come near.
 */
export function AttachmentSwiper({ pageId, files, onOpenImage }: { pageId: number; files: FileRef[]; onOpenImage: (file: FileRef) => void }) {
  const { t } = useTranslation(ns);
  const [index, setIndex] = useState(0);
  const near = new Set(nearIndexes(index, files.length));
  const move = (step: number) => setIndex((now) => wrapIndex(now, step, files.length));
  return (
    <Box role="region" aria-label={t("attachments")} data-swiper>
      <Box style={{ overflow: "hidden" }}>
        <Box style={{ display: "flex", transform: `translateX(-${index * 100}%)`, transition: `transform ${SWIPER_SPEED_MS}ms ease` }}>
          {files.map((file, i) => (
            <Box key={file.id} style={{ flex: "0 0 100%", minWidth: 0, visibility: i === index ? "visible" : "hidden" }} data-slide={i === index ? "shown" : undefined}>
              {!near.has(i) ? null : isImage(file) ? (
                <UnstyledButton onClick={() => onOpenImage(file)} aria-label={t("openImage", { name: file.name })} w="100%">
                  <CardThumb pageId={pageId} media={file} title={file.name} />
                </UnstyledButton>
              ) : (
                <AttachmentView space={cardSpace(pageId)} file={file} />
              )}
            </Box>
          ))}
        </Box>
      </Box>
      {files.length > 1 ? (
        <Group justify="center" gap="xs" mt={4}>
          <ActionIcon variant="default" aria-label={t("previous")} onClick={() => move(-1)}>
            <span aria-hidden>‹</span>
          </ActionIcon>
          <Text size="sm" c="dimmed" data-swiper-position>
            {t("position", { n: index + 1, total: files.length })}
          </Text>
          <ActionIcon variant="default" aria-label={t("next")} onClick={() => move(1)}>
            <span aria-hidden>›</span>
          </ActionIcon>
        </Group>
      ) : null}
    </Box>
  );
}
