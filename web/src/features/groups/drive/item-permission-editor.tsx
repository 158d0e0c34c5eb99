import { Modal } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { TalkingToServer } from "../frame/load-state";
import { PermissionLists } from "../settings/permission-editor";
import { TextError } from "../settings/form-footer";
import type { PermissionList } from "../settings/permission-hints";
import type { DriveSource } from "./drive-items";
import type { DriveNode } from "./drive-tree";
import { ns } from "./i18n";
import { useItemPermissions, usePermitItem } from "./item-permissions";

/**
 * The permission editor for a drive item (spec 001 §2, §6): the page editor's cards for read,
 * change (write) and, for drives and folders, use. Its author and the administrators change them;
 * everyone else sees the lists with the lock notice. Saving seals the item anew where a read list
 * is set or cleared (item-permissions.ts).
 */
export function ItemPermissionEditor({ groupId, node, source, holder, onClose }: { groupId: number; node: DriveNode; source: DriveSource | undefined; holder: UnlockedKeys; onClose: () => void }) {
  const { t } = useTranslation(ns);
  const permissions = useItemPermissions(groupId, node.id);
  const permit = usePermitItem(groupId, source, holder);
  const lists: PermissionList[] = node.kind === "file" ? ["read", "write"] : ["read", "write", "use"];
  return (
    <Modal opened onClose={onClose} title={t("permissions.title", { name: node.name ?? t("invalid") })} centered size="lg" data-item-permissions>
      {permissions.isPending ? (
        <TalkingToServer />
      ) : permissions.isError ? (
        <TextError text={errorText(permissions.error, t("permissions.fetchFailed"))} />
      ) : (
        <PermissionLists
          groupId={groupId}
          permissions={permissions.data}
          lists={lists}
          saving={permit.isPending}
          onSave={(next) => permit.mutateAsync({ node, lists: next, was: permissions.data })}
          onClose={onClose}
          texts={{ listHint: (list) => t(`permissions.${list}Hint`), hint: (hint) => t(`permissions.hints.${hint}`) }}
        />
      )}
    </Modal>
  );
}
