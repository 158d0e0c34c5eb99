import * as z from "zod";
import type { OpenedRecord } from "./open-records";

/**
 * Search filters over opened records (spec 002 §3 "Search filter", §5 "Calendar filters"): the
 * calendar's filter builder and its autofilters use them, and the card decks will. They run on
 * the decrypted payloads in the browser; nothing here touches the network. Pure and unit-tested.
 *
 * The rules: a filter whose term is empty (or only commas and blanks) is ignored; a term with
 * commas means any of its parts; `not` turns a filter's answer round; a filter with `or` joins the
 * one before it with OR, the others join with AND, and AND binds first ("a AND b OR c" is
 * "(a AND b) OR c"). Text matches a part anywhere, ignoring case, in a string or in any item of a
 * list (tags). A datetime part is {AFTER_TODAY} (today or later), {BEFORE_TODAY} (before today) or a
 * day (2027-03-01 or 01.03.2027: that day); a part that is none of them matches nothing and is
 * reported by `termProblem`. A user part is {CURRENT_USER}, a user id or a piece of a user's name.
 * A relation part is the id of a related record (relation filters need a chosen selection: none
 * chosen is an empty term).
 */

export const FILTER_TYPES = ["text", "datetime", "user", "relation"] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/** The field of a record's author (a user field of every record). */
export const AUTHOR_FIELD = "_author";
export const AFTER_TODAY = "{AFTER_TODAY}";
export const BEFORE_TODAY = "{BEFORE_TODAY}";
export const CURRENT_USER = "{CURRENT_USER}";

/** One filter as saved (spec 002 §3: field, type, fieldname, term, or, not). */
export const searchFilter = z.object({
  /** A payload key (title, tags, event_start, cf_…), `_author`, or a relationship's field. */
  field: z.string().min(1).max(64),
  type: z.enum(FILTER_TYPES),
  /** The field's label when it was saved (the builder names it by its own words). */
  fieldname: z.string().max(200).default(""),
  term: z.string().max(1000),
  or: z.boolean().default(false),
  not: z.boolean().default(false),
});
export type SearchFilter = z.infer<typeof searchFilter>;
export const searchFilters = z.array(searchFilter).max(50);

/** What the filters need beyond the record: who is looking, what day it is, and users' names. */
export interface FilterContext {
  userId: number;
  now: Date;
  userName?: (id: number) => string | undefined;
}

/** A term's parts: split at commas, blanks trimmed, empty parts dropped. */
export function termParts(term: string): string[] {
  return term
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

/** Whether a filter takes part (an empty term is ignored). */
export const isActive = (filter: SearchFilter): boolean => termParts(filter.term).length > 0;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SWISS_DAY = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function realDay(y: number, m: number, d: number): Date | null {
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d ? date : null;
}

/** A typed day (2027-03-01 or 01.03.2027) as local midnight, or null. */
export function parseDay(text: string): Date | null {
  const iso = ISO_DAY.exec(text);
  if (iso) return realDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const swiss = SWISS_DAY.exec(text);
  return swiss ? realDay(Number(swiss[3]), Number(swiss[2]), Number(swiss[1])) : null;
}

/** A stored datetime value (datetime-local text or a day) as a local Date, or null. */
function parseStored(value: unknown): Date | null {
  const m = typeof value === "string" ? LOCAL_TIME.exec(value) : null;
  if (!m) return null;
  const day = realDay(Number(m[1]), Number(m[2]), Number(m[3]));
  if (!day) return null;
  day.setHours(Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  return day;
}

const isDatePart = (part: string) => part === AFTER_TODAY || part === BEFORE_TODAY || parseDay(part) !== null;

/** Why a filter's term cannot be used as typed ("date": a datetime part that is no date nor token), or null. */
export function termProblem(filter: SearchFilter): "date" | null {
  if (filter.type === "datetime" && termParts(filter.term).some((part) => !isDatePart(part))) return "date";
  return null;
}

const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());

function matchesDate(value: unknown, part: string, now: Date): boolean {
  const date = parseStored(value);
  if (!date) return false;
  const today = startOfDay(now);
  if (part === AFTER_TODAY) return date >= today;
  if (part === BEFORE_TODAY) return date < today;
  const day = parseDay(part);
  return day !== null && startOfDay(date).getTime() === day.getTime();
}

function matchesText(value: unknown, part: string): boolean {
  const needle = part.toLocaleLowerCase();
  const hay = (v: unknown) => (typeof v === "string" || typeof v === "number") && String(v).toLocaleLowerCase().includes(needle);
  return Array.isArray(value) ? value.some(hay) : hay(value);
}

function matchesUser(value: unknown, part: string, context: FilterContext): boolean {
  if (typeof value !== "number") return false;
  if (part === CURRENT_USER) return value === context.userId;
  if (/^\d+$/.test(part)) return value === Number(part);
  return context.userName?.(value)?.toLocaleLowerCase().includes(part.toLocaleLowerCase()) ?? false;
}

/** The value a filter looks at: the author, a relationship's ids, or a payload key. */
function valueOf(record: OpenedRecord, filter: SearchFilter): unknown {
  if (filter.field === AUTHOR_FIELD) return record.authorId;
  if (filter.type === "relation") return record.relationships.filter((r) => r.field === filter.field).map((r) => r.id);
  return (record.payload as Record<string, unknown> | null)?.[filter.field];
}

function matchesPart(record: OpenedRecord, filter: SearchFilter, part: string, context: FilterContext): boolean {
  const value = valueOf(record, filter);
  switch (filter.type) {
    case "datetime":
      return matchesDate(value, part, context.now);
    case "user":
      return matchesUser(value, part, context);
    case "relation":
      return (value as number[]).includes(Number(part));
    case "text":
      return matchesText(value, part);
  }
}

/** One active filter's answer: any of its parts, turned round by `not`. */
function matchesOne(record: OpenedRecord, filter: SearchFilter, context: FilterContext): boolean {
  const any = termParts(filter.term).some((part) => matchesPart(record, filter, part, context));
  return filter.not ? !any : any;
}

/** The active filters as OR-joined groups of AND-joined filters. */
function clauses(filters: readonly SearchFilter[]): SearchFilter[][] {
  const groups: SearchFilter[][] = [];
  for (const filter of filters.filter(isActive)) {
    const last = groups[groups.length - 1];
    if (last && !filter.or) last.push(filter);
    else groups.push([filter]);
  }
  return groups;
}

/** Whether a record passes the filters (no active filter: every record does). */
export function matchesFilters(record: OpenedRecord, filters: readonly SearchFilter[], context: FilterContext): boolean {
  const groups = clauses(filters);
  return groups.length === 0 || groups.some((group) => group.every((filter) => matchesOne(record, filter, context)));
}

/** The records that pass the filters, in their order. */
export function applyFilters<R extends OpenedRecord>(records: readonly R[], filters: readonly SearchFilter[], context: FilterContext): R[] {
  return clauses(filters).length === 0 ? [...records] : records.filter((record) => matchesFilters(record, filters, context));
}

/** Saved filters from their JSON text (autofilters): [] for an empty text, null when it is not a valid list. */
export function readFilters(text: string): SearchFilter[] | null {
  if (text.trim() === "") return [];
  try {
    const parsed = searchFilters.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch (error) {
    console.warn("Saved filters are not JSON", error);
    return null;
  }
}
