import { Button, Popover, Stack } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CalendarSource } from "./calendar-config";
import { ns } from "./i18n";

/** 'Create new {singular}' for a source: the built-in cards by their translation, a blueprint by its own singular. */
function useCreateLabel() {
  const { t } = useTranslation(ns);
  return (source: CalendarSource) => t("createNew", { singular: source.singular ?? t("singular") });
}

/** One 'Create new {singular}' button per source (the chooser's list). */
export function SourceList({ sources, onChoose }: { sources: readonly CalendarSource[]; onChoose: (source: CalendarSource) => void }) {
  const label = useCreateLabel();
  return (
    <Stack gap={4}>
      {sources.map((source) => (
        <Button key={source.type} size="xs" variant="subtle" justify="flex-start" onClick={() => onChoose(source)}>
          {label(source)}
        </Button>
      ))}
    </Stack>
  );
}

/**
 * The create button (spec 002 §2 Calendar, "source chooser popover 'Create new {singular}'"): with
 * one source it creates directly; with several a popover asks which.
 */
export function CreateButton({ sources, onCreate }: { sources: readonly CalendarSource[]; onCreate: (source: CalendarSource) => void }) {
  const { t } = useTranslation(ns);
  const label = useCreateLabel();
  const [opened, setOpened] = useState(false);
  const only = sources.length === 1 ? sources[0] : undefined;
  if (only) {
    return (
      <Button size="xs" variant="light" onClick={() => onCreate(only)}>
        {label(only)}
      </Button>
    );
  }
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow trapFocus>
      <Popover.Target>
        <Button size="xs" variant="light" onClick={() => setOpened((o) => !o)} aria-haspopup="dialog" aria-expanded={opened}>
          {t("chooseSource")}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <SourceList
          sources={sources}
          onChoose={(source) => {
            setOpened(false);
            onCreate(source);
          }}
        />
      </Popover.Dropdown>
    </Popover>
  );
}
