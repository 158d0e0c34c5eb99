import { Anchor, Button, Group, Loader, Paper, Progress, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../../lib/format";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { type FileRef, isImage, parseFileRef } from "./file-ref";
import { type FileSpace, downloadFile, fetchThumbnail, isAbort } from "./transfer";
import { ns } from "../i18n";

export interface AttachmentViewProps {
  /** Where the file's bytes are: a conversation's attachments, a group's cards' files. */
  space: FileSpace;
  /** As it came out of a message payload: checked here before anything is fetched. */
  file: FileRef;
}

type Download = { state: "none" } | { state: "downloading"; done: number; total: number } | { state: "ready"; url: string };

/**
 * One attached file in a message or a card (spec 000 §4 Attachment and File download): a
 * thumbnail for images, name and size, and Download → downloading (progress) → Save.
 */
export function AttachmentView({ space, file: raw }: AttachmentViewProps) {
  const { t } = useTranslation(ns);
  const file = useMemo(() => parseFileRef(raw), [raw]);
  const [download, setDownload] = useState<Download>({ state: "none" });
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => void (download.state === "ready" && URL.revokeObjectURL(download.url)), [download]);

  if (!file) {
    return (
      <Paper withBorder p="xs" data-attachment-state="invalid">
        <Text size="sm" c="red">
          {t("attachments.invalid")}
        </Text>
      </Paper>
    );
  }

  async function start(ref: FileRef) {
    setDownload({ state: "downloading", done: 0, total: ref.size });
    try {
      const blob = await downloadFile(space, ref, { onProgress: (done, total) => setDownload({ state: "downloading", done, total }) });
      setDownload({ state: "ready", url: URL.createObjectURL(blob) });
    } catch (failure) {
      setDownload({ state: "none" });
      if (!isAbort(failure)) setError(t("attachments.fetchFailed"));
    }
  }

  return (
    <Paper withBorder p="xs" data-attachment-state="ready" data-download-state={download.state} data-attachment-name={file.name}>
      <Stack gap={6}>
        {file.thumb && isImage(file) ? <Thumbnail space={space} file={file} /> : null}
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} truncate>
              {file.name}
            </Text>
            <Text size="xs" c="dimmed">
              {formatFileSize(file.size)}
            </Text>
          </Stack>
          {/* Every file has its own Download and Save, so each names its file (axe: identical names). */}
          {download.state === "ready" ? (
            // The blob is application/octet-stream (transfer.ts) and the link downloads: a saved
            // file is never opened as a page of this origin.
            <Anchor href={download.url} download={file.name} rel="noopener" size="sm" aria-label={t("attachments.saveFile", { name: file.name })}>
              {t("attachments.save")}
            </Anchor>
          ) : (
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => void start(file)}
              loading={download.state === "downloading"}
              aria-label={t(download.state === "downloading" ? "attachments.downloadingFile" : "attachments.downloadFile", { name: file.name })}
              aria-busy={download.state === "downloading"}
            >
              {t("attachments.download")}
            </Button>
          )}
        </Group>
        {download.state === "downloading" ? (
          <Progress value={download.total ? (download.done / download.total) * 100 : 0} aria-label={t("attachments.downloadingFile", { name: file.name })} />
        ) : null}
      </Stack>
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Paper>
  );
}

/** preloading → thumb, or thumb-missing when the bucket has none (spec 000 §4). */
function Thumbnail({ space, file }: { space: FileSpace; file: FileRef }) {
  const { t } = useTranslation(ns);
  const thumb = useQuery({
    queryKey: [...space.key, "thumbnail", file.id],
    queryFn: async ({ signal }) => URL.createObjectURL(await fetchThumbnail(space, file, signal)),
    staleTime: Infinity,
    gcTime: 10 * 60 * 1000,
    retry: false,
  });
  if (thumb.isPending) return <Loader size="sm" data-thumb-state="preloading" />;
  if (thumb.isError) {
    return (
      <Text size="xs" c="dimmed" data-thumb-state="thumb-missing">
        {t("attachments.noThumbnail")}
      </Text>
    );
  }
  return <img src={thumb.data} alt={file.name} data-thumb-state="thumb" style={{ maxWidth: 200, maxHeight: 200, borderRadius: 4 }} />;
}
