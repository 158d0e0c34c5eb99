import type { CalendarOptions } from "@fullcalendar/core";
import dayGridPlugin from "@fullcalendar/daygrid";
import interactionPlugin from "@fullcalendar/interaction";
import timeGridPlugin from "@fullcalendar/timegrid";

import { DATE_LOCALE } from "./calendar-locale";

/** Spec 002 §9: times on the 24-hour clock (dates in the Swiss-German locale: calendar-locale.ts). */
const HOURS_24 = { hour: "2-digit", minute: "2-digit", hour12: false } as const;
/**
 * The events a day of the month shows; the rest sit behind '+N more', built only when it is opened.
 * A number, not `true`: with the calendar's automatic height a cell grows with its events, so
 * `true` limited nothing and a month of 5,000 events built them all (seconds per month; issue 14).
 */
export const DAY_MAX_EVENTS = 4;

/**
 * The main calendar's fixed options (month, week and day views, week numbers, 24-hour times), as
 * constants so a render hands FullCalendar nothing new; the calendar page and the calendar
 * benchmark (test/bench/card-pages.ts) draw with the same.
 */
export const MAIN_CALENDAR = {
  plugins: [dayGridPlugin, timeGridPlugin, interactionPlugin],
  buttonIcons: false,
  initialView: "dayGridMonth",
  locale: DATE_LOCALE,
  headerToolbar: { left: "prev,next today", center: "title", right: "dayGridMonth,timeGridWeek,timeGridDay" },
  weekNumbers: true,
  eventTimeFormat: HOURS_24,
  slotLabelFormat: HOURS_24,
  dayMaxEvents: DAY_MAX_EVENTS,
  height: "auto",
} satisfies CalendarOptions;
