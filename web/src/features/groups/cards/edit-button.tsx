import { Button } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { OpenedRecord } from "../records/records";
import { ns } from "./i18n";

/** A card's Edit (spec 001 §6): only for those who may change it, on a page that is not read-only, and for a card that opened. */
export function EditButton({ record, readOnly, title, onEdit }: { record: OpenedRecord; readOnly: boolean; title: string; onEdit: () => void }) {
  const { t } = useTranslation(ns);
  if (!record.editable || readOnly || !record.payload) return null;
  return (
    <Button size="compact-sm" variant="subtle" onClick={onEdit} aria-label={t("page.editCard", { title })}>
      {t("page.edit")}
    </Button>
  );
}
