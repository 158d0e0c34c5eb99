import * as z from "zod";
import type { OpenedRecord } from "../records/records";
import { type FilterType, AUTHOR_FIELD, readFilters } from "../records/record-filters";

/**
 * The calendar page's configuration (spec 002 §3 "Calendar config"): sources (record types),
 * sourceColors by type, datefield (one for all or one per type), filter (the parent type of the
 * parent filter), autofilters (saved filters as JSON text, applied automatically) and autocolor
 * (a relation field whose related record picks the colour). They are the page's options: JSON
 * text that the server keeps in the clear (ARCHITECTURE §1 lets it see page configuration), so
 * nothing of a record goes in here. Read with zod in the browser: a stored value that does not
 * pass falls back to its default, and the caller says so. Pure and unit-tested.
 */

/** The one source until blueprints exist: the group's plain cards (type id 0). */
export const CARD_SOURCE = "cards";

/** Where a source's records keep an event's times: a start key and, optionally, an end key. */
export interface DateField {
  id: string;
  start: string;
  end?: string;
}

/** A filterable field of a source's records, for the filter builder. */
export interface FilterField {
  field: string;
  type: FilterType;
}

/**
 * A record type the calendar may show. Plain cards are the only one now; a blueprint type adds an
 * entry of its own (its type id, its datetime fields, its relation fields, its labels).
 */
export interface CalendarSource {
  type: string;
  typeId: number;
  dateFields: readonly DateField[];
  relationFields: readonly string[];
  filterFields: readonly FilterField[];
  /** A blueprint's own names; the built-in cards take theirs from the translations. */
  label?: string;
  singular?: string;
}

/** The plain cards' event: event_start and event_end (spec 002 §3, Record payload). */
export const CARD_EVENT: DateField = { id: "event", start: "event_start", end: "event_end" };

export const CARD_SOURCE_ENTRY: CalendarSource = {
  type: CARD_SOURCE,
  typeId: 0,
  dateFields: [CARD_EVENT],
  relationFields: [],
  filterFields: [
    { field: "title", type: "text" },
    { field: "content", type: "text" },
    { field: "tags", type: "text" },
    { field: "event_start", type: "datetime" },
    { field: "event_end", type: "datetime" },
    { field: AUTHOR_FIELD, type: "user" },
  ],
};

/** The sources there are, keyed by type (blueprint types join here when they exist). */
export const SOURCES: readonly CalendarSource[] = [CARD_SOURCE_ENTRY];

/** Spec 002 §9: the auto-colour palette of 21 colours, chosen by the related id modulo 21; each readable under white text (WCAG AA). */
export const AUTO_PALETTE = [
  "#c92a2a", "#a61e4d", "#862e9c", "#5f3dc4", "#364fc7", "#1864ab", "#0b7285",
  "#087f5b", "#237a36", "#4a7a0a", "#b04000", "#8a5a00", "#495057", "#e03131",
  "#c2255c", "#9c36b5", "#6741d9", "#3b5bdb", "#1971c2", "#0a6e5a", "#343a40",
] as const;

export const DEFAULT_COLOR = "#1864ab";

const typeName = z.string().regex(/^[A-Za-z0-9_]{1,64}$/);
const fieldName = z.string().regex(/^[A-Za-z0-9_*.!-]{0,64}$/);
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, "A colour is #rrggbb.");

/** Each key's schema; a stored key that does not pass falls back to its default alone. */
export const configShape = {
  sources: z.array(typeName).min(1).max(50),
  sourceColors: z.record(typeName, hexColor),
  datefield: z.union([fieldName, z.record(typeName, fieldName)]),
  filter: z.union([typeName, z.literal("")]),
  autofilters: z.string().max(8000).refine((text) => readFilters(text) !== null, "The autofilters are not a list of filters."),
  autocolor: fieldName,
};
export const calendarConfig = z.object(configShape);
export type CalendarConfig = z.infer<typeof calendarConfig>;

export const DEFAULT_CONFIG: CalendarConfig = {
  sources: [CARD_SOURCE],
  sourceColors: { [CARD_SOURCE]: DEFAULT_COLOR },
  datefield: CARD_EVENT.id,
  filter: "",
  autofilters: "",
  autocolor: "",
};

export type ConfigKey = keyof CalendarConfig;
const KEYS = Object.keys(configShape) as ConfigKey[];

/** The page's options as an object; null when the text is not a JSON object. */
function optionsObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch (error) {
    console.warn("The page's options are not JSON", error);
    return null;
  }
}

/**
 * The configuration from the page's options text: missing keys take their defaults quietly; keys
 * that do not pass take their defaults and are named in `invalid` ("options" when the text is
 * not a JSON object at all), for the page to say so.
 */
