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


/** A local date's day, "YYYY-MM-DD". */
export const dayKey = (date: Date) => formatLocal(date).slice(0, 10);

/** The days an event touches, from its start's to that of its last minute (an end at 00:00 belongs to the day before); a year at most. */
function daysOf(start: Date, end: Date): string[] {
  const days: string[] = [];
  const day = new Date(start.getFullYear(), start.getMonth(), start.getDate());
  const last = new Date(Math.max(end.getTime() - 1, start.getTime()));
  while (day <= last && days.length < 366) {
    days.push(dayKey(day));
    day.setDate(day.getDate() + 1);
  }
  return days;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The month view's share of the events (issue 14): FullCalendar builds every event it is given,
 * those it hides behind '+N more' too (it measures them all), so a month of 5,000 events took
 * seconds. Each day is given at most `max`, in FullCalendar's order (earlier start first, then the
 * longer, then by title); the others are only counted per day (`more`), shown as '+N more' and
 * built when that day is opened. An event spanning days is kept while any of its days has room.
 */
export function limitPerDay<E extends Pick<CalendarEvent, "start" | "end" | "title">>(events: readonly E[], max: number): { shown: E[]; more: Map<string, number> } {
  const timed: { event: E; start: Date; end: Date }[] = [];
  for (const event of events) {
    const start = parseLocal(event.start);
    const end = parseLocal(event.end);
    if (start && end) timed.push({ event, start, end });
  }
  const length = (x: { start: Date; end: Date }) => x.end.getTime() - x.start.getTime();
  timed.sort((a, b) => a.start.getTime() - b.start.getTime() || length(b) - length(a) || byText(a.event.title, b.event.title));
  const used = new Map<string, number>();
  const more = new Map<string, number>();
  const shown: E[] = [];
  for (const { event, start, end } of timed) {
    const days = daysOf(start, end);
    const room = days.some((day) => (used.get(day) ?? 0) < max);
    if (room) shown.push(event);
    const count = room ? used : more;
    for (const day of days) count.set(day, (count.get(day) ?? 0) + 1);
  }
  return { shown, more };
}

/** The range a calendar shows and its view's type (FullCalendar's datesSet). */
export interface ViewRange {
  from: Date;
  to: Date;
  view: string;
}

/** The range a view shows (FullCalendar's datesSet), or `kept` when it is the same: FullCalendar reports its dates again on every new set of options. */
export function nextRange(kept: ViewRange | null, view: { type: string; activeStart: Date; activeEnd: Date }): ViewRange {
  const same = kept && kept.view === view.type && kept.from.getTime() === view.activeStart.getTime() && kept.to.getTime() === view.activeEnd.getTime();
  return same ? kept : { from: view.activeStart, to: view.activeEnd, view: view.type };
}

/** What the calendar is given: in the month view (and before a view is known) the month's share (limitPerDay), in the week and day views the events of their range. */
export function eventsForView<E extends Pick<CalendarEvent, "start" | "end">>(events: readonly E[], monthShare: E[], range: ViewRange | null): E[] {
  if (!range || range.view === "dayGridMonth") return monthShare;
  return events.filter((event) => countInRange([event], range.from, range.to) > 0);
}
