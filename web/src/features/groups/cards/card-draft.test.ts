import { ATTACHMENT_MAX_BYTES } from "@sealwork/contracts";
import type { FileRef, MotePayload } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { type CardDraft, type Upload, admission, checkDraft, draftOf, fieldsOf } from "./card-draft";

const file = (name: string, id = 7): FileRef => ({ id, name, type: "image/png", size: 1234, key: "k".repeat(43), header: "h".repeat(32), thumb: true }) as unknown as FileRef;
const upload = (state: Upload["state"], ref?: FileRef): Upload => ({ key: `u-${state}`, name: "a.png", size: 10, type: "image/png", state, done: 0, total: 10, ...(ref ? { file: ref } : {}) });
const draft = (change: Partial<CardDraft> = {}): CardDraft => ({ ...draftOf(), ...change });
const problems = (d: CardDraft, required: Parameters<typeof checkDraft>[1] = []) => {
  const checked = checkDraft(d, required);
  return "problems" in checked ? checked.problems : [];
};

describe("the card editor's draft", () => {
  it("round-trips a saved card through the form: event times, tags and custom fields as saved, files as finished uploads", () => {
    const card: MotePayload = { title: "Plan", content: "text", _html: "<p>bold</p>", media: file("m.png", 1), attached: [file("a.pdf", 2), file("b.pdf", 3)], tags: ["x", "Y"], event_start: "2026-11-24T09:30", event_end: "2026-11-24T10:15:30", cf_amount: { amount: 12 } };
    const form = draftOf(card);
    expect(form.tags).toBe("x, Y");
    expect(form.attachments.map((a) => [a.name, a.state])).toEqual([["a.pdf", "success"], ["b.pdf", "success"]]);
    expect(form.custom).toEqual({ amount: { amount: 12 } });
    expect(checkDraft(form, ["title", "content", "media"])).toEqual({ payload: card });
  });

  it("makes the payload of finished uploads only, tags parsed, an empty rich body left out", () => {
    const checked = checkDraft(draft({ title: "  Hi  ", tags: " a, ,A , b,", html: "<p></p>", attachments: [upload("success", file("done.pdf")), upload("error"), upload("removed", file("gone.pdf", 9))], media: upload("timeout") }), []);
    expect(checked).toEqual({ payload: { title: "Hi", attached: [file("done.pdf")], tags: ["a", "b"] } });
    expect(fieldsOf(draft({ media: upload("rejected") })).media).toBeNull();
  });

  it("blocks a save while a file uploads, names each missing required field, refuses a start after the end and what the schema refuses", () => {
    expect(problems(draft({ attachments: [upload("encrypting")] }))).toEqual([{ code: "waitForAttachment" }]);
    expect(problems(draft({ media: upload("uploading") }))).toEqual([{ code: "waitForAttachment" }]);
    expect(problems(draft({ attachments: [upload("error"), upload("success", file("x"))] }))).toEqual([]);
    expect(problems(draft({ title: "  " }), ["title", "content", "media"])).toEqual([
      { code: "requiredFieldMissing", field: "title" },
      { code: "requiredFieldMissing", field: "content" },
      { code: "requiredFieldMissing", field: "media" },
    ]);
    // A rich body counts as content; a media upload that failed does not count as media.
    expect(problems(draft({ title: "t", html: "<p>x</p>", media: upload("error") }), ["title", "content", "media"])).toEqual([{ code: "requiredFieldMissing", field: "media" }]);
    expect(problems(draft({ eventStart: "2026-11-24T10:00", eventEnd: "2026-11-24T09:59" }))).toEqual([{ code: "dateInvalid", field: "event" }]);
    expect(problems(draft({ eventStart: "2026-11-24T10:00", eventEnd: "2026-11-24T10:00" }))).toEqual([]);
    expect(problems(draft({ title: "x".repeat(5000) }))).toEqual([{ code: "invalid" }]);
  });

  it("admits at most 1024 MB, and only images and videos as media", () => {
    expect(admission({ size: ATTACHMENT_MAX_BYTES, type: "application/pdf" }, "attachment")).toBeNull();
    expect(admission({ size: ATTACHMENT_MAX_BYTES + 1, type: "image/png" }, "media")).toBe("tooLarge");
    expect(admission({ size: 1, type: "application/pdf" }, "media")).toBe("notMedia");
    expect(admission({ size: 1, type: "video/mp4" }, "media")).toBeNull();
    expect(admission({ size: 1, type: "" }, "media")).toBe("notMedia");
  });
});
