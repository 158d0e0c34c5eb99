import { Button, CloseButton, Group, Progress, Stack, Text } from "@mantine/core";
import { type ChangeEvent, useRef } from "react";
import { useTranslation } from "react-i18next";
import { formatDriveSize } from "../../../lib/format";
import { ATTACHMENT_MAX_MB, ATTACHMENTS_MAX, type Upload, isBusy } from "./card-draft";
import { ns } from "./i18n";
import type { Slot } from "./use-card-uploads";

/** One file of the card with its state (spec 001 §4): a progress bar while it uploads, the reason when it did not. */
function UploadRow({ upload, onRemove }: { upload: Upload; onRemove: () => void }) {
  const { t } = useTranslation(ns);
  const percent = upload.total > 0 ? Math.round((upload.done / upload.total) * 100) : 0;
  const status =
    upload.state === "rejected"
      ? upload.rejection === "notMedia"
        ? t("uploads.notMedia")
        : t("uploads.tooLarge", { max: ATTACHMENT_MAX_MB })
      : upload.state === "uploading"
        ? t("uploads.uploading", { percent })
        : t(`uploads.state.${upload.state}`);
  return (
    <Stack gap={2} data-upload-state={upload.state}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" truncate>
          {upload.name} <Text span c="dimmed" size="xs">({formatDriveSize(upload.size)})</Text>
        </Text>
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c={upload.state === "success" ? "dimmed" : upload.state === "encrypting" || upload.state === "uploading" ? undefined : "red"}>
            {status}
          </Text>
          <CloseButton size="sm" aria-label={isBusy(upload) ? t("uploads.cancel", { name: upload.name }) : t("uploads.remove", { name: upload.name })} onClick={onRemove} />
        </Group>
      </Group>
      {isBusy(upload) ? <Progress value={upload.state === "uploading" ? percent : 0} animated={upload.state === "encrypting"} size="sm" aria-label={t("uploads.progress", { name: upload.name })} /> : null}
    </Stack>
  );
}

/**
 * The media header's slot or the attachments (spec 001 §2): one file at a time (the button waits
 * while one uploads), each listed with its state.
 */
export function CardUploads({
  slot,
  uploads,
  disabled,
  onAdd,
  onRemove,
}: {
  slot: Slot;
  uploads: readonly Upload[];
  disabled: boolean;
  onAdd: (file: File) => void;
  onRemove: (key: string) => void;
}) {
  const { t } = useTranslation(ns);
  const input = useRef<HTMLInputElement>(null);
  const shown = uploads.filter((u) => u.state !== "removed");
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = "";
    if (file) onAdd(file);
  };
  return (
    <Stack gap="xs" role="group" aria-label={slot === "media" ? t("media.label") : t("attachments.label")}>
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {slot === "media" ? t("media.label") : t("attachments.label")}
        </Text>
        <Button size="compact-xs" variant="light" disabled={disabled || shown.some(isBusy) || (slot === "attachment" && shown.length >= ATTACHMENTS_MAX)} onClick={() => input.current?.click()}>
          {slot === "media" ? (shown.length > 0 ? t("media.replace") : t("media.add")) : t("attachments.add")}
        </Button>
        <input ref={input} type="file" hidden accept={slot === "media" ? "image/*,video/*" : undefined} aria-label={slot === "media" ? t("media.input") : t("attachments.input")} onChange={picked} />
      </Group>
      {shown.map((upload) => (
        <UploadRow key={upload.key} upload={upload} onRemove={() => onRemove(upload.key)} />
      ))}
    </Stack>
  );
}
