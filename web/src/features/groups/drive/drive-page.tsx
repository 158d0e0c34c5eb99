import { DndContext, type DragEndEvent, PointerSensor, useSensor, useSensors } from "@dnd-kit/core";
import { ActionIcon, Alert, Button, Group, Loader, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Tooltip, Tree, useTree } from "@mantine/core";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { Icon } from "../../../lib/ui/icons";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { isDistributionError } from "../../conversations";
import { GroupKeyWaitingError } from "../keys/group-ring";
import { GroupKeyRefusal } from "../keys/key-refusal";
import { ns as keysNs } from "../keys/i18n";
import { PlusIcon } from "../menu/page-icons";
import { type DriveNode, SORT_MODES, type SortMode, childrenByParent, compareNodes, moveVerdict, searchDrive, treeData } from "./drive-tree";
import { ns } from "./i18n";
import { DriveRow } from "./drive-row";
import { Details } from "./drive-details";
import { UploadFile } from "./upload-file";
import { ItemForm, RenameForm } from "./item-form";
import { ItemPermissionEditor } from "./item-permission-editor";
import { MoveDialog } from "./move-dialog";
import { ConfirmDelete } from "./confirm-delete";
import { CompactColumn } from "./drive-compact";
import { useDrive } from "./use-drive";

/**
 * The drive page (spec 001 §2, §4): the group's drives and their folders as a tree, sorted four
 * ways, searchable over the decrypted names and tags (open, done with the matches where they are,
 * reset), with a details panel for the selected item (open, rename, delete, jump to location after
 * a search) and the creation of drives and folders; or, in the compact view, one column from a
 * root (a folder's name or "@@prefix", typed here; a card deck's drive column will keep its own).
 * The view and the root stay while the app runs, for coming back to the page.
 * Everything shown was decrypted here.
 */
export function DrivePage({ groupId, readOnly }: { groupId: number; readOnly: boolean }) {
  const holder = useUnlockedKeys();
  const { t } = useTranslation("conversations");
  if (!holder) return <Text>{t("errors.keysMissing")}</Text>;
  return <Drive key={groupId} groupId={groupId} holder={holder} readOnly={readOnly} />;
}

interface DriveView {
  view: "tree" | "compact";
  root: string;
}
/**
 * Each user's view of each group's drive while the app runs, for coming back to the page (in memory
 * only: a root is a name, and names stay off the disk; a reload, and so a logout, starts from the tree).
 */
const keptViews = new Map<string, DriveView>();

type Search = { state: "none" } | { state: "open"; text: string } | { state: "done"; text: string };
type Dialog =
  | { kind: "createDrive" }
  | { kind: "createFolder"; parent: DriveNode }
  | { kind: "rename"; node: DriveNode }
  | { kind: "permissions"; node: DriveNode }
  | { kind: "move"; node: DriveNode }
  | { kind: "delete"; node: DriveNode };

