import { Loader } from "@mantine/core";
import { useInViewport } from "@mantine/hooks";
import type { FileRef } from "@sealwork/crypto";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { queryKeys } from "../../../lib/query-keys";
import { fetchThumbnail } from "../../conversations";
import { driveSpace } from "./drive-items";

/** Whether a file has a thumbnail to show: an image its uploader drew one of (spec 001 §5: width 200). */
export const hasThumbnail = (file: FileRef | null): file is FileRef => file !== null && file.thumb && file.type.startsWith("image/");

/**
 * A drive image's thumbnail, decrypted in this browser, drawn at `size` px at most; fetched only
 * once it is in view (a long drive does not fetch every image's), kept for the page's life. One
 * that cannot be fetched or opened shows `fallback`: the row and the details still name the file.
 */
export function DriveThumb({
  groupId,
  file,
  size,
  decorative = false,
  fallback = null,
}: {
  groupId: number;
  file: FileRef;
  size: number;
  /** Beside the file's name (a row): no text of its own. */
  decorative?: boolean;
  /** Shown instead when there is no thumbnail to draw (a row's icon). */
  fallback?: ReactNode;
}) {
  const { ref, inViewport } = useInViewport();
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (inViewport) setSeen(true);
  }, [inViewport]);
  const thumb = useQuery({
    queryKey: queryKeys.groups.driveThumb(groupId, file.id),
    queryFn: async ({ signal }) => URL.createObjectURL(await fetchThumbnail(driveSpace(groupId), file, signal)),
    enabled: seen,
    staleTime: Infinity,
    gcTime: 10 * 60 * 1000,
    retry: false,
  });
  const box = { width: size, height: size, display: "inline-flex", alignItems: "center", justifyContent: "center", flex: "none" } as const;
  if (thumb.isError) return fallback;
  return (
    <span ref={ref} style={box} data-thumb-state={thumb.data ? "thumb" : "preloading"} data-thumb-size={size}>
      {thumb.data ? <img src={thumb.data} alt={decorative ? "" : file.name} style={{ maxWidth: size, maxHeight: size, borderRadius: 4 }} /> : <Loader size={Math.min(size, 18)} />}
    </span>
  );
}
