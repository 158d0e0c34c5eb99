import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { isPlainText } from "@sealwork/contracts";
import { DRIVE_NAME_MAX, DRIVE_TAGS_MAX } from "@sealwork/crypto";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { parseTags } from "../../../lib/tags";
import type { DriveNode } from "./drive-tree";
import { ns } from "./i18n";

/**
 * The name and tags of a drive or folder, to create one or rename it (spec 001 §5: a folder or
 * drive needs a non-empty name; tags comma separated). Enter saves, Escape cancels. A new item is
 * readable by the group; a restricted one (a read list) is sealed for its readers only.
 */
export function ItemForm({
  title,
  submit,
  initial,
  restricted = false,
  busy,
  onSave,
  onClose,
}: {
  title: string;
  submit: string;
  initial?: { name: string; tags: string[] };
  restricted?: boolean;
  busy: boolean;
  onSave: (name: string, tags: string[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(ns);
  const [name, setName] = useState(initial?.name ?? "");
  const [tags, setTags] = useState(initial?.tags.join(", ") ?? "");
  const [error, setError] = useState<string | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError(t("form.nameMissing"));
    const parsed = parseTags(tags);
    if (![trimmed, ...parsed].every(isPlainText)) return setError(t("form.nameUnsafe"));
    onSave(trimmed, parsed.slice(0, DRIVE_TAGS_MAX));
  };

  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form onSubmit={save} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {restricted ? t("form.encryptedForReaders") : t("form.encrypted")}
          </Text>
          <TextInput label={t("form.name")} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={DRIVE_NAME_MAX} error={error} data-autofocus required />
          <TextInput label={t("form.tags")} description={t("form.tagsHint")} value={tags} onChange={(e) => setTags(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("form.cancel")}
            </Button>
            <Button type="submit" loading={busy}>
              {submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** 'Rename {{name}}': an item's name and tags as they are, to change. */
export function RenameForm({ node, busy, onSave, onClose }: { node: DriveNode; busy: boolean; onSave: (name: string, tags: string[]) => void; onClose: () => void }) {
  const { t } = useTranslation(ns);
  return (
    <ItemForm
      title={t("form.rename", { name: node.name ?? t("invalid") })}
      submit={t("form.save")}
      initial={{ name: node.name ?? "", tags: node.tags }}
      restricted={node.restricted}
      busy={busy}
      onClose={onClose}
      onSave={onSave}
    />
  );
}
