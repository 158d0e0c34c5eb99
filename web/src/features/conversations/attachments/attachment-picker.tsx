import { Button, Group, Loader, Progress, Stack, Text } from "@mantine/core";
import { useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { call } from "../../../lib/api";
import { type PickedDriveFile, useDrivePicker } from "../../../lib/drive-picker";
import { errorText } from "../../../lib/error-text";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import type { FileRef } from "./file-ref";
import { conversationSpace, isAbort, TransferError, uploadFile } from "./transfer";
import { ns } from "../i18n";

export interface AttachmentPickerProps {
  conversationId: number;
  /** Called once a file is encrypted and uploaded; the message bar sends it with the next message. */
  onAttached: (file: FileRef) => void;
  disabled?: boolean;
}

interface Running {
  name: string;
  done: number;
  total: number;
  controller: AbortController;
}

/**
 * The message bar's image-sheet and file-upload buttons: one file at a time, encrypted in the
 * browser and uploaded straight to the bucket, with a progress bar and cancel.
 */
export function AttachmentPicker({ conversationId, onAttached, disabled }: AttachmentPickerProps) {
  const { t } = useTranslation(ns);
  const imageInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const [error, setError] = useState<string | null>(null);
  const DrivePicker = useDrivePicker();
  const [picking, setPicking] = useState(false);
  // One copy from the drive at a time: a pick while one is on its way is ignored.
  const copying = useRef(false);
  const [copyingName, setCopyingName] = useState<string | null>(null);

  /** 'Select from drive...': the file is copied, still encrypted, into this conversation; its reference (key included) goes with the message. */
  async function fromDrive({ group, file }: PickedDriveFile) {
    setPicking(false);
    if (copying.current) return;
    copying.current = true;
    setCopyingName(file.name);
    try {
      const copied = await call("POST /api/conversations/{id}/attachments/from-drive", { params: { id: conversationId }, body: { group, file: file.id } });
      onAttached({ ...file, id: copied.id });
    } catch (failure) {
      setError(errorText(failure, t("attachments.fromDriveFailed")));
    } finally {
      copying.current = false;
      setCopyingName(null);
    }
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const controller = new AbortController();
    setRunning({ name: file.name, done: 0, total: file.size, controller });
    try {
      const ref = await uploadFile(conversationSpace(conversationId), file, {
        signal: controller.signal,
        onProgress: (done, total) => setRunning((r) => (r ? { ...r, done, total } : r)),
      });
      onAttached(ref);
    } catch (failure) {
      if (!isAbort(failure)) setError(t(failure instanceof TransferError && failure.reason === "tooLarge" ? "attachments.tooLarge" : "attachments.sendFailed"));
    } finally {
      setRunning(null);
    }
  }

  const percent = running && running.total > 0 ? Math.floor((running.done / running.total) * 100) : 0;
  return (
    <>
      {running ? (
        <Stack gap={4} data-testid="upload-progress" style={{ flex: 1, minWidth: 160 }}>
          <Text size="xs" truncate>
            {t("attachments.uploading", { name: running.name })} {percent} %
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Progress value={percent} style={{ flex: 1 }} aria-label={t("attachments.uploading", { name: running.name })} />
            <Button size="compact-xs" variant="subtle" onClick={() => running.controller.abort()}>
              {t("attachments.cancel")}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-sm" variant="subtle" aria-label={t("attachments.imageLabel")} disabled={disabled} onClick={() => imageInput.current?.click()}>
            {t("attachments.image")}
          </Button>
          <Button size="compact-sm" variant="subtle" aria-label={t("attachments.fileLabel")} disabled={disabled} onClick={() => fileInput.current?.click()}>
            {t("attachments.file")}
          </Button>
          {DrivePicker ? (
            <Button size="compact-sm" variant="subtle" disabled={disabled || copyingName !== null} onClick={() => setPicking(true)}>
              {t("attachments.fromDrive")}
            </Button>
          ) : null}
          {copyingName !== null ? (
            <Group gap={4} wrap="nowrap" aria-live="polite" data-testid="drive-copy" aria-busy>
              <Loader size="xs" />
              <Text size="xs" truncate>
                {t("attachments.fromDriveCopying", { name: copyingName })}
              </Text>
            </Group>
          ) : null}
        </Group>
      )}
      <input ref={imageInput} type="file" accept="image/*" hidden data-testid="attach-image" onChange={(e) => void upload(e)} />
      <input ref={fileInput} type="file" hidden data-testid="attach-file" onChange={(e) => void upload(e)} />
      {picking && DrivePicker ? <DrivePicker onPick={(picked) => void fromDrive(picked)} onClose={() => setPicking(false)} /> : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </>
  );
}
