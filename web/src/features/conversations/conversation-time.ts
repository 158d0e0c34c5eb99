import { formatDate, formatRelative, formatDateTime, fromSeconds } from "../../lib/format";

const WEEK_SECONDS = 7 * 24 * 3600;

/** Relative within a week ("vor 5 Minuten"), the date beyond (de-CH, spec 000 §9). */
export function relativeTime(seconds: number, now: number = Date.now()): string {
  const at = fromSeconds(seconds);
  if (Math.abs(now - at.getTime()) / 1000 >= WEEK_SECONDS) return formatDate(at);
  return formatRelative(at, now);
}

/** The exact time, for a tooltip next to a relative one. */
export function exactTime(seconds: number): string {
  return formatDateTime(fromSeconds(seconds));
}