export function readCalendarConfig(text: string): { config: CalendarConfig; invalid: string[] } {
  const stored = optionsObject(text);
  if (!stored) return { config: DEFAULT_CONFIG, invalid: ["options"] };
  const invalid: string[] = [];
  const config: Record<string, unknown> = { ...DEFAULT_CONFIG };
  for (const key of KEYS) {
    if (stored[key] === undefined) continue;
    const parsed = configShape[key].safeParse(stored[key]);
    if (parsed.success) config[key] = parsed.data;
    else invalid.push(key);
  }
  return { config: config as CalendarConfig, invalid };
}

/**
 * The page's options text with the configuration written in; other keys of the options, and the
 * configuration's `keep` keys, stay as they are stored (a key not stored stays away).
 */
export function writeCalendarConfig(text: string, config: CalendarConfig, keep: readonly ConfigKey[] = []): string {
  const stored = optionsObject(text) ?? {};
  const written: Record<string, unknown> = { ...stored, ...calendarConfig.parse(config) };
  for (const key of keep) {
    if (stored[key] === undefined) delete written[key];
    else written[key] = stored[key];
  }
  return JSON.stringify(written);
}

/** The configured sources that exist, in the configured order. */
export function activeSources(config: CalendarConfig, catalog: readonly CalendarSource[] = SOURCES): CalendarSource[] {
  return config.sources.flatMap((type) => catalog.filter((s) => s.type === type));
}

/** The source a record belongs to among the given ones, by its type id. */
export function sourceOfRecord(record: OpenedRecord, sources: readonly CalendarSource[]): CalendarSource | undefined {
  return sources.find((s) => s.typeId === record.typeId);
}

/** A source's date field: the per-type choice, else the shared one, else its first. */
export function dateFieldOf(config: CalendarConfig, source: CalendarSource): DateField | undefined {
  const chosen = typeof config.datefield === "string" ? config.datefield : config.datefield[source.type];
  return source.dateFields.find((f) => f.id === chosen) ?? source.dateFields[0];
}

/** A record's colour: its autocolor relation's palette colour when it has one, else its source's colour. */
export function colorOf(config: CalendarConfig, source: CalendarSource, record: OpenedRecord): string {
  const related = config.autocolor ? record.relationships.find((r) => r.field === config.autocolor) : undefined;
  if (related) return AUTO_PALETTE[related.id % AUTO_PALETTE.length]!;
  return config.sourceColors[source.type] ?? DEFAULT_COLOR;
}

/** The ids the records name through the parent type's field (none without a parent type), each once, ascending. */
export function parentIds(records: readonly OpenedRecord[], parentType: string): number[] {
  if (!parentType) return [];
  const ids = new Set(records.flatMap((r) => r.relationships.filter((rel) => rel.field === parentType).map((rel) => rel.id)));
  return [...ids].sort((a, b) => a - b);
}

/**
 * The parent filter's choices: the records related through the parent type's field, by their
 * decrypted titles (`titleOf`; "#id" for one the caller cannot open), else (no parent type) the
 * cards' tags. Sorted by what they show.
 */
export function parentChoices(records: readonly OpenedRecord[], parentType: string, titleOf: (id: number) => string | undefined = () => undefined): { value: string; label: string }[] {
  if (parentType) {
    const choices = parentIds(records, parentType).map((id) => ({ id, title: titleOf(id) }));
    // Titled ones first by title, then those that did not open by id.
    choices.sort((a, b) => (a.title === undefined ? 1 : 0) - (b.title === undefined ? 1 : 0) || (a.title ?? "").localeCompare(b.title ?? "") || a.id - b.id);
    return choices.map(({ id, title }) => ({ value: `@${id}`, label: title ?? `#${id}` }));
  }
  const tags = new Set(records.flatMap((r) => r.payload?.tags ?? []));
  return [...tags].sort((a, b) => a.localeCompare(b)).map((tag) => ({ value: `#${tag}`, label: tag }));
}

/** A related record's title for the parent filter: its decrypted title (or `untitled`), undefined for one that did not open. */
export function relatedTitle(record: OpenedRecord | undefined, untitled: string): string | undefined {
  if (!record?.payload) return undefined;
  return record.payload.title?.trim() || untitled;
}

/** Whether a record passes the parent filter's choice ("" shows all). */
export function passesParent(record: OpenedRecord, parentType: string, choice: string): boolean {
  if (!choice) return true;
  if (choice.startsWith("@")) return record.relationships.some((r) => r.field === parentType && r.id === Number(choice.slice(1)));
  return (record.payload?.tags ?? []).includes(choice.slice(1));
}
