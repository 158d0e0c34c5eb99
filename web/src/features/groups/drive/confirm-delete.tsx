import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { DriveNode } from "./drive-tree";
import { ns } from "./i18n";

/** 'Delete {{name}}?' for a file or a folder (and everything in it), as the page and the compact view ask it. */
export function ConfirmDelete({ node, busy, onConfirm, onClose }: { node: DriveNode; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  const { t } = useTranslation(ns);
  return (
    <Modal opened onClose={onClose} title={t("confirmDelete.title", { name: node.name ?? t("invalid") })} centered>
      <Stack>
        <Text size="sm">{node.kind === "file" ? t("confirmDelete.file") : t("confirmDelete.folder")}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("confirmDelete.cancel")}
          </Button>
          <Button color="red" loading={busy} onClick={onConfirm}>
            {t("confirmDelete.confirm")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
