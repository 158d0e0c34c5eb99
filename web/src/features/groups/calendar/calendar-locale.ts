import type { LocaleInput } from "@fullcalendar/core";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ns } from "./i18n";

/**
 * FullCalendar's locale and the hooks that fix what it makes in the DOM, for both calendars of
 * the page: dates in the Swiss-German locale (spec 002 §9), weeks from Monday, our words in the
 * interface language.
 */

export const DATE_LOCALE = "de-CH";

/** The calendars' `locales`: one locale, with the words of the interface language. */
export function useCalendarLocales(): LocaleInput[] {
  const { t, i18n } = useTranslation(ns);
  return useMemo(
    () => [
      {
        // FullCalendar finds a locale by its lower-cased code: "de-CH" was never found, and its
        // English defaults (weeks from Sunday, English words) applied instead.
        code: DATE_LOCALE.toLowerCase(),
        week: { dow: 1, doy: 4 },
        buttonText: { today: t("buttons.today"), month: t("buttons.month"), week: t("buttons.week"), day: t("buttons.day"), prev: t("buttons.previous"), next: t("buttons.next") },
        buttonHints: { prev: t("buttons.previous"), next: t("buttons.next"), today: t("buttons.today") },
        weekText: t("week"),
        allDayText: t("allDay"),
        moreLinkText: (n: number) => t("more", { count: n }),
        noEventsText: t("noEvents"),
      },
    ],
    // The words follow the interface language.
    [t, i18n.language],
  );
}

/** A week number sits inside the row's first day cell, whose name is its day: the number is left out of the cell's name (the row's dates say the week). */
export function hideWeekNumber({ el }: { el: HTMLElement }) {
  if (el.closest("td.fc-daygrid-day")) el.setAttribute("aria-hidden", "true");
}

/**
 * FullCalendar names a month's day cell by its day number alone (aria-labelledby), while the cell
 * also shows its events, "+N more" and the week number: axe's label-content-name-mismatch. Without
 * the label the grid cell is named by what it shows, the day number's own label (the full date)
 * first. FullCalendar sets the attribute once, when the cell is made.
 */
export function nameCellByContent({ el }: { el: HTMLElement }) {
  el.removeAttribute("aria-labelledby");
}
