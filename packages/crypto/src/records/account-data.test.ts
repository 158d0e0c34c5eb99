import { describe, expect, it } from "vitest";
import { generateAccountKeys } from "../account-keys";
import { encrypt } from "../aead";
import { base64urlEncode, utf8Encode } from "../bytes";
import { parseEnvelope, serializeEnvelope } from "../envelope";
import { hkdfSha256, importAesGcmKey, sha256, x25519 } from "../primitives";
import { exportPublicKeyRaw } from "../account-keys";
import { expectRefusal, mutations } from "../test-support";
import { accountDataAad, accountDataMark, openAccountData, sealAccountData } from "./account-data";

const place = { userId: 7, kind: "pins" } as const;
const value = { v: 1, anchors: ["AAAAAAAAAAAAAAAAAAAAAA"], pins: [{ userId: 3, keyId: "BBBBBBBBBBBBBBBBBBBBBB", seq: 0, verified: true }], note: "Grüezi 👋" };

describe("account data", () => {
  it("opens what it sealed with the same account keys only; the server sees no plaintext", async () => {
    const keys = await generateAccountKeys();
    const sealed = await sealAccountData(keys, place, value);
    expect(sealed).not.toContain("BBBB");
    expect(sealed).not.toContain("Grüezi");
    expect(await openAccountData(keys, place, sealed)).toEqual(value);
    expect(await openAccountData(keys, place, parseEnvelope(sealed, "aead"))).toEqual(value);
    // Two seals of one value differ (random nonces).
    expect(await sealAccountData(keys, place, value)).not.toBe(sealed);
    await expectRefusal(openAccountData(await generateAccountKeys(), place, sealed), "decrypt_failed");
  });

  it("is bound to its owner and kind", async () => {
    const keys = await generateAccountKeys();
    const sealed = await sealAccountData(keys, place, value);
    await expectRefusal(openAccountData(keys, { ...place, userId: 8 }, sealed), "decrypt_failed");
    expect(accountDataAad(place)).toBe("account-data:pins:7");
    for (const bad of [{ ...place, userId: 0 }, { ...place, userId: 1.5 }, { ...place, kind: "other" }, null]) {
      await expectRefusal(sealAccountData(keys, bad as never, value), "invalid_input");
      await expectRefusal(openAccountData(keys, bad as never, sealed), "invalid_input");
    }
  });

  it("derives its key as documented: HKDF over the owner's X25519 with themself, salted with the public key", async () => {
    const keys = await generateAccountKeys();
    const shared = await x25519(keys.encrypt.privateKey, keys.encrypt.publicKey);
    const raw = await hkdfSha256(shared, await exportPublicKeyRaw(keys.encrypt.publicKey), utf8Encode("sealwork/v2/account-data"), 32);
    const key = await importAesGcmKey(raw);
    const made = serializeEnvelope(await encrypt(key, utf8Encode('{"a":1}'), { aad: "account-data:pins:7" }));
    expect(await openAccountData(keys, place, made)).toEqual({ a: 1 });
    const notJson = serializeEnvelope(await encrypt(key, utf8Encode("{not json"), { aad: "account-data:pins:7" }));
    await expectRefusal(openAccountData(keys, place, notJson), "invalid_payload");
  });

  it("refuses every change of the envelope, and what is not JSON to seal", async () => {
    const keys = await generateAccountKeys();
    const sealed = await sealAccountData(keys, place, value);
    for (const mutation of mutations(JSON.parse(sealed) as object, { everyBit: false })) {
      await expectRefusal(openAccountData(keys, place, mutation.value as never), ...(mutation.codes ?? [])).catch((failure: Error) => {
        throw new Error(`${mutation.label}: ${failure.message}`);
      });
    }
    await expectRefusal(sealAccountData(keys, place, { f: () => 1 }), "invalid_input");
    await expectRefusal(sealAccountData(keys, place, undefined), "invalid_input");
  });

  it("marks a value as documented, the same sealed and opened, another for any change", async () => {
    const keys = await generateAccountKeys();
    const mark = await accountDataMark(value);
    expect(await accountDataMark(await openAccountData(keys, place, await sealAccountData(keys, place, value)))).toBe(mark);
    // Key order does not matter (canonical JSON); any change of a value does.
    expect(await accountDataMark({ note: value.note, pins: value.pins, anchors: value.anchors, v: 1 })).toBe(mark);
    expect(await accountDataMark({ ...value, v: 2 })).not.toBe(mark);
    const text = '{"anchors":["AAAAAAAAAAAAAAAAAAAAAA"],"note":"Grüezi 👋","pins":[{"keyId":"BBBBBBBBBBBBBBBBBBBBBB","seq":0,"userId":3,"verified":true}],"v":1}';
    expect(mark).toBe(base64urlEncode((await sha256(utf8Encode(`sealwork/v2/account-data-mark\n${text}`))).subarray(0, 16)));
    expect(mark).toHaveLength(22);
    await expectRefusal(accountDataMark(undefined), "invalid_input");
  });
});
