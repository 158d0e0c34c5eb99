import { Button, Group, Modal, Select, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DriveNode, moveTargets } from "./drive-tree";
import { ns } from "./i18n";

/**
 * 'Move to…' (spec 001 §4), the keyboard's and screen reader's way to move an item: a chooser of
 * the drives and folders it may go into (by their paths), the same rules and server call as a
 * drop. It stands in for dnd-kit's KeyboardSensor: the tree's rows are Mantine Tree items whose
 * focused element handles (and stops) the arrow keys itself, so arrows cannot also aim a drag.
 */
export function MoveDialog({
  node,
  children,
  byId,
  busy,
  onMove,
  onClose,
}: {
  node: DriveNode;
  children: Map<number, DriveNode[]>;
  byId: Map<number, DriveNode>;
  busy: boolean;
  onMove: (target: DriveNode) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(ns);
  const targets = moveTargets(node, children, byId, t("invalid"));
  const [chosen, setChosen] = useState<string | null>(null);
  const target = targets.find((x) => String(x.node.id) === chosen)?.node;
  return (
    <Modal opened onClose={onClose} title={t("move.title", { name: node.name ?? t("invalid") })} centered>
      <Stack>
        {targets.length ? (
          <Select
            label={t("move.target")}
            placeholder={t("move.targetPlaceholder")}
            data={targets.map((x) => ({ value: String(x.node.id), label: x.path }))}
            value={chosen}
            onChange={setChosen}
            searchable
            data-autofocus
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t("move.none")}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("form.cancel")}
          </Button>
          <Button onClick={() => target && onMove(target)} disabled={!target} loading={busy}>
            {t("move.confirm")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
