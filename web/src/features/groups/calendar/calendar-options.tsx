import { Alert, Button, Checkbox, ColorInput, Group, NativeSelect, Paper, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../../lib/api";
import type { PageView } from "../get-page";
import { type SearchFilter, isActive, readFilters } from "../records/record-filters";
import { useUpdatePage } from "../update-page";
import { AUTO_PALETTE, type CalendarConfig, type CalendarSource, DEFAULT_COLOR, SOURCES, calendarConfig, dateFieldOf, writeCalendarConfig } from "./calendar-config";
import { useFieldLabel } from "./filter-builder";
import { ns } from "./i18n";

/** A source's name: the built-in cards by their translation, a blueprint's by its own. */
export function useSourceLabel() {
  const { t } = useTranslation(ns);
  return (source: CalendarSource) => source.label ?? t(`sources.${source.type as "cards"}`, { defaultValue: source.type });
}

/**
 * 'Calendar options' (spec 002 §2 Calendar, §3 calendar config), for those who may configure the
 * page: the sources, each one's colour and date field, the parent filter's type, the colour by
 * relation, and for super administrators the automatic filters (the current filters, taken over;
 * spec 002 §6: only they save filters as autofilters and see them; others keep the stored ones as
 * they are, and the server refuses a change to them from anyone else). 'Commit Changes' checks
 * the configuration with zod and saves it into the page's options (POST /api/pages/{id},
 * _method PATCH); a 403 says 'You are not allowed to alter this page!', any other failure the
 * spec's text (§8). Only configuration goes to the server: the filter terms a user typed, never
 * a record's content.
 */
export function CalendarOptions({
  groupId,
  page,
  config,
  filters,
  autofilters,
  onClose,
}: {
  groupId: number;
  page: PageView;
  config: CalendarConfig;
  filters: SearchFilter[];
  /** Whether the automatic filters are shown and may be changed here (super administrators). */
  autofilters: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(ns);
  const sourceLabel = useSourceLabel();
  const fieldLabel = useFieldLabel();
  const update = useUpdatePage(groupId, page.id);
  const [draft, setDraft] = useState(config);
  const [failure, setFailure] = useState<string | null>(null);
  const chosen = SOURCES.filter((s) => draft.sources.includes(s.type));
  const relations = [...new Set(chosen.flatMap((s) => s.relationFields))];
  const automatic = readFilters(draft.autofilters) ?? [];
  const change = (next: Partial<CalendarConfig>) => setDraft((d) => ({ ...d, ...next }));

  const setDateField = (source: CalendarSource, id: string) => {
    const map = Object.fromEntries(chosen.map((s) => [s.type, dateFieldOf(draft, s)?.id ?? ""]));
    map[source.type] = id;
    // One source: one name for all (the spec's string form); several: a name per type.
    change({ datefield: chosen.length === 1 ? id : map });
  };

  const commit = async () => {
    setFailure(null);
    const checked = calendarConfig.safeParse(draft);
    if (!checked.success) {
      const colour = checked.error.issues.some((issue) => issue.path[0] === "sourceColors");
      setFailure(colour ? t("options.badColor") : draft.sources.length === 0 ? t("options.needSource") : t("options.failed"));
      return;
    }
    try {
      // Only a super administrator changes the autofilters: for others they stay as stored, even where they did not read.
      await update.mutateAsync({ options: writeCalendarConfig(page.options, checked.data, autofilters ? [] : ["autofilters"]) });
      onClose();
    } catch (error) {
      console.error("Saving the calendar options failed", error);
      setFailure(isApiError(error, 403) ? t("notAllowed") : t("options.failed"));
    }
  };

  return (
    <Paper withBorder p="md" mb="sm" component="section" aria-labelledby="calendar-options-title" data-calendar-options>
      <Stack gap="sm">
        <Title order={2} size="h4" id="calendar-options-title">
          {t("options.title")}
        </Title>
        <Checkbox.Group label={t("options.sources")} value={draft.sources} onChange={(sources) => change({ sources })}>
          <Group gap="md" mt={4}>
            {SOURCES.map((source) => (
              <Checkbox key={source.type} value={source.type} label={sourceLabel(source)} />
            ))}
          </Group>
        </Checkbox.Group>
        {chosen.map((source) => (
          <Group key={source.type} gap="sm" align="flex-end" wrap="wrap">
            <ColorInput
              label={t("options.color", { source: sourceLabel(source) })}
              w={200}
              format="hex"
              withEyeDropper={false}
              swatches={[...AUTO_PALETTE]}
              value={draft.sourceColors[source.type] ?? DEFAULT_COLOR}
              onChange={(value) => change({ sourceColors: { ...draft.sourceColors, [source.type]: value } })}
            />
            <NativeSelect
              label={t("options.datefield", { source: sourceLabel(source) })}
              w={240}
              data={source.dateFields.map((f) => ({ value: f.id, label: t(`dateFields.${f.id as "event"}`, { defaultValue: f.id }) }))}
              value={dateFieldOf(draft, source)?.id ?? ""}
              onChange={(e) => setDateField(source, e.currentTarget.value)}
            />
          </Group>
        ))}
        <Group gap="sm" wrap="wrap">
          <RelationSelect label={t("options.parentType")} none={t("options.noParent")} fields={relations} value={draft.filter} onChange={(filter) => change({ filter })} />
          <RelationSelect label={t("options.autocolor")} none={t("options.noAutocolor")} fields={relations} value={draft.autocolor} onChange={(autocolor) => change({ autocolor })} />
        </Group>
        {autofilters ? (
          <div>
            <Text size="sm" fw={500}>
              {t("options.autofilters")}
            </Text>
            <Text size="sm" data-autofilters>
              {automatic.length ? automatic.map((f) => `${f.not ? `${t("filters.not")} ` : ""}${fieldLabel(f.field)}: ${f.term}`).join("; ") : t("options.autofiltersNone")}
            </Text>
            <Group gap="xs" mt={4}>
              <Button size="xs" variant="light" disabled={!filters.some(isActive)} onClick={() => change({ autofilters: JSON.stringify(filters.filter(isActive)) })}>
                {t("options.autofiltersUse")}
              </Button>
              <Button size="xs" variant="subtle" disabled={!automatic.length} onClick={() => change({ autofilters: "" })}>
                {t("options.autofiltersClear")}
              </Button>
            </Group>
          </div>
        ) : null}
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t("options.cancel")}
          </Button>
          <Button onClick={() => void commit()} loading={update.isPending}>
            {t("options.commit")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** A choice among the sources' relation fields, or none. */
function RelationSelect({ label, none, fields, value, onChange }: { label: string; none: string; fields: string[]; value: string; onChange: (value: string) => void }) {
  return <NativeSelect label={label} w={240} data={[{ value: "", label: none }, ...fields.map((r) => ({ value: r, label: r }))]} value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
}
