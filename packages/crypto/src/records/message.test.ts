import { describe, expect, it } from "vitest";
import { encrypt, generateSymmetricKey } from "../aead";
import { base64urlEncode, utf8Encode } from "../bytes";
import { serializeEnvelope } from "../envelope";
import type { Key } from "../primitives";
import { expectRefusal } from "../test-support";
import { type FileRef, parseFileRef } from "./file-ref";
import { messageAad, openMessage, sealMessage } from "./message";

const file: FileRef = { id: 3, name: "a.pdf", type: "application/pdf", size: 10, key: base64urlEncode(new Uint8Array(32)), header: "{}", thumb: false };
const place = { conversationId: 12, senderId: 3, localid: "local-1" };

/** An envelope under the message's associated data holding any bytes: what a faulty client might send. */
async function raw(key: Key, text: string) {
  return serializeEnvelope(await encrypt(key, utf8Encode(text), { aad: messageAad(place.conversationId, place.senderId, place.localid) }));
}

describe("the message record", () => {
  it("opens what it sealed, Unicode and files included; the guest is sender 0", async () => {
    const key = await generateSymmetricKey();
    for (const payload of [{ text: "Grüezi 👋\nzweite Zeile" }, { files: [file] }, { text: "x", files: [file] }, {}]) {
      for (const where of [place, { ...place, senderId: 0 }]) {
        const envelope = await sealMessage(key, where, payload);
        expect(envelope).not.toContain("Grüezi");
        expect(await openMessage(key, envelope, where)).toEqual(payload);
      }
    }
  });

  it("refuses to seal what is not a payload, or at a malformed place", async () => {
    const key = await generateSymmetricKey();
    for (const payload of [{ text: 5 }, { files: [{ ...file, key: "short" }] }, { files: file }, null, "text"]) {
      await expectRefusal(sealMessage(key, place, payload as never), "invalid_input");
    }
    for (const where of [{ ...place, localid: "" }, { ...place, localid: "a:b" }, { ...place, localid: "x".repeat(65) }, { ...place, senderId: -1 }, { ...place, conversationId: 0 }]) {
      await expectRefusal(sealMessage(key, where, { text: "x" }), "invalid_input");
    }
  });

  it("an opened message that is not a payload is invalid_payload, other fields are dropped, file entries are checked on use", async () => {
    const key = await generateSymmetricKey();
    for (const text of ["not json", "[]", "null", '{"text":5}', '{"files":{}}', '{"files":[1]}', '{"files":[null]}']) {
      await expectRefusal(openMessage(key, await raw(key, text), place), "invalid_payload");
    }
    const opened = await openMessage(key, await raw(key, '{"text":"hi","extra":1,"files":[{"id":"x"}]}'), place);
    expect(opened).toEqual({ text: "hi", files: [{ id: "x" }] });
    expect(parseFileRef(opened.files![0])).toBeNull();
  });
});

describe("file references", () => {
  it("accept exactly the documented fields and ranges", () => {
    expect(parseFileRef(file)).toEqual(file);
    expect(parseFileRef({ ...file, extra: 1 })).toEqual(file);
    for (const broken of [{ id: 0 }, { name: "" }, { type: "x".repeat(256) }, { size: -1 }, { size: 1.5 }, { key: "k" }, { header: "" }, { thumb: "yes" }]) {
      expect(parseFileRef({ ...file, ...broken }), JSON.stringify(broken)).toBeNull();
    }
    expect(parseFileRef(null)).toBeNull();
  });
});
