import { encrypt, generateSymmetricKey, serializeEnvelope, utf8Encode } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { messageAad, openMessage, sealMessage } from "./message-crypto";

describe("message payloads under the conversation key", () => {
  it("opens what it sealed, Unicode included", async () => {
    const key = await generateSymmetricKey();
    const payload = await sealMessage(key, 12, 3, "local-1", { text: "Grüezi 👋\nzweite Zeile" });
    expect(payload).not.toContain("Grüezi");
    expect(await openMessage(key, 12, { source_id: 3, localid: "local-1", payload })).toEqual({ text: "Grüezi 👋\nzweite Zeile" });
  });

  it("refuses a message moved to another conversation, sender or local id, or under another key", async () => {
    const key = await generateSymmetricKey();
    const payload = await sealMessage(key, 12, 3, "local-1", { text: "hello" });
    await expect(openMessage(key, 13, { source_id: 3, localid: "local-1", payload })).rejects.toThrow();
    await expect(openMessage(key, 12, { source_id: 4, localid: "local-1", payload })).rejects.toThrow();
    await expect(openMessage(key, 12, { source_id: 3, localid: "local-2", payload })).rejects.toThrow();
    await expect(openMessage(key, 12, { source_id: 3, localid: null, payload })).rejects.toThrow();
    await expect(openMessage(await generateSymmetricKey(), 12, { source_id: 3, localid: "local-1", payload })).rejects.toThrow();
  });

  it("refuses a payload that is not a message object, sealing or opening", async () => {
    const key = await generateSymmetricKey();
    await expect(sealMessage(key, 1, 1, "x", { text: 5 } as never)).rejects.toThrow("not a message payload");
    const payload = serializeEnvelope(await encrypt(key, utf8Encode('{"text":5}'), { aad: messageAad(1, 1, "x") }));
    await expect(openMessage(key, 1, { source_id: 1, localid: "x", payload })).rejects.toThrow("not a message payload");
  });
});
