import { Button, Group, Loader, Text } from "@mantine/core";
import type { MotePayload } from "@sealwork/crypto";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { isDistributionError, uploadFile } from "../../conversations";
import { GroupKeyRefusal } from "../keys/key-refusal";
import { PagePlaceholder } from "../pages/page-placeholder";
import type { PageTypeProps } from "../pages/type-slot";
import { type OpenedRecord, cardSpace } from "../records/records";
import { usePageKeeper, usePageRecords, usePageSealing, useRecordChanges } from "../records/use-records";
import type { CoreField } from "./card-draft";
import { type CardParts, CardEditor } from "./card-editor";
import { ns } from "./i18n";

/** What a card page type draws its cards with: the opened cards, the keys, and Edit for one of them. */
export interface CardPageView {
  cards: OpenedRecord[];
  holder: UnlockedKeys;
  edit: (record: OpenedRecord) => void;
}

type Editing = { mode: "create" } | { mode: "edit"; record: OpenedRecord };

/**
 * The frame every card page type shares (pinboard, blog, gallery): the page's cards opened here
 * (loading, the spec's error), the type's empty state, Load more, and the card editor for the
 * page's add button and Edit with the type's required fields and parts (spec 002 §5). The type
 * draws the cards (`children`); a read-only page offers no editing.
 */
export function CardPage(props: PageTypeProps & { required: readonly CoreField[]; parts: CardParts; children: (view: CardPageView) => ReactNode }) {
  const holder = useUnlockedKeys();
  const { t } = useTranslation("conversations");
  if (!holder) return <Text>{t("errors.keysMissing")}</Text>;
  return <Cards key={props.page.id} {...props} holder={holder} />;
}

function Cards({ groupId, page, creating, onCreatingDone, holder, required, parts, children }: Parameters<typeof CardPage>[0] & { holder: UnlockedKeys }) {
  const { t } = useTranslation(ns);
  const records = usePageRecords(groupId, page.id, holder);
  usePageKeeper(groupId, page, holder);
  const encryptedFor = usePageSealing(groupId, page.id);
  const changes = useRecordChanges(groupId, holder);
  const [editing, setEditing] = useState<Editing | null>(null);
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
        <Text>{t("page.loading")}</Text>
      </Group>
    );
  }
  // The group's key refused (one's own key moved: it opens again by itself once renewed).
  if (isDistributionError(records.error)) return <GroupKeyRefusal groupId={groupId} error={records.error} onArrived={() => void records.refetch()} />;
  if (records.isError) return <Text c="red">{errorText(records.error, t("page.loadFailed"))}</Text>;

  return (
    <>
      {cards.length === 0 ? <PagePlaceholder page={page} /> : children({ cards, holder, edit: (record) => setEditing({ mode: "edit", record }) })}
      {records.hasNextPage ? (
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => void records.fetchNextPage()} loading={records.isFetchingNextPage}>
            {t("page.more")}
          </Button>
        </Group>
      ) : null}
      {shown ? (
        <CardEditor
          mode={shown.mode}
          card={shown.mode === "edit" ? (shown.record.payload ?? undefined) : undefined}
          encryptedFor={encryptedFor}
          readOnly={page.read_only}
          required={required}
          parts={parts}
          upload={(file, options) => uploadFile(cardSpace(page.id), file, options)}
          onSave={save}
          onDelete={shown.mode === "edit" ? remove : undefined}
          onClose={close}
        />
      ) : null}
    </>
  );
}
