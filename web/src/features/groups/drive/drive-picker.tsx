import { Group, Loader, Modal, Select, Stack, Text, Tree, useTree } from "@mantine/core";
import type { FileRef } from "@sealwork/crypto";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DrivePicker as DrivePickerProps } from "../../../lib/drive-picker";
import { formatDriveSize } from "../../../lib/format";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { useUserGroups } from "../list-user-groups";
import { ItemIcon } from "./drive-row";
import { childrenByParent, compareNodes, treeData } from "./drive-tree";
import { ns } from "./i18n";
import { useDrive } from "./use-drive";

/**
 * 'Select from drive...' (spec 000 §2, spec 001 §4 select mode): a group of the user's, then a
 * file of its drive; drives and folders open and close, only a file is taken. The conversation
 * copies the file as it is (POST …/attachments/from-drive) and attaches it.
 */
export const DrivePicker: DrivePickerProps = ({ onPick, onClose }) => {
  const { t } = useTranslation(ns);
  const holder = useUnlockedKeys();
  const groups = useUserGroups();
  const [group, setGroup] = useState<number | null>(null);
  return (
    <Modal opened onClose={onClose} title={t("picker.title")} centered size="lg">
      <Stack>
        <Select
          label={t("picker.group")}
          placeholder={t("picker.groupPlaceholder")}
          data={(groups.data?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
          value={group === null ? null : String(group)}
          onChange={(value) => setGroup(value === null ? null : Number(value))}
          data-autofocus
        />
        {group !== null && holder ? <PickFrom key={group} groupId={group} holder={holder} onPick={(file) => onPick({ group, file })} /> : null}
      </Stack>
    </Modal>
  );
};

function PickFrom({ groupId, holder, onPick }: { groupId: number; holder: UnlockedKeys; onPick: (file: FileRef) => void }) {
  const { t, i18n } = useTranslation(ns);
  const { source, opened, failure } = useDrive(groupId, holder);
  const tree = useTree();
  const nodes = useMemo(() => opened?.nodes ?? [], [opened]);
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const data = useMemo(
    () => treeData(childrenByParent(nodes, compareNodes("titleAsc", new Intl.Collator(i18n.language, { sensitivity: "base", numeric: true }))), 0, null, t("invalid")),
    [nodes, i18n.language, t],
  );
  if (source.error ?? failure) return <Text c="red">{t("errors.load")}</Text>;
  if (!opened) return <Loader size="sm" aria-label={t("loading")} />;
  if (nodes.length === 0) return <Text c="dimmed">{t("emptyReadOnly")}</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t("picker.hint")}
      </Text>
      <Tree
        aria-label={t("tree")}
        data={data}
        tree={tree}
        levelOffset="md"
        renderNode={({ node, expanded, hasChildren, elementProps }) => {
          const item = byId.get(Number(node.value))!;
          return (
            <Group
              gap={6}
              wrap="nowrap"
              {...elementProps}
              onClick={(event) => {
                elementProps.onClick(event);
                // A drive or folder opens and closes; only a file is taken.
                if (item.file) onPick(item.file);
              }}
              data-pick-item={item.name ?? ""}
              style={{ ...elementProps.style, cursor: "pointer", padding: "2px 4px" }}
            >
              <Text span c="dimmed" w={12} aria-hidden>
                {hasChildren ? (expanded ? "▾" : "▸") : ""}
              </Text>
              <ItemIcon kind={item.kind} />
              <Text span c={item.name === null ? "red" : undefined} style={{ overflowWrap: "anywhere" }}>
                {node.label}
              </Text>
              {item.file ? (
                <Text span size="xs" c="dimmed">
                  {formatDriveSize(item.file.size)}
                </Text>
              ) : null}
            </Group>
          );
        }}
      />
    </Stack>
  );
}
