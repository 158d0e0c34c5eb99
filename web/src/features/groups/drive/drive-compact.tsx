import { ActionIcon, Alert, Button, Group, Loader, Menu, Stack, Text, UnstyledButton } from "@mantine/core";
import type { FileRef } from "@sealwork/crypto";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { formatDriveSize } from "../../../lib/format";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { ConfirmDelete } from "./confirm-delete";
import { useFileOpener } from "./drive-details";
import { ItemIcon } from "./drive-row";
import { DriveThumb, hasThumbnail } from "./drive-thumb";
import { type DriveNode, childrenByParent, compareNodes, resolveColumnRoot } from "./drive-tree";
import { ns } from "./i18n";
import { ItemForm, RenameForm } from "./item-form";
import { ItemPermissionEditor } from "./item-permission-editor";
import { UploadFile } from "./upload-file";
import { type LoadedDrive, useDrive } from "./use-drive";

type Dialog = { kind: "rename" | "permissions" | "delete"; node: DriveNode } | { kind: "createRoot"; name: string };

/**
 * The drive in compact (mini) mode (spec 001 §2, §4): one column from a root (every drive, a
 * folder by its name, or "@@prefix": the items whose name starts with it), opened folder by
 * folder; an upload button into the folder shown; a context popover per item (open, rename,
 * permissions, delete as one may); in select mode a Select button per item answering a file to
 * `onSelect` (a folder is refused). A root folder that does not exist yet is made by 'Click to
 * start storing files...' (a drive of that name: it needs no place).
 */
export function DriveCompact({
  groupId,
  holder,
  root = null,
  selectMode = false,
  onSelect,
}: {
  groupId: number;
  holder: UnlockedKeys;
  root?: string | null;
  selectMode?: boolean;
  onSelect?: (file: FileRef) => void;
}) {
  const { t } = useTranslation(ns);
  const drive = useDrive(groupId, holder);
  const { source, opened, failure } = drive;
  if (source.error ?? failure) return <Text c="red">{errorText(source.error ?? failure, t("errors.load"))}</Text>;
  if (!opened) return <Loader size="sm" aria-label={t("loading")} />;
  return <CompactColumn groupId={groupId} holder={holder} drive={{ ...drive, opened }} root={root} selectMode={selectMode} onSelect={onSelect} readOnly={false} />;
}

/**
 * The compact column over a drive already loaded (`useDrive`'s state, its items opening): the
 * drive page's compact view and `DriveCompact` both show it. `readOnly` (a read-only page) takes
 * away upload, rename, delete and the root's creation, as the server would refuse them.
 */
