import type { MotePayload } from "@sealwork/crypto";
import type { OpenedRecord } from "../records/records";
import { CARD_EVENT, CARD_SOURCE, type DateField } from "./calendar-config";

/**
 * The calendar's events from the page's cards, and back (spec 002 §2 Calendar). A card is an event
 * when its opened payload has a valid `event_start`: datetime-local text "YYYY-MM-DDTHH:MM", the
 * event's wall-clock time (no zone). A card without a valid `event_end` (or one not after its
 * start) lasts one hour. Every event is timed; a selection of whole days in the month view makes
 * an event from 00:00 of the first day to 00:00 after the last. Pure: no FullCalendar here.
 */

/** The length of an event whose card names no (valid) end. */
export const DEFAULT_EVENT_MINUTES = 60;

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

const text = (payload: MotePayload, key: string | undefined) => {
  const value = key ? (payload as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : undefined;
};

/** The event a record shows as (its source's date field; cards: event_start and event_end), or null when it has no payload or no valid start. */
export function eventOfRecord(record: OpenedRecord, untitled: string, source = CARD_SOURCE, dates: DateField = CARD_EVENT): CalendarEvent | null {
  const payload = record.payload;
  const start = parseLocal(payload ? text(payload, dates.start) : undefined);
  if (!payload || !start) return null;
  const given = parseLocal(text(payload, dates.end));
  const end = given && given > start ? given : new Date(start.getTime() + DEFAULT_EVENT_MINUTES * 60_000);
  return { id: String(record.id), title: payload.title || untitled, start: formatLocal(start), end: formatLocal(end), source, editable: record.editable };
}

/** The record's payload as it is saved after a move or resize: everything kept, the new times in its date field. */
export function movedPayload(payload: MotePayload, start: Date, end: Date | null, dates: DateField = CARD_EVENT): MotePayload {
  const next = end && end > start ? end : new Date(start.getTime() + DEFAULT_EVENT_MINUTES * 60_000);
  return { ...payload, [dates.start]: formatLocal(start), ...(dates.end ? { [dates.end]: formatLocal(next) } : {}) };
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
