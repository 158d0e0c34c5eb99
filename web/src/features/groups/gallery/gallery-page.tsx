import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CardPage, PhotoBrowser, isMedia } from "../cards";
import { PagePlaceholder } from "../pages/page-placeholder";
import type { PageTypeProps } from "../pages/type-slot";
import type { OpenedRecord } from "../records/records";
import { type GalleryPhoto, GalleryGrid } from "./gallery-grid";
import { ns } from "./i18n";

/** Spec 002 §5: a gallery's card needs media. */
const REQUIRED = ["media"] as const;

/** The gallery's pictures: the cards that open and carry an image or video, titled for the captions. */
export function photosOf(cards: OpenedRecord[], untitled: string): GalleryPhoto[] {
  return cards.flatMap((record) => {
    const media = record.payload?.media;
    return media && isMedia(media) ? [{ key: record.id, media, title: record.payload?.title || untitled, record }] : [];
  });
}

/**
 * The gallery page (spec 002 §2 Gallery): the cards' thumbnails in a virtualised grid (only the
 * rows in view are built, and only their thumbnails fetched and decrypted: gallery-grid.tsx); one
 * opens the dark photo browser with the titles as captions, where only the picture shown and its
 * neighbours are fetched and decrypted. Add and Edit go through the card editor (media required).
 * With no picture to show (no cards, or only cards without an image or video, which other page
 * types and clients may leave here) it shows the gallery's empty state.
 */
export function GalleryPage(props: PageTypeProps) {
  const { t } = useTranslation(ns);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <CardPage {...props} required={REQUIRED} parts={{ media: true }}>
      {({ cards, edit }) => {
        const photos = photosOf(cards, t("untitled"));
        if (photos.length === 0) return <PagePlaceholder page={props.page} />;
        return (
          <>
            <GalleryGrid pageId={props.page.id} photos={photos} readOnly={props.page.read_only} onOpen={setOpen} onEdit={edit} />
            {open !== null ? <PhotoBrowser pageId={props.page.id} photos={photos} start={Math.min(open, photos.length - 1)} onClose={() => setOpen(null)} /> : null}
          </>
        );
      }}
    </CardPage>
  );
}
