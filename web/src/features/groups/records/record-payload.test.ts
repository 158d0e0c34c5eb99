import { describe, expect, it } from "vitest";
import { type EditorFields, PATCH_EVENT, fieldsOfPayload, isShowable, patchEvent, payloadOfFields } from "./record-payload";

const file = { id: 9, name: "Plan.pdf", type: "application/pdf", size: 1234, key: "A".repeat(43), header: '{"v":1}', thumb: false };
const empty: EditorFields = { title: "", content: "", html: "", media: null, attached: [], tags: "", eventStart: "", eventEnd: "", custom: {} };

describe("the card editor's payload", () => {
  it("leaves empty fields out, takes tags as the editor does and custom fields as cf_<name>", () => {
    expect(payloadOfFields(empty)).toEqual({ payload: {} });
    const fields: EditorFields = {
      ...empty,
      title: "  Grüezi ",
      content: "Zeile 1\nZeile 2",
      attached: [file],
      tags: " Legal, q1 ,,legal, Q1 ",
      eventStart: "2027-03-01T09:00",
      eventEnd: "2027-03-01T10:00",
      custom: { amount: { amount: 217.5, currency: "HKD" }, gone: undefined },
    };
    const made = payloadOfFields(fields);
    expect(made).toEqual({
      payload: {
        title: "Grüezi",
        content: "Zeile 1\nZeile 2",
        attached: [file],
        tags: ["Legal", "q1"],
        event_start: "2027-03-01T09:00",
        event_end: "2027-03-01T10:00",
        cf_amount: { amount: 217.5, currency: "HKD" },
      },
    });
    // And back into the editor's fields.
    if (!("payload" in made)) throw new Error("no payload");
    expect(fieldsOfPayload(made.payload)).toEqual({ ...fields, title: "Grüezi", tags: "Legal, q1", custom: { amount: { amount: 217.5, currency: "HKD" } } });
  });

  it("refuses an event that ends before it starts, and what the payload schema refuses", () => {
    expect(payloadOfFields({ ...empty, eventStart: "2027-03-01T10:00", eventEnd: "2027-03-01T09:00" })).toEqual({ problem: "dateInvalid" });
    expect(payloadOfFields({ ...empty, eventStart: "yesterday" })).toEqual({ problem: "invalid" });
    expect(payloadOfFields({ ...empty, custom: { "a b": 1 } })).toEqual({ problem: "invalid" });
    expect(payloadOfFields({ ...empty, title: "x".repeat(1025) })).toEqual({ problem: "invalid" });
  });

  it("shows only plain text from other members' clients", () => {
    expect(isShowable({ title: "ok", content: "two\nlines", tags: ["a"], attached: [file] })).toBe(true);
    expect(isShowable({ title: "evil\u202Etxt.exe" })).toBe(false);
    expect(isShowable({ title: "two\nlines" })).toBe(false);
    expect(isShowable({ content: "bell\u0007" })).toBe(false);
    expect(isShowable({ tags: ["a\u0000"] })).toBe(false);
    expect(isShowable({ attached: [{ ...file, name: "a\u202Efdp.exe" }] })).toBe(false);
  });

  it("sends saves as a patch event with motes, group_id and quick", () => {
    const event = patchEvent(7, [3, 4, 3], true);
    expect(event.type).toBe(PATCH_EVENT);
    expect(event.detail).toEqual({ motes: [3, 4], group_id: 7, quick: true });
  });
});