export function CompactColumn({
  groupId,
  holder,
  drive,
  root,
  selectMode,
  onSelect,
  readOnly,
}: {
  groupId: number;
  holder: UnlockedKeys;
  drive: LoadedDrive;
  root: string | null;
  selectMode: boolean;
  onSelect?: (file: FileRef) => void;
  readOnly: boolean;
}) {
  const { t, i18n } = useTranslation(ns);
  const { source, opened, refresh, create, rename, remove } = drive;
  const [at, setAt] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const { progress, open: openFile } = useFileOpener(groupId, setError);

  const nodes = opened.nodes;
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const compare = useMemo(() => compareNodes("titleAsc", new Intl.Collator(i18n.language, { sensitivity: "base", numeric: true })), [i18n.language]);
  const children = useMemo(() => childrenByParent(nodes, compare), [nodes, compare]);
  const column = useMemo(() => resolveColumnRoot(root, nodes), [root, nodes]);

  const canWrite = !readOnly && opened.source.answer.can_create === true && opened.source.ring.writable !== false;
  const home = column.kind === "folder" ? column.folder.id : column.kind === "all" ? 0 : null;
  // The folder shown: one opened in the column, else the root's own.
  const shown = at !== null ? byId.get(at) : column.kind === "folder" ? column.folder : undefined;
  const list = at !== null ? (children.get(at) ?? []) : column.kind === "prefix" ? [...column.items].sort(compare) : home !== null ? (children.get(home) ?? []) : [];
  const close = () => setDialog(null);
  const fail = (fallback: string) => (cause: unknown) => setError(errorText(cause, fallback));

  const up = () => {
    const parent = at === null ? undefined : byId.get(at)?.parent;
    // Back to the root's own list from its folder's children or from one of a prefix's items.
    const backHome = parent === undefined || parent === home || (column.kind === "prefix" && column.items.some((n) => n.id === at));
    setAt(backHome ? null : parent);
  };
  const openItem = (node: DriveNode) => {
    setRefused(null);
    if (node.kind !== "file") return setAt(node.id);
    if (node.file) void openFile(node.file);
  };
  const select = (node: DriveNode) => {
    if (node.kind !== "file" || !node.file) return setRefused(t("compact.folderRefused", { name: node.name ?? t("invalid") }));
    setRefused(null);
    onSelect?.(node.file);
  };

  // A root not found among the items open so far may be among those still opening: no offer to make it yet.
  if (column.kind === "missing" && !opened.done) return <Loader size="sm" aria-label={t("loading")} />;
  if (column.kind === "missing") {
    return (
      <Stack gap="xs" data-drive-compact="missing">
        {canWrite ? (
          <Button variant="subtle" onClick={() => setDialog({ kind: "createRoot", name: column.name })} loading={create.isPending}>
            {t("empty")}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {t("errors.column")}
          </Text>
        )}
        {dialog?.kind === "createRoot" ? (
          <ItemForm
            title={t("form.createDrive")}
            submit={t("form.create")}
            initial={{ name: dialog.name, tags: [] }}
            busy={create.isPending}
            onClose={close}
            onSave={(name, tags) => create.mutate({ kind: "drive", parent: 0, name, tags }, { onSuccess: close, onError: fail(t("errors.folder")) })}
          />
        ) : null}
        <ErrorDialog message={error} onClose={() => setError(null)} />
      </Stack>
    );
  }

  return (
    <Stack gap="xs" data-drive-compact={opened.done ? "ready" : "opening"}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          {at !== null ? (
            <Button size="compact-sm" variant="subtle" onClick={up}>
              {t("compact.up")}
            </Button>
          ) : null}
          <Text size="sm" fw={600} truncate data-compact-place>
            {shown?.name ?? (column.kind === "prefix" ? t("compact.prefix", { prefix: column.prefix }) : t("compact.all"))}
          </Text>
        </Group>
        {canWrite && shown ? <UploadFile ring={opened.source.ring} target={shown} disabled={false} onDone={() => void refresh()} onError={setError} /> : null}
      </Group>
      {selectMode ? (
        <Text size="xs" c="dimmed">
          {t("compact.selectHint")}
        </Text>
      ) : null}
      {refused ? (
        <Alert color="yellow" role="alert" data-select-refused>
          {refused}
        </Alert>
      ) : null}
      {list.length === 0 ? (
        <Text size="sm" c="dimmed" data-drive-empty>
          {t("compact.empty")}
        </Text>
      ) : (
        <Stack gap={2} component="ul" style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label={t("tree")}>
          {list.map((node) => {
            const name = node.name ?? t("invalid");
            return (
              <Group key={node.id} component="li" gap={6} wrap="nowrap" justify="space-between" data-compact-item={node.name ?? ""} data-kind={node.kind}>
                <UnstyledButton onClick={() => (selectMode && node.kind === "file" ? select(node) : openItem(node))} data-pick-item={node.name ?? ""} style={{ flex: 1, minWidth: 0, padding: "2px 4px" }}>
                  <Group gap={6} wrap="nowrap">
                    {hasThumbnail(node.file) ? <DriveThumb groupId={groupId} file={node.file} size={20} decorative fallback={<ItemIcon kind={node.kind} />} /> : <ItemIcon kind={node.kind} />}
                    <Text span size="sm" c={node.name === null ? "red" : undefined} style={{ overflowWrap: "anywhere" }}>
                      {name}
                    </Text>
                    {node.file ? (
                      <Text span size="xs" c="dimmed">
                        {formatDriveSize(node.file.size)}
                      </Text>
                    ) : null}
                  </Group>
                </UnstyledButton>
                {selectMode ? (
                  <Button size="compact-xs" variant="light" onClick={() => select(node)} aria-label={t("compact.selectItem", { name })}>
                    {t("compact.select")}
                  </Button>
                ) : null}
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" size="sm" aria-label={t("compact.actions", { name })}>
                      ⋯
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => openItem(node)} disabled={node.kind === "file" && (!node.file || progress !== null)}>
                      {t("details.open")}
                    </Menu.Item>
                    {canWrite && node.editable && node.name !== null ? <Menu.Item onClick={() => setDialog({ kind: "rename", node })}>{t("details.rename")}</Menu.Item> : null}
                    {node.name !== null ? <Menu.Item onClick={() => setDialog({ kind: "permissions", node })}>{t("details.permissions")}</Menu.Item> : null}
                    {canWrite && node.editable && node.kind !== "drive" ? (
                      <Menu.Item color="red" onClick={() => setDialog({ kind: "delete", node })}>
                        {t("details.delete")}
                      </Menu.Item>
                    ) : null}
                  </Menu.Dropdown>
                </Menu>
              </Group>
            );
          })}
        </Stack>
      )}
      {progress ? (
        <Text size="xs" c="dimmed" aria-live="polite">
          {t("details.downloading", { done: formatDriveSize(progress.done), total: formatDriveSize(progress.total) })}
        </Text>
      ) : null}
      {dialog?.kind === "rename" ? (
        <RenameForm node={dialog.node} busy={rename.isPending} onClose={close} onSave={(name, tags) => rename.mutate({ node: dialog.node, name, tags }, { onSuccess: close, onError: fail(t("errors.edit")) })} />
      ) : null}
      {dialog?.kind === "permissions" ? <ItemPermissionEditor groupId={groupId} node={dialog.node} source={source.data} holder={holder} onClose={close} /> : null}
      {dialog?.kind === "delete" ? (
        <ConfirmDelete node={dialog.node} busy={remove.isPending} onClose={close} onConfirm={() => remove.mutate(dialog.node, { onError: fail(t("errors.delete")), onSettled: close })} />
      ) : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Stack>
  );
}
