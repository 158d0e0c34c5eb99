import { Badge, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { type FileRef, isCryptoError } from "@sealwork/crypto";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../../lib/api";
import { downloadBlob } from "../../../lib/download";
import { formatDateTime, formatDriveSize } from "../../../lib/format";
import { isAbort } from "../../conversations";
import type { GroupRing } from "../keys/group-ring";
import { LockIcon } from "../menu/page-icons";
import { downloadItem } from "./drive-items";
import { ItemIcon } from "./drive-row";
import { type DriveNode, countBelow, driveOf } from "./drive-tree";
import { ns } from "./i18n";
import { UploadFile } from "./upload-file";
import { DriveThumb, hasThumbnail } from "./drive-thumb";

/**
 * The drive page's details panel (spec 001 §2): title, drive, author, size, modified, created and
 * tags of the selected item, and its actions: open (a folder opens in the tree, a file downloads),
 * upload into, rename, permissions, delete, and jump to location after a search; a padlock on an
 * item that has grants.
 */
export function Details({
  groupId,
  ring,
  onUploaded,
  onError,
  node,
  byId,
  childrenOf,
  attrib,
  searched,
  canWrite,
  onOpen,
  onRename,
  onPermissions,
  onMove,
  onDelete,
  onJump,
}: {
  node: DriveNode | undefined;
  byId: Map<number, DriveNode>;
  childrenOf: Map<number, DriveNode[]>;
  attrib: Record<string, { name: string }>;
  searched: boolean;
  canWrite: boolean;
  onOpen: (node: DriveNode) => void;
  groupId: number;
  ring: GroupRing | undefined;
  onUploaded: (itemId: number) => void;
  onError: (text: string) => void;
  onRename: (node: DriveNode) => void;
  onPermissions: (node: DriveNode) => void;
  /** 'Move to…': the keyboard's way to move (a drop is the mouse's). */
  onMove: (node: DriveNode) => void;
  onDelete: (node: DriveNode) => void;
  onJump: (node: DriveNode) => void;
}) {
  const { t } = useTranslation(ns);
  if (!node) {
    return (
      <Paper withBorder p="sm" radius="md" aria-label={t("details.label")} component="section">
        <Text size="sm" c="dimmed">
          {t("details.none")}
        </Text>
      </Paper>
    );
  }
  const drive = driveOf(node, byId);
  const row = (label: string, value: string) => (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={100}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Paper withBorder p="sm" radius="md" aria-label={t("details.label")} component="section" data-details={node.name ?? ""}>
      <Stack gap={6}>
        <Group gap="xs">
          <ItemIcon kind={node.kind} />
          <Text fw={600} style={{ overflowWrap: "anywhere" }}>
            {node.name ?? t("invalid")}
          </Text>
          <Badge variant="light">{t(`kind.${node.kind}`)}</Badge>
          {node.hasGrants ? <LockIcon size={16} aria-label={t("details.hasGrants")} role="img" data-padlock /> : null}
        </Group>
        {hasThumbnail(node.file) ? <DriveThumb key={node.file.id} groupId={groupId} file={node.file} size={200} /> : null}
        {row(t("details.title"), node.name ?? t("invalid"))}
        {row(t("details.drive"), drive?.name ?? t("invalid"))}
        {row(t("details.author"), attrib[String(node.authorId)]?.name ?? t("details.unknownAuthor"))}
        {row(t("details.size"), node.file ? formatDriveSize(node.file.size) : t("details.items", { count: countBelow(node.id, childrenOf) }))}
        {row(t("details.modified"), formatDateTime(node.modified * 1000))}
        {row(t("details.created"), formatDateTime(node.created * 1000))}
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Text size="sm" c="dimmed" w={100}>
            {t("details.tags")}
          </Text>
          {node.tags.length ? (
            <Group gap={4} data-tags>
              {node.tags.map((tag) => (
                <Badge key={tag} variant="outline" tt="none">
                  {tag}
                </Badge>
              ))}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t("details.noTags")}
            </Text>
          )}
        </Group>
        <Group gap="xs" mt="xs">
          {node.kind === "file" ? (
            node.file ? (
              <OpenFile groupId={groupId} file={node.file} onError={onError} />
            ) : null
          ) : (
            <Button size="xs" variant="default" onClick={() => onOpen(node)}>
              {t("details.open")}
            </Button>
          )}
          {canWrite && node.kind !== "file" && ring ? <UploadFile ring={ring} target={node} disabled={false} label={t("details.uploadInto")} onDone={onUploaded} onError={onError} /> : null}
          {canWrite && node.editable && node.name !== null ? (
            <Button size="xs" variant="default" onClick={() => onRename(node)}>
              {t("details.rename")}
            </Button>
          ) : null}
          {canWrite && node.editable && node.kind !== "drive" && node.name !== null ? (
            <Button size="xs" variant="default" onClick={() => onMove(node)} data-move>
              {t("details.move")}
            </Button>
          ) : null}
          {node.name !== null ? (
            <Button size="xs" variant="default" onClick={() => onPermissions(node)} data-permissions>
              {t("details.permissions")}
            </Button>
          ) : null}
          {canWrite && node.editable && node.kind !== "drive" ? (
            <Button size="xs" variant="light" color="red" onClick={() => onDelete(node)}>
              {t("details.delete")}
            </Button>
          ) : null}
          {searched ? (
            <Button size="xs" variant="subtle" onClick={() => onJump(node)}>
              {t("details.jump")}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Opens a file: its bytes fetched and decrypted as they stream in (progress kept), then offered
 * as a download under its name (never shown in this origin). 403: 'Error accessing this file - you
 * do not have access to it!'; bytes that do not open: 'Error decrypting this file!'.
 */
export function useFileOpener(groupId: number, onError: (text: string) => void) {
  const { t } = useTranslation(ns);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const open = async (file: FileRef) => {
    setProgress({ done: 0, total: file.size });
    try {
      downloadBlob(file.name, await downloadItem(groupId, file, { onProgress: (done, total) => setProgress({ done, total }) }));
    } catch (failure) {
      if (isAbort(failure)) return;
      onError(isApiError(failure, 403) ? t("errors.noAccess") : isCryptoError(failure) ? t("errors.decrypt") : t("errors.download"));
    } finally {
      setProgress(null);
    }
  };
  return { progress, open };
}

function OpenFile({ groupId, file, onError }: { groupId: number; file: FileRef; onError: (text: string) => void }) {
  const { t } = useTranslation(ns);
  const { progress, open } = useFileOpener(groupId, onError);
  return (
    <Button size="xs" variant="default" onClick={() => void open(file)} loading={progress !== null} data-open-file>
      {progress ? t("details.downloading", { done: formatDriveSize(progress.done), total: formatDriveSize(progress.total) }) : t("details.download")}
    </Button>
  );
}
