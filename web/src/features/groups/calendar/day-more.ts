import type { DayCellContentArg } from "@fullcalendar/core";
import { dayKey } from "./calendar-events";

/**
 * A month day's content: its number and, where the day holds more events than the month view was
 * given (limitPerDay), '+N more', which opens the day with all of them: those events are built only
 * then (issue 14). Plain DOM nodes, not React: FullCalendar would mount a React portal in each of
 * the month's 42 cells on every switch. The calendar page and the calendar benchmark draw with the
 * same.
 */
export function dayWithMore(more: ReadonlyMap<string, number>, label: (count: number) => string, open: (date: Date) => void) {
  return function dayContent(arg: DayCellContentArg) {
    const count = arg.view.type === "dayGridMonth" ? more.get(dayKey(arg.date)) : undefined;
    if (!count) return arg.dayNumberText;
    const link = document.createElement("button");
    link.type = "button";
    link.className = "sealwork-more-link";
    link.dataset.calendarMore = String(count);
    link.textContent = label(count);
    // FullCalendar starts a drag-select on the press: the link's press stays with the link.
    for (const type of ["mousedown", "touchstart", "pointerdown"]) link.addEventListener(type, (event) => event.stopPropagation());
    link.addEventListener("click", () => open(arg.date));
    return { domNodes: [link, document.createTextNode(arg.dayNumberText)] };
  };
}
