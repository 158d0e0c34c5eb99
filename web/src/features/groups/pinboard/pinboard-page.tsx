import { Button, Group, Loader, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import type { MotePayload } from "@sealwork/crypto";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { uploadFile } from "../../conversations";
import { CardEditor } from "../cards";
import { PagePlaceholder } from "../pages/page-placeholder";
import type { PageTypeProps } from "../pages/type-slot";
import { type OpenedRecord, cardSpace } from "../records/records";
import { usePageRecords, useRecordChanges } from "../records/use-records";
import { ns } from "./i18n";
import { PinThumb, isMedia } from "./pin-media";
import { PinViewer } from "./pin-viewer";

/** Spec 002 §9: a pin shows the first 100 characters of its content. */
export const PIN_PREVIEW_CHARACTERS = 100;
/** Spec 002 §5: a pinboard's card needs a title and content. */
const REQUIRED = ["title", "content"] as const;

/**
 * The pinboard page (spec 002 §2 Pinboard): the page's cards with thumbnail, title, the first
 * 100 characters of their content, View and Edit; View opens the pin's popup, Edit and the page's
 * add button the card editor. Everything shown was decrypted here; a read-only page offers no
 * editing. The empty state is the page type's.
 */
export function PinboardPage(props: PageTypeProps) {
  const holder = useUnlockedKeys();
  const { t } = useTranslation("conversations");
  if (!holder) return <Text>{t("errors.keysMissing")}</Text>;
  return <Pinboard key={props.page.id} {...props} holder={holder} />;
}

type Editing = { mode: "create" } | { mode: "edit"; record: OpenedRecord };

function Pinboard({ groupId, page, creating, onCreatingDone, holder }: PageTypeProps & { holder: UnlockedKeys }) {
  const { t } = useTranslation(ns);
  const records = usePageRecords(groupId, page.id, holder);
  const changes = useRecordChanges(groupId, holder);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const cards = useMemo(() => records.data?.pages.flatMap((p) => p.records) ?? [], [records.data]);
  const shown = editing ?? (creating ? { mode: "create" as const } : null);
  const close = () => {
    setEditing(null);
    onCreatingDone();
  };

  const save = async (payload: MotePayload) => {
    if (shown?.mode === "edit") await changes.edit.mutateAsync({ record: shown.record, payload });
    else await changes.create.mutateAsync({ pageId: page.id, payload });
    close();
  };
  const remove = async () => {
    if (shown?.mode !== "edit") return;
    await changes.remove.mutateAsync(shown.record.id);
    close();
  };

  if (records.isPending) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text>{t("loading")}</Text>
      </Group>
    );
  }
  if (records.isError) return <Text c="red">{errorText(records.error, t("loadFailed"))}</Text>;

  return (
    <>
      {cards.length === 0 ? (
        <PagePlaceholder page={page} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} role="list" aria-label={t("board")}>
          {cards.map((record) => (
            <Pin key={record.id} record={record} pageId={page.id} readOnly={page.read_only} onView={() => setViewing(record.id)} onEdit={() => setEditing({ mode: "edit", record })} />
          ))}
        </SimpleGrid>
      )}
      {records.hasNextPage ? (
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => void records.fetchNextPage()} loading={records.isFetchingNextPage}>
            {t("more")}
          </Button>
        </Group>
      ) : null}
      {shown ? (
        <CardEditor
          mode={shown.mode}
          card={shown.mode === "edit" ? (shown.record.payload ?? undefined) : undefined}
          readOnly={page.read_only}
          required={REQUIRED}
          parts={{ media: true, html: true }}
          upload={(file, options) => uploadFile(cardSpace(page.id), file, options)}
          onSave={save}
          onDelete={shown.mode === "edit" ? remove : undefined}
          onClose={close}
        />
      ) : null}
      {viewing !== null ? <PinViewer groupId={groupId} pageId={page.id} id={viewing} holder={holder} onClose={() => setViewing(null)} /> : null}
    </>
  );
}

function Pin({ record, pageId, readOnly, onView, onEdit }: { record: OpenedRecord; pageId: number; readOnly: boolean; onView: () => void; onEdit: () => void }) {
  const { t } = useTranslation(ns);
  const payload = record.payload;
  const title = payload ? payload.title || t("untitled") : t("invalid");
  const preview = payload?.content ? [...payload.content].slice(0, PIN_PREVIEW_CHARACTERS).join("") : "";
  return (
    <Paper withBorder p="sm" radius="md" role="listitem" data-pin={record.id}>
      <Stack gap="xs">
        {payload?.media && isMedia(payload.media) ? <PinThumb pageId={pageId} media={payload.media} title={title} /> : null}
        <Text fw={600} c={payload ? undefined : "red"} style={{ overflowWrap: "anywhere" }}>
          {title}
        </Text>
        {preview ? (
          <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }} data-pin-preview>
            {preview}
          </Text>
        ) : null}
        <Group gap="xs">
          <Button size="compact-sm" variant="light" onClick={onView} aria-label={t("viewCard", { title })}>
            {t("view")}
          </Button>
          {record.editable && !readOnly && payload ? (
            <Button size="compact-sm" variant="subtle" onClick={onEdit} aria-label={t("editCard", { title })}>
              {t("edit")}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
