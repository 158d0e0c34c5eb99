import type { MotePayload } from "@sealwork/crypto";
import type { OpenedRecord } from "../records/records";

/**
 * The calendar's events from the page's cards, and back (spec 002 §2 Calendar). A card is an event
 * when its opened payload has a valid `event_start`: datetime-local text "YYYY-MM-DDTHH:MM", the
 * event's wall-clock time (no zone). A card without a valid `event_end` (or one not after its
 * start) lasts one hour. Every event is timed; a selection of whole days in the month view makes
 * an event from 00:00 of the first day to 00:00 after the last. Pure: no FullCalendar here.
 */

/** The length of an event whose card names no (valid) end. */
export const DEFAULT_EVENT_MINUTES = 60;

/** The one source until blueprints exist: the group's plain cards (the config's `sources`). */
export const CARD_SOURCE = "cards";

export interface CalendarEvent {
  id: string;
  title: string;
  /** Wall-clock times as datetime-local text (FullCalendar reads them as local times). */
  start: string;
  end: string;
  source: string;
  editable: boolean;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A datetime-local text as a local Date, or null when it is not one (or not a real date). */
export function parseLocal(text: string | null | undefined): Date | null {
  const m = text ? LOCAL.exec(text) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h || date.getMinutes() !== mi) return null;
  return date;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A local Date as datetime-local text to the minute ("YYYY-MM-DDTHH:MM"). */
export function formatLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The event a card shows as, or null when it has no payload or no valid start. */
export function eventOfRecord(record: OpenedRecord, untitled: string): CalendarEvent | null {
  const payload = record.payload;
  const start = parseLocal(payload?.event_start);
  if (!payload || !start) return null;
  const given = parseLocal(payload.event_end);
  const end = given && given > start ? given : new Date(start.getTime() + DEFAULT_EVENT_MINUTES * 60_000);
  return { id: String(record.id), title: payload.title || untitled, start: formatLocal(start), end: formatLocal(end), source: CARD_SOURCE, editable: record.editable };
}

/** The card's payload as it is saved after a move or resize: everything kept, the new times. */
export function movedPayload(payload: MotePayload, start: Date, end: Date | null): MotePayload {
  const next = end && end > start ? end : new Date(start.getTime() + DEFAULT_EVENT_MINUTES * 60_000);
  return { ...payload, event_start: formatLocal(start), event_end: formatLocal(next) };
}

/** The prefill of a new card from a selection on the calendar. */
export function selectionPayload(start: Date, end: Date): MotePayload {
  return movedPayload({}, start, end);
}

/** How many events overlap the range [from, to) (the visible range: 'Found n events'). */
export function countInRange(events: readonly Pick<CalendarEvent, "start" | "end">[], from: Date, to: Date): number {
  let n = 0;
  for (const event of events) {
    const start = parseLocal(event.start);
    const end = parseLocal(event.end);
    if (start && end && start < to && end > from) n++;
  }
  return n;
}

/** The tags the cards carry, sorted, for the parent filter until relations to parent types exist. */
export function tagsOf(records: readonly OpenedRecord[]): string[] {
  const tags = new Set<string>();
  for (const r of records) for (const tag of r.payload?.tags ?? []) tags.add(tag);
  return [...tags].sort((a, b) => a.localeCompare(b));
}
