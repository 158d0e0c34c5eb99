import type { DayCellContentArg } from "@fullcalendar/core";
import { dayKey } from "./calendar-events";

/** FullCalendar starts a drag-select on the press: the link's press stays with the link (a native listener, before FullCalendar's). */
const keepPress = (el: HTMLButtonElement | null) => {
  for (const type of ["mousedown", "touchstart", "pointerdown"]) el?.addEventListener(type, (event) => event.stopPropagation());
};

/**
 * A month day's content: its number and, where the day holds more events than the month view was
 * given (limitPerDay), '+N more', which opens the day with all of them: those events are built only
 * then (issue 14). The calendar page and the calendar benchmark draw with the same.
 */
export function dayWithMore(more: ReadonlyMap<string, number>, label: (count: number) => string, open: (date: Date) => void) {
  return function DayContent(arg: DayCellContentArg) {
    const count = arg.view.type === "dayGridMonth" ? more.get(dayKey(arg.date)) : undefined;
    return (
      <>
        {count ? (
          <button type="button" ref={keepPress} className="sealwork-more-link" data-calendar-more={count} onClick={() => open(arg.date)}>
            {label(count)}
          </button>
        ) : null}
        {arg.dayNumberText}
      </>
    );
  };
}
