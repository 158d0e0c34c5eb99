import { Modal, Select, Stack } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { DrivePicker as DrivePickerProps } from "../../../lib/drive-picker";
import { useUnlockedKeys } from "../../../lib/unlocked-keys";
import { useUserGroups } from "../list-user-groups";
import { DriveCompact } from "./drive-compact";
import { ns } from "./i18n";

/**
 * 'Select from drive...' (spec 000 §2, spec 001 §4 select mode): a group of the user's, then a
 * file of its drive in the compact view's select mode (folders open; selecting one is refused);
 * one may upload into a folder there first. The conversation copies the file as it is
 * (POST …/attachments/from-drive) and attaches it.
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
        {group !== null && holder ? <DriveCompact key={group} groupId={group} holder={holder} selectMode onSelect={(file) => onPick({ group, file })} /> : null}
      </Stack>
    </Modal>
  );
};
