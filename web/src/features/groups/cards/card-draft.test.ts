import type { FileRef } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { ATTACHMENT_MAX_BYTES } from "@sealwork/contracts";
import { type CardDraft, type Upload, admission, contentOf, draftOf, problemsOf } from "./card-draft";

const file = (name: string): FileRef => ({ id: 7, name, type: "image/png", size: 1234, key: "k".repeat(43), header: "h".repeat(32), thumb: true }) as unknown as FileRef;
const upload = (state: Upload["state"], ref?: FileRef): Upload => ({ key: `u-${state}`, name: "a.png", size: 10, type: "image/png", state, done: 0, total: 10, ...(ref ? { file: ref } : {}) });
const draft = (change: Partial<CardDraft> = {}): CardDraft => ({ ...draftOf(), ...change });

describe("the card editor's draft", () => {
  it("round-trips a saved card through the form: event times as typed, tags as typed, custom fields kept", () => {
    const card = { title: "Plan", content: "text", _html: "<p>bold</p>", media: file("m.png"), attached: [file("a.pdf"), file("b.pdf")], tags: ["x", "Y"], event_start: "2026-11-24T09:30", event_end: "2026-11-24T10:15:30", cf_amount: { amount: 12 } };
    const form = draftOf(card);
    expect(form.tags).toBe("x, Y");
    expect(form.attachments.map((a) => [a.name, a.state])).toEqual([["a.pdf", "success"], ["b.pdf", "success"]]);
    expect(form.fields).toEqual({ cf_amount: { amount: 12 } });
    expect(contentOf(form)).toEqual(card);
    // A time that is not a datetime-local value is not kept.
    expect(contentOf({ ...form, eventStart: "24.11.2026 09:30", eventEnd: "" })).not.toHaveProperty("event_start");
  });

  it("makes the record's content: title trimmed, tags parsed (blanks dropped, duplicates by case ignored), only finished uploads, empty parts left out", () => {
    const content = contentOf(draft({ title: "  Hi  ", tags: " a, ,A , b,", html: "<p></p>", attachments: [upload("success", file("done.pdf")), upload("error"), upload("removed", file("gone.pdf")), upload("uploading")], media: upload("timeout") }));
    expect(content).toEqual({ title: "Hi", content: "", attached: [file("done.pdf")], tags: ["a", "b"] });
  });

  it("blocks a save while a file uploads, names each missing required field, and refuses a start after the end", () => {
    expect(problemsOf(draft({ attachments: [upload("encrypting")] }), [])).toEqual([{ code: "waitForAttachment" }]);
    expect(problemsOf(draft({ media: upload("uploading") }), [])).toEqual([{ code: "waitForAttachment" }]);
    expect(problemsOf(draft({ attachments: [upload("error"), upload("success", file("x"))] }), [])).toEqual([]);
    expect(problemsOf(draft({ title: "  " }), ["title", "content", "media"])).toEqual([
      { code: "requiredFieldMissing", field: "title" },
      { code: "requiredFieldMissing", field: "content" },
      { code: "requiredFieldMissing", field: "media" },
    ]);
    // A rich body counts as content; a media upload that failed does not count as media.
    expect(problemsOf(draft({ title: "t", html: "<p>x</p>", media: upload("error") }), ["title", "content", "media"])).toEqual([{ code: "requiredFieldMissing", field: "media" }]);
    expect(problemsOf(draft({ eventStart: "2026-11-24T10:00", eventEnd: "2026-11-24T09:59" }), [])).toEqual([{ code: "dateInvalid", field: "event" }]);
    expect(problemsOf(draft({ eventStart: "2026-11-24T10:00", eventEnd: "2026-11-24T10:00" }), [])).toEqual([]);
    expect(problemsOf(draft({ eventStart: "2026-11-24T10:00:01", eventEnd: "2026-11-24T10:00" }), [])).toEqual([{ code: "dateInvalid", field: "event" }]);
  });

  it("admits at most 1024 MB, and only images and videos as media", () => {
    expect(admission({ size: ATTACHMENT_MAX_BYTES, type: "application/pdf" }, "attachment")).toBeNull();
    expect(admission({ size: ATTACHMENT_MAX_BYTES + 1, type: "image/png" }, "media")).toBe("tooLarge");
    expect(admission({ size: 1, type: "application/pdf" }, "media")).toBe("notMedia");
    expect(admission({ size: 1, type: "video/mp4" }, "media")).toBeNull();
    expect(admission({ size: 1, type: "" }, "media")).toBe("notMedia");
  });
});
