import { formatDate, formatDateTime, formatRelative, fromSeconds, wordsLocale } from "../../lib/format";

const WEEK_SECONDS = 7 * 24 * 3600;

/**
 * Within a week, how long ago in the interface `language` ("vor 5 Minuten", "5 minutes ago");
 * beyond, the date, always de-CH (spec 000 §9). A time a little ahead of this clock (the server's
 * clock runs ahead) reads as now, never "in 1 minute".
 */
export function relativeTime(seconds: number, language: string, now: number = Date.now()): string {
  const at = Math.min(fromSeconds(seconds).getTime(), now);
  if ((now - at) / 1000 >= WEEK_SECONDS) return formatDate(at);
  return formatRelative(at, now, wordsLocale(language));
}

/** The exact time (de-CH), for a tooltip next to a relative one. */
export function exactTime(seconds: number): string {
  return formatDateTime(fromSeconds(seconds));
}
