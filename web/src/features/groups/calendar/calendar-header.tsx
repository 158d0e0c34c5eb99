import { Badge, Button, Group, Select, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { type CalendarConfig, type CalendarSource, DEFAULT_COLOR } from "./calendar-config";
import { useSourceLabel } from "./calendar-options";
import { ns } from "./i18n";
import { CreateButton } from "./source-chooser";

/**
 * The line above the calendar (spec 002 §2 Calendar): the legend that toggles sources, 'Found n
 * events', the create button (the source chooser), the filter builder's and the options' toggles,
 * and the parent filter ('Show all').
 */
export function CalendarHeader(props: {
  config: CalendarConfig;
  sources: readonly CalendarSource[];
  /** The sources a new record may come from (those with a date field). */
  creatable: readonly CalendarSource[];
  hidden: ReadonlySet<string>;
  onToggleSource: (type: string) => void;
  found: number;
  canCreate: boolean;
  onCreate: (source: CalendarSource) => void;
  activeFilters: number;
  filtering: boolean;
  onToggleFilters: () => void;
  canConfigure: boolean;
  configuring: boolean;
  onToggleOptions: () => void;
  parentChoices: { value: string; label: string }[];
  parent: string;
  onParent: (value: string) => void;
}) {
  const { t } = useTranslation(ns);
  const sourceLabel = useSourceLabel();
  const { config, hidden } = props;
  return (
    <Group justify="space-between" mb="sm" wrap="wrap">
      <Group gap="sm" role="group" aria-label={t("legend")}>
        {props.sources.map((source) => (
          <Badge
            key={source.type}
            component="button"
            type="button"
            color={config.sourceColors[source.type] ?? DEFAULT_COLOR}
            variant={hidden.has(source.type) ? "outline" : "filled"}
            aria-pressed={!hidden.has(source.type)}
            style={{ cursor: "pointer" }}
            onClick={() => props.onToggleSource(source.type)}
          >
            {sourceLabel(source)}
          </Badge>
        ))}
        <Text size="sm" data-calendar-found>
          {t("found", { count: props.found })}
        </Text>
      </Group>
      <Group gap="sm" align="flex-end">
        {props.canCreate ? <CreateButton sources={props.creatable} onCreate={props.onCreate} /> : null}
        <Button size="xs" variant={props.filtering ? "filled" : "default"} aria-expanded={props.filtering} onClick={props.onToggleFilters}>
          {props.activeFilters ? t("filters.active", { count: props.activeFilters }) : t("filters.toggle")}
        </Button>
        {props.canConfigure ? (
          <Button size="xs" variant={props.configuring ? "filled" : "default"} aria-expanded={props.configuring} onClick={props.onToggleOptions}>
            {t("options.toggle")}
          </Button>
        ) : null}
        <Select
          label={t("parentFilter")}
          size="xs"
          w={200}
          allowDeselect={false}
          data={[{ value: "", label: t("showAll") }, ...props.parentChoices]}
          value={props.parent}
          onChange={(value) => props.onParent(value ?? "")}
        />
      </Group>
    </Group>
  );
}
