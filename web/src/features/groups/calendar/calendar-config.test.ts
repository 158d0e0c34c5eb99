import { describe, expect, it } from "vitest";
import type { OpenedRecord } from "../records/records";
import { openedRecord } from "../records/opened-record.fixture";
import {
  AUTO_PALETTE,
  CARD_SOURCE_ENTRY,
  type CalendarSource,
  DEFAULT_CONFIG,
  activeSources,
  colorOf,
  dateFieldOf,
  parentChoices,
  parentIds,
  passesParent,
  readCalendarConfig,
  relatedTitle,
  sourceOfRecord,
  writeCalendarConfig,
} from "./calendar-config";
import { eventOfRecord, movedPayload } from "./calendar-events";

const record = (id: number, payload: OpenedRecord["payload"], relationships: OpenedRecord["relationships"] = [], typeId = 0) => openedRecord(id, payload, { relationships, typeId });

/** A blueprint type as it will slot in: its own type id, date fields and relations. */
const meeting: CalendarSource = {
  type: "Meeting",
  typeId: 12,
  dateFields: [
    { id: "cf_when", start: "cf_when", end: "cf_until" },
    { id: "cf_due", start: "cf_due" },
  ],
  relationFields: ["Project"],
  filterFields: [],
};
const catalog = [CARD_SOURCE_ENTRY, meeting];

