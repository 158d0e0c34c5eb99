import { Button, Group, Progress, Stack, Text } from "@mantine/core";
import { isPlainText } from "@sealwork/contracts";
import { DRIVE_NAME_MAX } from "@sealwork/crypto";
import { type ChangeEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText, isRefusal } from "../../../lib/error-text";
import { TransferError, isAbort } from "../../conversations";
import type { GroupRing } from "../keys/group-ring";
import { uploadItem } from "./drive-items";
import type { DriveNode } from "./drive-tree";
import { ns } from "./i18n";
import { PlusIcon } from "../menu/page-icons";

/**
 * 'Upload file' into a drive or folder (spec 001 §2, §4, §5): one file at a time, at most 1024 MB,
 * encrypted in chunks in this browser and uploaded with its progress shown; a click cancels it.
 * The spec's texts for a file that cannot be read, an upload that fails or times out.
 */
export function UploadFile({
  ring,
  target,
  disabled,
  label,
  onDone,
  onError,
}: {
  ring: GroupRing;
  target: DriveNode | undefined;
  disabled: boolean;
  /** The button's text: 'Upload file' in the toolbar, 'Upload into' in the details. */
  label?: string;
  onDone: (itemId: number) => void;
  onError: (text: string) => void;
}) {
  const { t } = useTranslation(ns);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<{ name: string; done: number; total: number; controller: AbortController } | null>(null);
  const place = target && target.kind !== "file" ? target : undefined;

  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = "";
    if (!file || !place) return;
    if (!isPlainText(file.name) || file.name.length > DRIVE_NAME_MAX) return onError(t("errors.fileName"));
    const controller = new AbortController();
    setBusy({ name: file.name, done: 0, total: 1, controller });
    try {
      const { item } = await uploadItem(ring, place.id, file, { signal: controller.signal, onProgress: (done, total) => setBusy((now) => now && { ...now, done, total }) });
      onDone(item.id);
    } catch (failure) {
      if (!isAbort(failure)) onError(uploadErrorText(failure));
    } finally {
      setBusy(null);
    }
  };

  function uploadErrorText(failure: unknown): string {
    if (failure instanceof TransferError) return failure.reason === "tooLarge" ? t("errors.tooLarge") : t("errors.uploadFailed");
    if (failure instanceof DOMException && failure.name === "NotReadableError") return t("errors.uploadProcessing");
    if (failure instanceof DOMException && failure.name === "TimeoutError") return t("errors.uploadTimeout");
    return isRefusal(failure) ? errorText(failure) : t("errors.uploadFailed");
  }

  if (busy) {
    const percent = Math.floor((busy.done / Math.max(busy.total, 1)) * 100);
    return (
      <Stack gap={4} miw={220} data-upload="busy">
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Text size="xs" truncate>
            {t("upload.progress", { name: busy.name, percent })}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => busy.controller.abort()}>
            {t("upload.cancel")}
          </Button>
        </Group>
        <Progress value={percent} aria-label={t("upload.progress", { name: busy.name, percent })} />
      </Stack>
    );
  }
  return (
    <>
      <input ref={input} type="file" hidden onChange={(event) => void picked(event)} data-upload-input />
      <Button variant={label ? "default" : "light"} size={label ? "xs" : "sm"} leftSection={label ? undefined : <PlusIcon size={16} />} onClick={() => input.current?.click()} disabled={disabled || !place}>
        {label ?? t("toolbar.upload")}
      </Button>
    </>
  );
}
