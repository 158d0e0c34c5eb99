import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from "@mantine/core";
import { type FormEvent, type ReactNode, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import type { MotePayload } from "@sealwork/crypto";
import { type CardDraft, type CoreField, type DraftProblem, checkDraft, draftOf, isBusy } from "./card-draft";
import { CardUploads } from "./card-uploads";
import { ns } from "./i18n";
import { RichBody } from "./rich-body";
import { type UploadFn, useCardUploads } from "./use-card-uploads";

/** The parts a page type shows besides title, content and attachments (spec 001 §2). */
export interface CardParts {
  media?: boolean;
  html?: boolean;
  event?: boolean;
}

export interface CardEditorProps {
  /** Create a card, or edit `card` as saved (its opened payload). */
  mode: "create" | "edit";
  card?: MotePayload;
  /** What a new card starts with (e.g. the times selected on a calendar); ignored when editing. */
  initial?: MotePayload;
  /**
   * Whom the content is encrypted for: the group, or a restricted page's readers only (its page
   * key); unknown (still loading): no note.
   */
  encryptedFor?: "group" | "readers";
  /** A page the user may only read (level ≤ 1): the spec's notice instead of the form. */
  readOnly?: boolean;
  /** What the page type needs before a save (spec 002 §5). */
  required?: readonly CoreField[];
  parts?: CardParts;
  upload: UploadFn;
  onSave: (payload: MotePayload) => Promise<void>;
  onDelete?: () => Promise<void>;
  onClose: () => void;
  /**
   * Schema-defined fields (the blueprints issue): drawn after the content with the draft's custom
   * values by field name (sealed as `cf_<name>`); a page type that has none leaves this out.
   */
  fields?: (values: CardDraft["custom"], set: (name: string, value: unknown) => void) => ReactNode;
}

/**
 * The card editor popup (spec 001 §2, §4, §5): create and edit, the note that the content is
 * encrypted for the group (or a restricted page's readers), the optional media header (images and videos), title, rich body, event
 * start and end, content, attachments with their upload states, tags; Save (blocked while a file
 * uploads), Cancel, and Delete when editing. Escape closes it. Saving seals in the host
 * (`onSave` gets the content as the record carries it); nothing leaves this browser unencrypted.
 */
export function CardEditor(props: CardEditorProps) {
  const { t } = useTranslation(ns);
  return (
    <Modal opened onClose={props.onClose} title={props.mode === "create" ? t("editor.createTitle") : t("editor.editTitle")} size="lg" centered>
      {props.readOnly ? (
        <Stack>
          <Alert color="yellow">{t("editor.readOnly")}</Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t("editor.close")}
            </Button>
          </Group>
        </Stack>
      ) : (
        <CardForm {...props} />
      )}
    </Modal>
  );
}

function problemText(t: TFunction<typeof ns>, problem: DraftProblem): string {
  if (problem.code === "waitForAttachment") return t("editor.waitForAttachment");
  if (problem.code === "dateInvalid") return t("editor.dateInvalid", { field: t("editor.event") });
  if (problem.code === "invalid") return t("editor.invalid");
  return t("editor.requiredFieldMissing", { field: t(`editor.fieldName.${problem.field}`) });
}

