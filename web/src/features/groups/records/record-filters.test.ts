import { describe, expect, it } from "vitest";
import type { OpenedRecord } from "./open-records";
import { openedRecord } from "./opened-record.fixture";
import { type SearchFilter, applyFilters, matchesFilters, parseDay, readFilters, termParts, termProblem } from "./record-filters";

const record = (id: number, payload: OpenedRecord["payload"], authorId = 3, relationships: OpenedRecord["relationships"] = []) => openedRecord(id, payload, { authorId, relationships });

const filter = (field: string, type: SearchFilter["type"], term: string, more: Partial<SearchFilter> = {}): SearchFilter => ({ field, type, term, fieldname: "", or: false, not: false, ...more });
// Wednesday 10 March 2027, 15:00 local time.
const context = { userId: 3, now: new Date(2027, 2, 10, 15, 0), userName: (id: number) => ({ 3: "Ann Muster", 4: "Ben Zürcher" })[id] };

const records = [
  record(1, { title: "Sitzung Vorstand", tags: ["Verein", "intern"], event_start: "2027-03-09T09:00" }),
  record(2, { title: "Grillfest", content: "Mit Würsten", tags: ["Verein"], event_start: "2027-03-10T18:00" }, 4),
  record(3, { title: "Steuern", event_start: "2027-03-11T08:00" }, 4, [{ field: "Project", id: 21 }]),
  record(4, null),
];
const ids = (filters: SearchFilter[]) => applyFilters(records, filters, context).map((r) => r.id);

describe("search filters over opened records", () => {
  it("ignores a filter with an empty term, and drops empty comma parts", () => {
    expect(ids([filter("title", "text", "")])).toEqual([1, 2, 3, 4]);
    expect(ids([filter("title", "text", " , ,")])).toEqual([1, 2, 3, 4]);
    expect(ids([])).toEqual([1, 2, 3, 4]);
    expect(termParts(" a, ,b ,")).toEqual(["a", "b"]);
  });

  it("matches text anywhere, ignoring case, in strings and in lists; a comma term means any of several", () => {
    expect(ids([filter("title", "text", "sitzung")])).toEqual([1]);
    expect(ids([filter("title", "text", "grill, steuer")])).toEqual([2, 3]);
    expect(ids([filter("tags", "text", "INTERN")])).toEqual([1]);
    expect(ids([filter("content", "text", "würst")])).toEqual([2]);
  });

  it("turns a filter round with not (a record without the value passes a not)", () => {
    expect(ids([filter("tags", "text", "Verein", { not: true })])).toEqual([3, 4]);
  });

  it("joins with AND, and with OR where a filter says so; AND binds first", () => {
    expect(ids([filter("tags", "text", "Verein"), filter("title", "text", "grill")])).toEqual([2]);
    expect(ids([filter("tags", "text", "intern"), filter("title", "text", "steuer", { or: true })])).toEqual([1, 3]);
    // (Verein AND Sitzung) OR Steuern
    expect(ids([filter("tags", "text", "Verein"), filter("title", "text", "Sitzung"), filter("title", "text", "Steuern", { or: true })])).toEqual([1, 3]);
    // An ignored filter leaves the joins of the others as they are.
    expect(ids([filter("title", "text", "Sitzung"), filter("title", "text", "", { or: true }), filter("title", "text", "Vorstand")])).toEqual([1]);
  });

  it("reads datetime terms: {AFTER_TODAY} is today or later, {BEFORE_TODAY} before today, a day is that day", () => {
    expect(ids([filter("event_start", "datetime", "{AFTER_TODAY}")])).toEqual([2, 3]);
    expect(ids([filter("event_start", "datetime", "{BEFORE_TODAY}")])).toEqual([1]);
    expect(ids([filter("event_start", "datetime", "2027-03-11")])).toEqual([3]);
    expect(ids([filter("event_start", "datetime", "09.03.2027, 2027-03-11")])).toEqual([1, 3]);
  });

  it("reports a datetime part that is neither a day nor a token, and matches nothing with it", () => {
    expect(termProblem(filter("event_start", "datetime", "2027-03-11, morgen"))).toBe("date");
    expect(termProblem(filter("event_start", "datetime", "2027-02-30"))).toBe("date");
    expect(termProblem(filter("event_start", "datetime", "{AFTER_TODAY}, 1.3.2027"))).toBeNull();
    expect(termProblem(filter("title", "text", "morgen"))).toBeNull();
    expect(ids([filter("event_start", "datetime", "morgen")])).toEqual([]);
    expect(ids([filter("event_start", "datetime", "2027-03-11, morgen")])).toEqual([3]);
    expect(parseDay("2027-03-01")).toEqual(new Date(2027, 2, 1));
    expect(parseDay("1.3.2027")).toEqual(new Date(2027, 2, 1));
  });

  it("resolves {CURRENT_USER} to the one looking; a user part may also be an id or a piece of a name", () => {
    expect(ids([filter("_author", "user", "{CURRENT_USER}")])).toEqual([1, 4]);
    expect(ids([filter("_author", "user", "4")])).toEqual([2, 3]);
    expect(ids([filter("_author", "user", "zürcher")])).toEqual([2, 3]);
    expect(matchesFilters(records[0]!, [filter("_author", "user", "{CURRENT_USER}")], { ...context, userId: 4 })).toBe(false);
  });

  it("matches relations by the related record's id", () => {
    expect(ids([filter("Project", "relation", "21")])).toEqual([3]);
    expect(ids([filter("Project", "relation", "22, 23")])).toEqual([]);
  });

  it("reads saved filters: empty text is none, a damaged or invalid list is null", () => {
    expect(readFilters("")).toEqual([]);
    expect(readFilters('[{"field":"title","type":"text","term":"x"}]')).toEqual([filter("title", "text", "x")]);
    expect(readFilters("[{")).toBeNull();
    expect(readFilters('[{"field":"title","type":"script","term":"x"}]')).toBeNull();
  });
});
