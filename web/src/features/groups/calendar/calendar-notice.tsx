import { Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { ns as groups } from "../i18n";
import { ns } from "./i18n";

/**
 * A line above the calendar: with no cards the calendar's empty state (the group pages' text, as
 * PagePlaceholder words it, and how to add one here), and on a read-only page the spec's text
 * (spec 001 §5) whether or not it holds events, as a calendar is drawn either way and moves
 * simply do not start there.
 */
export function CalendarNotice({ readOnly, canCreate, empty }: { readOnly: boolean; canCreate: boolean; empty: boolean }) {
  const { t } = useTranslation(groups);
  const { t: tc } = useTranslation(ns);
  if (!empty && !readOnly) return null;
  const hint = readOnly ? t("readOnly") : canCreate ? tc("emptyCreate") : t("emptyHint.calendar");
  return (
    <Text size="sm" c="dimmed" mb="sm" data-calendar-notice>
      {empty ? `${t("empty.calendar")} ${hint}` : hint}
    </Text>
  );
}
