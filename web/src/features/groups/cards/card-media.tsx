import { Center, Loader, Text } from "@mantine/core";
import type { FileRef } from "@sealwork/crypto";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { downloadFile, fetchThumbnail } from "../../conversations";
import { cardSpace } from "../records/records";
import { ns } from "./i18n";

const isVideo = (file: FileRef) => file.type.startsWith("video/");
/** Only images and videos are drawn as media (another client may have sealed any type). */
export const isMedia = (file: FileRef) => /^(image|video)\//.test(file.type);

/** A card's media thumbnail (200 px, decrypted here); a video or an image without one shows its kind. */
export function CardThumb({ pageId, media, title }: { pageId: number; media: FileRef; title: string }) {
  const { t } = useTranslation(ns);
  const space = cardSpace(pageId);
  const thumb = useQuery({
    queryKey: [...space.key, "thumbnail", media.id],
    queryFn: async ({ signal }) => URL.createObjectURL(await fetchThumbnail(space, media, signal)),
    enabled: media.thumb && !isVideo(media),
    staleTime: Infinity,
    retry: false,
  });
  if (!media.thumb || isVideo(media) || thumb.isError) {
    return (
      <Center h={100} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }}>
        <Text size="sm" c="dimmed">
          {isVideo(media) ? t("media.video") : media.name}
        </Text>
      </Center>
    );
  }
  if (thumb.isPending) return <Loader size="sm" data-thumb-state="preloading" />;
  return <img src={thumb.data} alt={title} data-thumb-state="thumb" style={{ width: "100%", maxHeight: 200, objectFit: "cover", borderRadius: 4 }} />;
}

/**
 * A card's full media, fetched and decrypted only when it is shown (spec 002 §4: loading, then
 * loaded or error); the blob URL goes with the component. `maxHeight` fits it to its frame.
 */
export function CardMedia({ pageId, media, title, maxHeight = 400 }: { pageId: number; media: FileRef; title: string; maxHeight?: number | string }) {
  const { t } = useTranslation(ns);
  const space = cardSpace(pageId);
  const full = useQuery({
    queryKey: [...space.key, "media", media.id],
    queryFn: async ({ signal }) => URL.createObjectURL(new Blob([await downloadFile(space, media, { signal })], { type: media.type })),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  useEffect(() => () => void (full.data && URL.revokeObjectURL(full.data)), [full.data]);
  if (full.isPending) {
    return (
      <Center h={120} data-media-state="loading">
        <Loader size="sm" />
        <Text size="sm" ml="xs">
          {t("media.loading")}
        </Text>
      </Center>
    );
  }
  if (full.isError) {
    return (
      <Text c="red" size="sm" data-media-state="error">
        {t("media.failed")}
      </Text>
    );
  }
  return isVideo(media) ? (
    <video src={full.data} controls style={{ width: "100%", maxHeight }} data-media-state="loaded" aria-label={title} />
  ) : (
    <img src={full.data} alt={title} style={{ width: "100%", maxHeight, objectFit: "contain" }} data-media-state="loaded" />
  );
}