function CardForm({ mode, card, initial, encryptedFor, required = [], parts = {}, upload, onSave, onDelete, onClose, fields }: CardEditorProps) {
  const { t } = useTranslation(ns);
  const [draft, setDraft] = useState(() => draftOf(mode === "edit" ? card : (initial ?? card)));
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState<"save" | "delete" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const uploads = useCardUploads(setDraft, upload);
  const set = <K extends keyof CardDraft>(key: K, value: CardDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const uploading = isBusy(draft.media) || draft.attachments.some(isBusy);

  async function save(event: FormEvent) {
    event.preventDefault();
    const checked = checkDraft(draft, required);
    if ("problems" in checked) return setProblems(checked.problems.map((p) => problemText(t, p)));
    setProblems([]);
    setBusy("save");
    try {
      await onSave(checked.payload);
    } catch (failure) {
      setProblems([errorText(failure, t("editor.saveFailed"))]);
      setBusy(null);
    }
  }

  async function remove() {
    if (!onDelete) return;
    setBusy("delete");
    try {
      await onDelete();
    } catch (failure) {
      setProblems([errorText(failure, t("editor.deleteFailed"))]);
      setBusy(null);
      setConfirming(false);
    }
  }

  return (
    <form onSubmit={save} noValidate aria-label={mode === "create" ? t("editor.createTitle") : t("editor.editTitle")}>
      <Stack gap="sm">
        {encryptedFor ? (
          <Text size="sm" c="dimmed" data-encrypted-for={encryptedFor}>
            {encryptedFor === "readers" ? t("editor.encryptedForReaders") : t("editor.encrypted")}
          </Text>
        ) : null}
        {parts.media ? (
          <CardUploads slot="media" uploads={draft.media ? [draft.media] : []} disabled={busy !== null} onAdd={(file) => void uploads.add("media", file)} onRemove={(key) => uploads.remove("media", key)} />
        ) : null}
        <TextInput label={t("editor.title")} value={draft.title} onChange={(e) => set("title", e.currentTarget.value)} data-autofocus required={required.includes("title")} />
        {parts.html ? <RichBody html={draft.html} onChange={(html) => set("html", html)} label={t("editor.body")} /> : null}
        {parts.event ? (
          <Group grow>
            <TextInput type="datetime-local" label={t("editor.eventStart")} value={draft.eventStart} onChange={(e) => set("eventStart", e.currentTarget.value)} />
            <TextInput type="datetime-local" label={t("editor.eventEnd")} value={draft.eventEnd} onChange={(e) => set("eventEnd", e.currentTarget.value)} />
          </Group>
        ) : null}
        <Textarea label={t("editor.content")} value={draft.content} onChange={(e) => set("content", e.currentTarget.value)} autosize minRows={3} maxRows={12} required={required.includes("content")} />
        {fields?.(draft.custom, (name, value) => setDraft((d) => ({ ...d, custom: { ...d.custom, [name]: value } })))}
        <CardUploads slot="attachment" uploads={draft.attachments} disabled={busy !== null} onAdd={(file) => void uploads.add("attachment", file)} onRemove={(key) => uploads.remove("attachment", key)} />
        <TextInput label={t("editor.tags")} description={t("editor.tagsHint")} value={draft.tags} onChange={(e) => set("tags", e.currentTarget.value)} />
        {problems.length > 0 ? (
          <Alert color="red" role="alert">
            {problems.map((text) => (
              <Text key={text} size="sm">
                {text}
              </Text>
            ))}
          </Alert>
        ) : null}
        {confirming ? (
          <Group justify="space-between" role="group" aria-label={t("editor.confirmDelete")}>
            <Text size="sm">{t("editor.confirmDelete")}</Text>
            <Group gap="xs">
              <Button variant="default" onClick={() => setConfirming(false)} disabled={busy !== null}>
                {t("editor.keep")}
              </Button>
              <Button color="red" onClick={() => void remove()} loading={busy === "delete"}>
                {t("editor.delete")}
              </Button>
            </Group>
          </Group>
        ) : (
          <Group justify="space-between">
            {mode === "edit" && onDelete ? (
              <Button color="red" variant="subtle" onClick={() => setConfirming(true)} disabled={busy !== null}>
                {t("editor.delete")}
              </Button>
            ) : (
              <span />
            )}
            <Group gap="xs">
              <Button variant="default" onClick={onClose} disabled={busy !== null}>
                {t("editor.cancel")}
              </Button>
              <Button type="submit" loading={busy === "save"} title={uploading ? t("editor.waitForAttachment") : undefined}>
                {t("editor.save")}
              </Button>
            </Group>
          </Group>
        )}
      </Stack>
    </form>
  );
}
