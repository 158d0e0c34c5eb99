import { describe, expect, it } from "vitest";
import type { OpenedRecord } from "../records/records";
import { openedRecord } from "../records/opened-record.fixture";
import { countInRange, eventOfRecord, formatLocal, movedPayload, parseLocal, selectionPayload } from "./calendar-events";

const record = (id: number, payload: OpenedRecord["payload"], editable = true) => openedRecord(id, payload, { editable });

describe("the calendar's events from cards", () => {
  it("reads and writes datetime-local text as wall-clock time", () => {
    expect(formatLocal(parseLocal("2027-03-01T09:05")!)).toBe("2027-03-01T09:05");
    expect(formatLocal(parseLocal("2027-03-01T09:05:30")!)).toBe("2027-03-01T09:05");
    expect(parseLocal("2027-02-30T09:00")).toBeNull();
    expect(parseLocal("2027-03-01")).toBeNull();
    expect(parseLocal(null)).toBeNull();
  });

  it("maps a card with a start to an event; no end, or an end not after the start, lasts one hour", () => {
    expect(eventOfRecord(record(7, { title: "Sitzung", event_start: "2027-03-01T09:00", event_end: "2027-03-01T11:30" }), "?")).toEqual({
      id: "7",
      title: "Sitzung",
      start: "2027-03-01T09:00",
      end: "2027-03-01T11:30",
      source: "cards",
      editable: true,
    });
    expect(eventOfRecord(record(8, { title: "", event_start: "2027-03-01T23:30" }, false), "(untitled)")).toMatchObject({ title: "(untitled)", end: "2027-03-02T00:30", editable: false });
    expect(eventOfRecord(record(9, { title: "x", event_start: "2027-03-01T10:00", event_end: "2027-03-01T10:00" }), "?")?.end).toBe("2027-03-01T11:00");
  });

  it("leaves out cards without a start and cards that did not open", () => {
    expect(eventOfRecord(record(1, { title: "no date" }), "?")).toBeNull();
    expect(eventOfRecord(record(2, null), "?")).toBeNull();
  });

  it("keeps the whole payload when an event moves, with the new times", () => {
    const payload = { title: "Plan", content: "c", tags: ["a"], event_start: "2027-03-01T09:00", event_end: "2027-03-01T10:00" };
    expect(movedPayload(payload, new Date(2027, 2, 2, 14, 0), new Date(2027, 2, 2, 16, 15))).toEqual({ ...payload, event_start: "2027-03-02T14:00", event_end: "2027-03-02T16:15" });
    expect(movedPayload(payload, new Date(2027, 2, 2, 14, 0), null)).toMatchObject({ event_end: "2027-03-02T15:00" });
    expect(selectionPayload(new Date(2027, 2, 3), new Date(2027, 2, 5))).toEqual({ event_start: "2027-03-03T00:00", event_end: "2027-03-05T00:00" });
  });

  it("counts the events that overlap the visible range", () => {
    const events = [
      { start: "2027-02-28T23:00", end: "2027-03-01T01:00" },
      { start: "2027-03-10T09:00", end: "2027-03-10T10:00" },
      { start: "2027-04-01T00:00", end: "2027-04-01T01:00" },
      { start: "2027-02-01T00:00", end: "2027-03-01T00:00" },
    ];
    expect(countInRange(events, new Date(2027, 2, 1), new Date(2027, 3, 1))).toBe(2);
    expect(countInRange([], new Date(2027, 2, 1), new Date(2027, 3, 1))).toBe(0);
  });
});
