import { Button, Group, Loader, ScrollArea, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { SEARCH_DEBOUNCE_MS } from "./chunks";
import { type Person, useSearchPeople } from "./search-people";
import { ns } from "./i18n";

export interface PersonSelectorProps {
  onPick: (person: Person) => void;
  /** People already taken (members, chips): shown as picked and not offered again. */
  exclude?: readonly number[];
  label?: string;
  disabled?: boolean;
  /** Focus the search field when the selector appears (in a popup). */
  autoFocus?: boolean;
}

/**
 * The person selector (spec 000 §9): people the caller may see (members of their groups;
 * everyone for administrators, as GET /api/people answers), searched by name 500 ms after the
 * last key; 50 at first, then 500 more at a time. Enter picks the first one offered.
 */
export function PersonSelector({ onPick, exclude = [], label, disabled, autoFocus }: PersonSelectorProps) {
  const { t } = useTranslation(ns);
  const [text, setText] = useState("");
  const [q] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useSearchPeople(q, !disabled);
  const people = search.data?.pages.flatMap((page) => page.people) ?? [];
  const taken = new Set(exclude);
  const offered = people.filter((person) => !taken.has(person.id));

  const pick = (person: Person) => {
    if (disabled || taken.has(person.id)) return;
    onPick(person);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    // The selector may sit in a form of its own: Enter picks here and submits nothing else.
    event.preventDefault();
    const first = offered[0];
    if (first && q === text.trim()) pick(first);
  };

  return (
    <Stack gap="xs">
      <TextInput
        label={label ?? t("search")}
        description={t("searchHint")}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        disabled={disabled}
        autoComplete="off"
        data-autofocus={autoFocus || undefined}
        rightSection={search.isFetching ? <Loader size="xs" /> : null}
      />
      {search.isError ? (
        <Text c="red" size="sm" role="alert">
          {t("failed")}
        </Text>
      ) : null}
      <ScrollArea.Autosize mah={240} type="auto">
        <Stack gap={2} role="list" aria-label={t("results")}>
          {search.isSuccess && people.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t("none")}
            </Text>
          ) : null}
          {people.map((person) => {
            const isTaken = taken.has(person.id);
            return (
              <div key={person.id} role="listitem">
                <UnstyledButton
                  onClick={() => pick(person)}
                  disabled={disabled || isTaken}
                  px="xs"
                  py={4}
                  w="100%"
                  style={{ borderRadius: 4, opacity: isTaken ? 0.5 : 1 }}
                >
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm" truncate>
                      {person.name}
                    </Text>
                    {isTaken ? (
                      <Text size="xs" c="dimmed">
                        {t("picked")}
                      </Text>
                    ) : null}
                  </Group>
                </UnstyledButton>
              </div>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
      {search.hasNextPage ? (
        <Button variant="subtle" size="xs" onClick={() => void search.fetchNextPage()} loading={search.isFetchingNextPage}>
          {t("more")}
        </Button>
      ) : null}
    </Stack>
  );
}