describe("the calendar's configuration", () => {
  it("takes the defaults for a new page's empty options, quietly", () => {
    expect(readCalendarConfig("{}")).toEqual({ config: DEFAULT_CONFIG, invalid: [] });
    expect(readCalendarConfig("")).toEqual({ config: DEFAULT_CONFIG, invalid: [] });
  });

  it("reads valid stored options, and keeps a per-type date field map", () => {
    const stored = { sources: ["Meeting", "cards"], sourceColors: { cards: "#c92a2a" }, datefield: { Meeting: "cf_due" }, filter: "Project", autofilters: '[{"field":"title","type":"text","term":"x"}]', autocolor: "Project" };
    expect(readCalendarConfig(JSON.stringify(stored))).toEqual({ config: stored, invalid: [] });
  });

  it("falls back per key for stored values that do not pass, and names them; text that is no JSON object falls back whole", () => {
    const { config, invalid } = readCalendarConfig(JSON.stringify({ sources: [], sourceColors: { cards: "red" }, autofilters: "[{", filter: "Project" }));
    expect(invalid).toEqual(["sources", "sourceColors", "autofilters"]);
    expect(config).toEqual({ ...DEFAULT_CONFIG, filter: "Project" });
    expect(readCalendarConfig("[1]")).toEqual({ config: DEFAULT_CONFIG, invalid: ["options"] });
    expect(readCalendarConfig("{not json")).toEqual({ config: DEFAULT_CONFIG, invalid: ["options"] });
  });

  it("writes the configuration into the options, keeping the options' other keys", () => {
    const text = writeCalendarConfig('{"layout":"wide","filter":"old"}', { ...DEFAULT_CONFIG, autocolor: "Project" });
    expect(JSON.parse(text)).toEqual({ layout: "wide", ...DEFAULT_CONFIG, autocolor: "Project" });
    expect(() => writeCalendarConfig("{}", { ...DEFAULT_CONFIG, sources: [] })).toThrow();
  });

  it("keeps the stored value of the keys it is told to keep (the autofilters, for all but super administrators)", () => {
    const stored = JSON.stringify({ autofilters: "[{", filter: "old" });
    expect(JSON.parse(writeCalendarConfig(stored, { ...DEFAULT_CONFIG, autofilters: "" }, ["autofilters"]))).toEqual({ ...DEFAULT_CONFIG, autofilters: "[{" });
    // A key not stored stays away, so the server sees no change to it.
    expect(JSON.parse(writeCalendarConfig("{}", DEFAULT_CONFIG, ["autofilters"]))).not.toHaveProperty("autofilters");
    expect(JSON.parse(writeCalendarConfig(stored, DEFAULT_CONFIG))).toMatchObject({ autofilters: "" });
  });

  it("knows the sources by type: unknown types are left out, a record finds its source by type id", () => {
    const config = { ...DEFAULT_CONFIG, sources: ["Gone", "Meeting", "cards"] };
    expect(activeSources(config, catalog).map((s) => s.type)).toEqual(["Meeting", "cards"]);
    expect(sourceOfRecord(record(1, {}, [], 12), catalog)?.type).toBe("Meeting");
    expect(sourceOfRecord(record(1, {}, [], 0), [meeting])).toBeUndefined();
  });

  it("picks a source's date field from the shared name or the per-type map, else its first", () => {
    expect(dateFieldOf(DEFAULT_CONFIG, CARD_SOURCE_ENTRY)?.start).toBe("event_start");
    expect(dateFieldOf({ ...DEFAULT_CONFIG, datefield: { Meeting: "cf_due" } }, meeting)?.id).toBe("cf_due");
    expect(dateFieldOf({ ...DEFAULT_CONFIG, datefield: "nothing" }, meeting)?.id).toBe("cf_when");
    // A blueprint's date field makes its events and takes their moves.
    const due = dateFieldOf({ ...DEFAULT_CONFIG, datefield: "cf_due" }, meeting)!;
    expect(eventOfRecord(record(5, { title: "Abgabe", cf_due: "2027-03-01T09:00" }, [], 12), "?", "Meeting", due)).toMatchObject({ start: "2027-03-01T09:00", end: "2027-03-01T10:00", source: "Meeting" });
    expect(movedPayload({ title: "Abgabe", cf_due: "2027-03-01T09:00" }, new Date(2027, 2, 2, 8, 0), null, due)).toEqual({ title: "Abgabe", cf_due: "2027-03-02T08:00" });
  });

  it("colours by source, or by the autocolor relation's id modulo 21", () => {
    const config = { ...DEFAULT_CONFIG, sourceColors: { cards: "#c92a2a" } };
    expect(colorOf(config, CARD_SOURCE_ENTRY, record(1, {}))).toBe("#c92a2a");
    expect(colorOf({ ...config, autocolor: "Project" }, CARD_SOURCE_ENTRY, record(1, {}, [{ field: "Project", id: 23 }]))).toBe(AUTO_PALETTE[2]);
    expect(colorOf({ ...config, autocolor: "Project" }, CARD_SOURCE_ENTRY, record(1, {}))).toBe("#c92a2a");
    expect(colorOf({ ...DEFAULT_CONFIG, sourceColors: {} }, meeting, record(1, {}))).toBe("#1864ab");
    expect(AUTO_PALETTE).toHaveLength(21);
  });

  it("offers the parent filter's choices: the parent type's related ids, or without a parent type the cards' tags", () => {
    const records = [record(1, { tags: ["b", "a"] }, [{ field: "Project", id: 9 }]), record(2, { tags: ["a"] }, [{ field: "Project", id: 4 }]), record(3, null)];
    expect(parentChoices(records, "")).toEqual([
      { value: "#a", label: "a" },
      { value: "#b", label: "b" },
    ]);
    expect(parentChoices(records, "Project").map((c) => c.value)).toEqual(["@4", "@9"]);
    expect(parentIds(records, "Project")).toEqual([4, 9]);
    expect(parentIds(records, "")).toEqual([]);
    expect(records.filter((r) => passesParent(r, "", "#b")).map((r) => r.id)).toEqual([1]);
    expect(records.filter((r) => passesParent(r, "Project", "@4")).map((r) => r.id)).toEqual([2]);
    expect(records.filter((r) => passesParent(r, "", "")).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it("names the parent filter's choices by the related cards' decrypted titles, '#id' for one the caller cannot open", () => {
    const records = [record(1, {}, [{ field: "Project", id: 9 }, { field: "Other", id: 5 }]), record(2, {}, [{ field: "Project", id: 4 }, { field: "Project", id: 7 }, { field: "Project", id: 12 }])];
    const related = new Map([
      [9, record(9, { title: "Zeltlager" })],
      [4, record(4, { title: "Apéro" })],
      [7, record(7, { title: "  " })],
      [12, record(12, null)],
    ]);
    const titleOf = (id: number) => relatedTitle(related.get(id), "(untitled)");
    expect(parentChoices(records, "Project", titleOf)).toEqual([
      { value: "@7", label: "(untitled)" },
      { value: "@4", label: "Apéro" },
      { value: "@9", label: "Zeltlager" },
      { value: "@12", label: "#12" },
    ]);
    // Without titles (none fetched, or none readable): "#id" by id.
    expect(parentChoices(records, "Project").map((c) => c.label)).toEqual(["#4", "#7", "#9", "#12"]);
    expect(relatedTitle(undefined, "(untitled)")).toBeUndefined();
  });
});
