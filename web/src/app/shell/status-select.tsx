import { NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";

const STATUSES = ["online", "away", "busy", "offline"] as const;

/** Spec 000 §2: only Online can be chosen; the other states are shown but disabled. */
export function StatusSelect() {
  const { t } = useTranslation();
  const labels = {
    online: t("shell.statusOnline"),
    away: t("shell.statusAway"),
    busy: t("shell.statusBusy"),
    offline: t("shell.statusOffline"),
  };
  return (
    <NativeSelect label={t("shell.status")} size="xs" value="online" onChange={() => undefined}>
      {STATUSES.map((status) => (
        <option key={status} value={status} disabled={status !== "online"}>
          {labels[status]}
        </option>
      ))}
    </NativeSelect>
  );
}
