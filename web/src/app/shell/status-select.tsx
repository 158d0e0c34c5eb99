import { NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { ns } from "../i18n";

const STATUSES = ["online", "away", "busy", "offline"] as const;

/** Spec 000 §2: only Online can be chosen; the other states are shown but disabled. */
export function StatusSelect() {
  const { t } = useTranslation(ns);
  const labels = {
    online: t("statusOnline"),
    away: t("statusAway"),
    busy: t("statusBusy"),
    offline: t("statusOffline"),
  };
  return (
    <NativeSelect label={t("status")} size="xs" value="online" onChange={() => undefined}>
      {STATUSES.map((status) => (
        <option key={status} value={status} disabled={status !== "online"}>
          {labels[status]}
        </option>
      ))}
    </NativeSelect>
  );
}