function Drive({ groupId, holder, readOnly }: { groupId: number; holder: UnlockedKeys; readOnly: boolean }) {
  const { t, i18n } = useTranslation([ns, keysNs, "errors"]);
  const drive = useDrive(groupId, holder);
  const { source, opened, failure, refresh, create, rename, move, remove } = drive;
  const [sort, setSort] = useState<SortMode>("titleAsc");
  const [search, setSearch] = useState<Search>({ state: "none" });
  const [selected, setSelected] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  // Tree or compact, and the compact column's root as applied (kept for coming back); the root as being typed.
  const keptAs = `${holder.uid}:${groupId}`;
  const [{ view, root }, setShown] = useState<DriveView>(() => keptViews.get(keptAs) ?? { view: "tree", root: "" });
  const setKept = (shown: DriveView) => {
    keptViews.set(keptAs, shown);
    setShown(shown);
  };
  const [draft, setDraft] = useState(root);
  const tree = useTree({ expandedState: expanded, onExpandedStateChange: setExpanded });

  const nodes = useMemo(() => opened?.nodes ?? [], [opened]);
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const children = useMemo(() => childrenByParent(nodes, compareNodes(sort, new Intl.Collator(i18n.language, { sensitivity: "base", numeric: true }))), [nodes, sort, i18n.language]);
  const found = useMemo(() => (search.state === "done" ? searchDrive(nodes, search.text) : null), [nodes, search]);
  const data = useMemo(() => treeData(children, 0, found?.shown ?? null, t("invalid")), [children, found, t]);
  const canCreate = !readOnly && opened?.source.answer.can_create === true;
  const writable = opened?.source.ring.writable !== false;
  const chosen = selected === null ? undefined : byId.get(selected);
  // Where new folders and files go: the drive or folder selected.
  const place = chosen?.kind === "file" ? undefined : chosen;

  const fail = (fallback: string) => (cause: unknown) => setError(errorText(cause, fallback));
  const uploaded = (itemId: number) => {
    if (place) setExpanded((open) => ({ ...open, [String(place.id)]: true }));
    setSelected(itemId);
    void refresh();
  };
  // A drag starts after 6 px, so a click still selects and opens.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));

  /**
   * An item moved into a drive or folder, dropped there or chosen under 'Move to…' (spec 001 §4,
   * moveVerdict): into its own parent nothing happens; into itself or below itself, or by someone
   * who may not move it, the refusal's text; else the move, shown at once and taken back if the
   * server refuses.
   */
  const moveInto = (node: DriveNode, target: DriveNode, done?: () => void) => {
    const verdict = moveVerdict(node, target, byId);
    if (verdict === "ignore") return done?.();
    if (verdict === "forbidden") return setError(t("errors:drive_move_forbidden"));
    setExpanded((open) => ({ ...open, [String(target.id)]: true }));
    move.mutate({ node, parent: target.id }, { onSuccess: done, onError: fail(t("errors.move")) });
  };
  const dropped = ({ active, over }: DragEndEvent) => {
    const node = byId.get(Number(active.id));
    const target = over ? byId.get(Number(over.id)) : undefined;
    if (node && target) moveInto(node, target);
  };
  const close = () => setDialog(null);

  const cause = source.error ?? failure;
  if (cause) {
    if (cause instanceof GroupKeyWaitingError) return <Text c="dimmed" data-group-key="waiting">{cause.message}</Text>;
    if (isDistributionError(cause)) return <GroupKeyRefusal groupId={groupId} error={cause} onArrived={() => void refresh()} />;
    return <Text c="red">{errorText(cause, t("errors.load"))}</Text>;
  }
  if (!opened) {
    return (
      <Group gap="xs" data-drive="loading">
        <Loader size="sm" />
        <Text size="sm">{t("loading")}</Text>
      </Group>
    );
  }

  const jump = (node: DriveNode) => {
    setSearch({ state: "none" });
    const open = { ...expanded };
    for (let at = byId.get(node.parent); at; at = byId.get(at.parent)) open[String(at.id)] = true;
    setExpanded(open);
    setSelected(node.id);
  };

  const applyRoot = (event: FormEvent) => {
    event.preventDefault();
    setKept({ view, root: draft.trim() });
    setDraft(draft.trim());
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    if (search.state === "none") return;
    setSearch({ state: "done", text: search.text });
    // The results are shown opened up to every match.
    const { shown } = searchDrive(nodes, search.text);
    setExpanded(Object.fromEntries([...shown].map((id) => [String(id), true])));
  };

  return (
    <Stack gap="sm" data-drive={opened.done ? "ready" : "opening"}>
      {!opened.done ? (
        <Group gap="xs" aria-live="polite">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t("decrypting", { done: opened.nodes.length, total: opened.source.answer.items.length })}
          </Text>
        </Group>
      ) : null}
      {!writable ? <Alert color="yellow">{t(`${keysNs}:distribution.rekeyPending`)}</Alert> : null}
      <Group justify="space-between" role="toolbar" aria-label={t("toolbar.label")} wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            aria-label={t("view.label")}
            data={[
              { value: "tree", label: t("view.tree") },
              { value: "compact", label: t("view.compact") },
            ]}
            value={view}
            onChange={(value) => setKept({ view: value === "compact" ? "compact" : "tree", root })}
          />
          <Tooltip label={t("toolbar.refresh")}>
            <ActionIcon variant="default" size="lg" aria-label={t("toolbar.refresh")} onClick={() => void refresh()} loading={source.isFetching}>
              <Icon size={18}>
                <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
              </Icon>
            </ActionIcon>
          </Tooltip>
          {view === "compact" ? (
            <form onSubmit={applyRoot}>
              <Group gap={4} wrap="nowrap">
                <TextInput
                  aria-label={t("compact.root")}
                  placeholder={t("compact.rootPlaceholder")}
                  value={draft}
                  onChange={(e) => setDraft(e.currentTarget.value)}
                  onKeyDown={(e) => e.key === "Escape" && setDraft(root)}
                  w={260}
                  data-column-root
                />
                <Button variant="default" type="submit">
                  {t("compact.rootApply")}
                </Button>
              </Group>
            </form>
          ) : (
            <>
              <Select
                aria-label={t("toolbar.sort")}
                data={SORT_MODES.map((mode) => ({ value: mode, label: t(`sort.${mode}`) }))}
                value={sort}
                onChange={(value) => value && setSort(value as SortMode)}
                allowDeselect={false}
                w={170}
              />
              {search.state === "none" ? (
                <Button variant="default" onClick={() => setSearch({ state: "open", text: "" })}>
                  {t("toolbar.search")}
                </Button>
              ) : (
                <form onSubmit={submitSearch} role="search">
                  <Group gap={4} wrap="nowrap">
                    <TextInput
                      aria-label={t("toolbar.search")}
                      placeholder={t("toolbar.searchPlaceholder")}
                      value={search.text}
                      onChange={(e) => setSearch({ state: "open", text: e.currentTarget.value })}
                      onKeyDown={(e) => e.key === "Escape" && setSearch({ state: "none" })}
                      data-autofocus
                      autoFocus
                      w={260}
                    />
                    <Button variant="subtle" onClick={() => setSearch({ state: "none" })}>
                      {t("toolbar.resetSearch")}
                    </Button>
                  </Group>
                </form>
              )}
            </>
          )}
        </Group>
        {canCreate && view === "tree" ? (
          <Group gap="xs">
            <Button variant="light" leftSection={<PlusIcon size={16} />} onClick={() => setDialog({ kind: "createDrive" })} disabled={!writable}>
              {t("toolbar.createDrive")}
            </Button>
            <Tooltip label={t("toolbar.folderNeedsPlace")} disabled={place !== undefined}>
              <Button variant="light" leftSection={<PlusIcon size={16} />} onClick={() => place && setDialog({ kind: "createFolder", parent: place })} disabled={!place || !writable}>
                {t("toolbar.createFolder")}
              </Button>
            </Tooltip>
            <UploadFile ring={opened.source.ring} target={place} disabled={!writable} onDone={uploaded} onError={setError} />
          </Group>
        ) : null}
      </Group>

      {view === "compact" ? (
        <Paper withBorder p="sm" radius="md" maw={520}>
          <CompactColumn key={root} groupId={groupId} holder={holder} drive={{ ...drive, opened }} root={root} selectMode={false} readOnly={readOnly} />
        </Paper>
      ) : (
        <>
          {found ? (
            <Text size="sm" c="dimmed" data-search-results={found.matches.size}>
              {found.matches.size === 0 ? t("noResults") : t("results", { count: found.matches.size })}
            </Text>
          ) : null}

          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Paper withBorder p="sm" radius="md">
              {nodes.length === 0 ? (
                canCreate ? (
                  <Button variant="subtle" onClick={() => setDialog({ kind: "createDrive" })} disabled={!writable} data-drive-empty>
                    {t("empty")}
                  </Button>
                ) : (
                  <Text size="sm" c="dimmed" data-drive-empty>
                    {t("emptyReadOnly")}
                  </Text>
                )
              ) : (
                <DndContext sensors={sensors} onDragEnd={dropped}>
                  <Tree
                    aria-label={t("tree")}
                    data={data}
                    tree={tree}
                    levelOffset="md"
                    expandOnClick
                    renderNode={(payload) => {
                      const item = byId.get(Number(payload.node.value))!;
                      return (
                        <DriveRow
                          groupId={groupId}
                          payload={payload}
                          item={item}
                          label={item.name ?? t("invalid")}
                          selected={selected === item.id}
                          hit={found?.matches.has(item.id) === true}
                          draggable={canCreate && writable && item.editable}
                          padlock={t("details.hasGrants")}
                          onSelect={() => setSelected(item.id)}
                        />
                      );
                    }}
                  />
                </DndContext>
              )}
            </Paper>
            <Details
              groupId={groupId}
              ring={opened.source.ring}
              onUploaded={uploaded}
              onError={setError}
              node={chosen}
              byId={byId}
              childrenOf={children}
              attrib={opened.source.answer.attrib}
              searched={found !== null}
              canWrite={canCreate && writable}
              onOpen={(node) => setExpanded((open) => ({ ...open, [String(node.id)]: true }))}
              onRename={(node) => setDialog({ kind: "rename", node })}
              onPermissions={(node) => setDialog({ kind: "permissions", node })}
              onMove={(node) => setDialog({ kind: "move", node })}
              onDelete={(node) => setDialog({ kind: "delete", node })}
              onJump={jump}
            />
          </SimpleGrid>
        </>
      )}

      {dialog?.kind === "createDrive" || dialog?.kind === "createFolder" ? (
        <ItemForm
          title={dialog.kind === "createDrive" ? t("form.createDrive") : t("form.createFolder", { place: dialog.parent.name ?? t("invalid") })}
          submit={t("form.create")}
          busy={create.isPending}
          onClose={close}
          onSave={(name, tags) =>
            create.mutate(
              { kind: dialog.kind === "createDrive" ? "drive" : "folder", parent: dialog.kind === "createFolder" ? dialog.parent.id : 0, name, tags },
              {
                onSuccess: ({ item }) => {
                  close();
                  if (dialog.kind === "createFolder") setExpanded((open) => ({ ...open, [String(dialog.parent.id)]: true }));
                  setSelected(item.id);
                },
                onError: fail(dialog.kind === "createDrive" ? t("errors.save") : t("errors.folder")),
              },
            )
          }
        />
      ) : null}
      {dialog?.kind === "rename" ? (
        <RenameForm node={dialog.node} busy={rename.isPending} onClose={close} onSave={(name, tags) => rename.mutate({ node: dialog.node, name, tags }, { onSuccess: close, onError: fail(t("errors.edit")) })} />
      ) : null}
      {dialog?.kind === "move" ? (
        <MoveDialog
          node={dialog.node}
          children={children}
          byId={byId}
          busy={move.isPending}
          onClose={close}
          onMove={(target) => {
            const node = dialog.node;
            close();
            moveInto(node, target, () => setSelected(node.id));
          }}
        />
      ) : null}
      {dialog?.kind === "permissions" ? <ItemPermissionEditor groupId={groupId} node={dialog.node} source={source.data} holder={holder} onClose={close} /> : null}
      {dialog?.kind === "delete" ? (
        <ConfirmDelete
          node={dialog.node}
          busy={remove.isPending}
          onClose={close}
          onConfirm={() =>
            remove.mutate(dialog.node, {
              onSuccess: () => setSelected(null),
              onError: fail(t("errors.delete")),
              onSettled: close,
            })
          }
        />
      ) : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Stack>
  );
}
