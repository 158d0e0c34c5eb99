/** Dates are shown in the Swiss German locale whatever the interface language (spec 000 §9). */
export const DATE_LOCALE = "de-CH";

/**
 * Words follow the interface language: "vor 5 Minuten" in German (Swiss, as the dates), "5
 * minutes ago" in English. Any other language falls back to English.
 */
export function wordsLocale(language: string): string {
  return language.startsWith("de") ? DATE_LOCALE : "en-GB";
}

type DateInput = Date | number | string;

const dateFormat = new Intl.DateTimeFormat(DATE_LOCALE, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(DATE_LOCALE, { dateStyle: "medium", timeStyle: "short" });
const timeFormat = new Intl.DateTimeFormat(DATE_LOCALE, { timeStyle: "short" });
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale);
  if (!format) relativeFormats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" })));
  return format;
}

function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The API counts time in seconds since the epoch. */
export function fromSeconds(seconds: number): Date {
  return new Date(seconds * 1000);
}

export function formatDate(value: DateInput): string {
  return dateFormat.format(toDate(value));
}

export function formatDateTime(value: DateInput): string {
  return dateTimeFormat.format(toDate(value));
}

export function formatTime(value: DateInput): string {
  return timeFormat.format(toDate(value));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

/** "vor 5 Minuten", "in 2 Tagen", "jetzt" (locale de-CH); "5 minutes ago", "now" (en-GB). */
export function formatRelative(value: DateInput, now: DateInput = Date.now(), locale: string = DATE_LOCALE): string {
  const format = relativeFormat(locale);
  const seconds = Math.round((toDate(value).getTime() - toDate(now).getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return format.format(0, "second");
  for (const [unit, size] of UNITS) {
    if (abs >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, "second");
}

const MEGABYTE = 1048576;

/** MB above 1048576 bytes, otherwise KB (spec 000 §9). */
/** A drive file's size (spec 001 §9): in KB, and in MB from 1000 KB up. */
export function formatDriveSize(bytes: number): string {
  const number = new Intl.NumberFormat(DATE_LOCALE, { maximumFractionDigits: 1 });
  const kb = bytes / 1024;
  return kb >= 1000 ? `${number.format(kb / 1024)} MB` : `${number.format(kb)} KB`;
}

export function formatFileSize(bytes: number): string {
  const number = new Intl.NumberFormat(DATE_LOCALE, { maximumFractionDigits: 1 });
  return bytes > MEGABYTE ? `${number.format(bytes / MEGABYTE)} MB` : `${number.format(bytes / 1024)} KB`;
}
