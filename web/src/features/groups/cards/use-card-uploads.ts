import type { FileRef } from "@sealwork/crypto";
import { type Dispatch, type SetStateAction, useEffect, useRef } from "react";
import { TransferError, type TransferOptions, isAbort } from "../../conversations";
import { type CardDraft, type Upload, type UploadState, admission } from "./card-draft";

/** Encrypts and uploads one file where the card's files go (the host's file space). */
export type UploadFn = (file: File, options: TransferOptions) => Promise<FileRef>;
export type Slot = "media" | "attachment";

/** The end an upload that threw reached: refused by the server, timed out, or failed otherwise. */
function failedState(failure: unknown): { state: UploadState; rejection?: Upload["rejection"] } {
  if (failure instanceof TransferError && failure.reason === "tooLarge") return { state: "rejected", rejection: "tooLarge" };
  if (failure instanceof DOMException && failure.name === "TimeoutError") return { state: "timeout" };
  return { state: "error" };
}

/**
 * The card's uploads (spec 001 §4 "Attachment upload"): a picked file is added (encrypting), then
 * uploading with its progress, then success, error, timeout or rejected; a click removes a file or
 * cancels its upload. Closing the editor cancels what still runs.
 */
export function useCardUploads(setDraft: Dispatch<SetStateAction<CardDraft>>, upload: UploadFn) {
  const running = useRef(new Map<string, AbortController>());
  useEffect(() => {
    const controllers = running.current;
    return () => controllers.forEach((controller) => controller.abort());
  }, []);

  const patch = (slot: Slot, key: string, change: Partial<Upload>) =>
    setDraft((draft) =>
      slot === "media"
        ? draft.media?.key === key
          ? { ...draft, media: { ...draft.media, ...change } }
          : draft
        : { ...draft, attachments: draft.attachments.map((a) => (a.key === key ? { ...a, ...change } : a)) },
    );

  async function add(slot: Slot, file: File) {
    const key = crypto.randomUUID();
    const rejection = admission(file, slot);
    const added: Upload = { key, name: file.name, size: file.size, type: file.type, state: rejection ? "rejected" : "encrypting", done: 0, total: file.size, ...(rejection ? { rejection } : {}) };
    setDraft((draft) => (slot === "media" ? { ...draft, media: added } : { ...draft, attachments: [...draft.attachments, added] }));
    if (rejection) return;
    const controller = new AbortController();
    running.current.set(key, controller);
    try {
      const ref = await upload(file, { signal: controller.signal, onProgress: (done, total) => patch(slot, key, { state: "uploading", done, total }) });
      patch(slot, key, { state: "success", file: ref, done: ref.size, total: ref.size });
    } catch (failure) {
      if (!isAbort(failure)) patch(slot, key, failedState(failure));
    } finally {
      running.current.delete(key);
    }
  }

  /** Removes a file, cancelling its upload if it still runs. */
  function remove(slot: Slot, key: string) {
    running.current.get(key)?.abort();
    running.current.delete(key);
    patch(slot, key, { state: "removed" });
  }

  return { add, remove };
}
