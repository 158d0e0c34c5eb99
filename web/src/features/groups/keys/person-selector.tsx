import { Button, Group, Loader, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { call } from "../../../lib/api";
import { ns } from "./i18n";

/** Someone GET /api/people answered: the people the caller may see (members of their groups; everyone for administrators). */
export interface Person {
  id: number;
  name: string;
}

/** Spec 000 §9: at most 50 results, typing debounced by 500 ms. */
const LIMIT = 50;
const DEBOUNCE_MS = 500;

/**
 * The person selector (spec 000 §9) where a member is picked: part of a name, the matches the
 * server lets the caller see, one button per person. `exclude` are not offered (already picked,
 * already members).
 */
export function PersonSelector({ onPick, exclude = [], busy }: { onPick: (person: Person) => void; exclude?: number[]; busy?: boolean }) {
  const { t } = useTranslation(ns);
  const [q, setQ] = useState("");
  const [query] = useDebouncedValue(q.trim(), DEBOUNCE_MS);
  const found = useQuery({
    queryKey: ["people", query],
    queryFn: ({ signal }) => call("GET /api/people", { query: { q: query, offset: 0, limit: LIMIT }, signal }),
    enabled: query.length > 0,
    staleTime: 10_000,
  });
  const people = (found.data?.people ?? []).filter((p) => !exclude.includes(p.id));
  return (
    <Stack gap="xs">
      <TextInput label={t("people.search")} description={t("people.searchHint")} value={q} onChange={(e) => setQ(e.currentTarget.value)} autoComplete="off" />
      {found.isFetching ? <Loader size="xs" /> : null}
      {query && found.data && people.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("people.none")}
        </Text>
      ) : null}
      <Group gap="xs" role="list" aria-label={t("people.found")}>
        {people.map((person) => (
          <Button key={person.id} role="listitem" size="xs" variant="light" data-person={person.id} disabled={busy} onClick={() => onPick(person)}>
            {person.name}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
