import { useMemo } from "react";
import { useGroupMembers } from "../get-members";
import { useRequiredSession } from "../../../lib/session";
import type { OpenedRecord } from "../records/records";
import { type FilterContext, type SearchFilter, matchesFilters } from "../records/record-filters";
import { type CalendarConfig, type DateField, activeSources, colorOf, dateFieldOf, passesParent, sourceOfRecord } from "./calendar-config";
import { type CalendarEvent, eventOfRecord } from "./calendar-events";

/** A shown event's record and the date field its moves are saved to. */
export interface ShownRecord {
  record: OpenedRecord;
  dates: DateField;
}

/** What the filters know beyond the records: the one looking (for {CURRENT_USER}), today, the members' names. */
export function useFilterContext(groupId: number): FilterContext {
  const session = useRequiredSession();
  const members = useGroupMembers(groupId);
  return useMemo(() => {
    const names = new Map((members.data?.members ?? []).map((m) => [m.id, m.name]));
    return { userId: session.id, now: new Date(), userName: (id: number) => names.get(id) };
  }, [session.id, members.data]);
}

/**
 * The calendar's events from the page's decrypted records: the configured sources' records with a
 * start in their date field, through the parent filter, the autofilters and the user's filters
 * (record-filters.ts), without the sources the legend hides; coloured by source or by relation.
 */
export function useCalendarEvents(input: {
  cards: readonly OpenedRecord[];
  config: CalendarConfig;
  filters: readonly SearchFilter[];
  automatic: readonly SearchFilter[];
  parent: string;
  hidden: ReadonlySet<string>;
  writable: boolean;
  untitled: string;
  context: FilterContext;
}) {
  const { cards, config, filters, automatic, parent, hidden, writable, untitled, context } = input;
  return useMemo(() => {
    const sources = activeSources(config);
    const events: (CalendarEvent & { color?: string })[] = [];
    const byId = new Map<string, ShownRecord>();
    for (const record of cards) {
      const source = sourceOfRecord(record, sources);
      const dates = source && dateFieldOf(config, source);
      if (!source || !dates || hidden.has(source.type)) continue;
      if (!passesParent(record, config.filter, parent)) continue;
      if (!matchesFilters(record, automatic, context) || !matchesFilters(record, filters, context)) continue;
      const event = eventOfRecord(record, untitled, source.type, dates);
      if (!event) continue;
      byId.set(event.id, { record, dates });
      events.push({ ...event, editable: writable && event.editable, color: colorOf(config, source, record) });
    }
    return { events, byId, sources };
  }, [cards, config, filters, automatic, parent, hidden, writable, untitled, context]);
}
