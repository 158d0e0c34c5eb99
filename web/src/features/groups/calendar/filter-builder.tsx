import { Button, Checkbox, CloseButton, Group, NativeSelect, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { type SearchFilter, termProblem } from "../records/record-filters";
import type { FilterField } from "./calendar-config";
import { ns } from "./i18n";

/** A field's label: the built-in fields by their translation, a blueprint's by its name. */
export function useFieldLabel() {
  const { t } = useTranslation(ns);
  return (field: string) => t(`fields.${field as "title"}`, { defaultValue: field });
}

/**
 * The filter builder (spec 002 §2 Calendar, §5 "Calendar filters"): rows of field, search term,
 * Not, and how a row joins the one before it. The rules themselves are record-filters.ts's; this
 * only edits the list. A datetime term that is no date says so under its input.
 */
export function FilterBuilder({ fields, filters, automatic, onChange }: { fields: readonly FilterField[]; filters: SearchFilter[]; automatic: number; onChange: (filters: SearchFilter[]) => void }) {
  const { t } = useTranslation(ns);
  const label = useFieldLabel();
  const set = (index: number, change: Partial<SearchFilter>) => onChange(filters.map((f, i) => (i === index ? { ...f, ...change } : f)));
  const first = fields[0];
  const add = () => first && onChange([...filters, { field: first.field, type: first.type, fieldname: label(first.field), term: "", or: false, not: false }]);

  return (
    <Paper withBorder p="sm" mb="sm" role="region" aria-label={t("filters.region")} data-filter-builder>
      <Stack gap="xs">
        {filters.map((filter, index) => {
          const problem = termProblem(filter);
          const row = index + 1;
          return (
            <Group key={index} gap="xs" align="flex-start" wrap="wrap" data-filter-row={row}>
              {index > 0 ? (
                <NativeSelect
                  aria-label={`${t("filters.join")} ${row}`}
                  size="xs"
                  w={80}
                  data={[
                    { value: "and", label: t("filters.and") },
                    { value: "or", label: t("filters.or") },
                  ]}
                  value={filter.or ? "or" : "and"}
                  onChange={(e) => set(index, { or: e.currentTarget.value === "or" })}
                />
              ) : null}
              <NativeSelect
                aria-label={`${t("filters.field")} ${row}`}
                size="xs"
                w={150}
                data={fields.map((f) => ({ value: f.field, label: label(f.field) }))}
                value={filter.field}
                onChange={(e) => {
                  const chosen = fields.find((f) => f.field === e.currentTarget.value);
                  if (chosen) set(index, { field: chosen.field, type: chosen.type, fieldname: label(chosen.field) });
                }}
              />
              <TextInput
                aria-label={`${t("filters.term")} ${row}`}
                size="xs"
                w={260}
                value={filter.term}
                error={problem === "date" ? t("filters.dateProblem") : undefined}
                onChange={(e) => set(index, { term: e.currentTarget.value })}
              />
              <Checkbox mt={6} size="xs" label={t("filters.not")} aria-label={`${t("filters.not")} ${row}`} checked={filter.not} onChange={(e) => set(index, { not: e.currentTarget.checked })} />
              <CloseButton size="sm" mt={4} aria-label={`${t("filters.remove")} ${row}`} onClick={() => onChange(filters.filter((_, i) => i !== index))} />
            </Group>
          );
        })}
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={add} disabled={!first}>
            {t("filters.add")}
          </Button>
          {filters.length ? (
            <Button size="xs" variant="subtle" onClick={() => onChange([])}>
              {t("filters.clear")}
            </Button>
          ) : null}
        </Group>
        <Text size="xs" c="dimmed">
          {t("filters.help")}
        </Text>
        {automatic ? (
          <Text size="xs" data-automatic-filters>
            {t("filters.automatic", { count: automatic })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
