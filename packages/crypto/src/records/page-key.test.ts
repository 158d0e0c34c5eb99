import { describe, expect, it } from "vitest";
import { exportSymmetricKey, generateSymmetricKey } from "../aead";
import { sealSigned } from "./distribution";
import { expectRefusal } from "../test-support";
import { GROUP_ID, groupSetting } from "./group-test-support";
import { type MotePayload, openCommentForPage, openMote, openMoteForPage, sealCommentForPage, sealMote, sealMoteForPage } from "./mote";
import { generatePageKey, openPageKey, openPageKeyLink, pageDockeyAad, pageKeyContext, sealPageKey, sealPageKeyLink } from "./page-key";

const RID = "AAECAwQFBgcICQoLDA0ODw";
const PAGE = 31;
const keyPlace = { groupId: GROUP_ID, pageId: PAGE, generation: 1 };
const recordPlace = { groupId: GROUP_ID, recordId: RID, pageId: PAGE, generation: 1 };
const card: MotePayload = { title: "Lohnliste 2027 🔒", content: "vertraulich", tags: ["hr"] };

describe("page keys: a restricted page's records under a key sealed for its readers", () => {
  it("names group, page and generation in every string", () => {
    expect(pageKeyContext(keyPlace)).toBe(`pagekey:${GROUP_ID}:${PAGE}:1`);
    expect(pageDockeyAad(recordPlace)).toBe(`pagedockey:${GROUP_ID}:${RID}:${PAGE}:1`);
    expect(() => pageKeyContext({ ...keyPlace, generation: 0 })).toThrow();
  });

  it("a reader opens their copy and the page's card; the group key and another member open nothing", async () => {
    const { log, keysOf, alice, bob, carol, identities } = await groupSetting();
    const verified = await log();
    const pageKey = await generatePageKey();
    const forBob = await sealPageKey(pageKey, keyPlace, verified, identities.get(2)!, alice);
    const bobs = await openPageKey(forBob, keyPlace, verified, bob, keysOf);
    const sealed = await sealMoteForPage(bobs, recordPlace, card);
    expect(sealed.generation).toBe(1);
    expect(await openMoteForPage(pageKey, sealed, recordPlace)).toEqual(card);
    // Carol, a member outside the page: Bob's copy is not hers, and the group key opens nothing of the card.
    await expectRefusal(openPageKey(forBob, keyPlace, verified, carol, keysOf), "bad_signature");
    const epochKey = await generateSymmetricKey();
    await expectRefusal(openMote(epochKey, sealed, { groupId: GROUP_ID, recordId: RID, epoch: 0 }), "decrypt_failed");
    await expectRefusal(openMoteForPage(epochKey, sealed, recordPlace), "decrypt_failed");
    // A card sealed under the group key is not a page-key record either.
    const groupCard = await sealMote(epochKey, { groupId: GROUP_ID, recordId: RID, epoch: 0 }, card);
    await expectRefusal(openMoteForPage(pageKey, groupCard, recordPlace), "decrypt_failed");
  });

  it("a copy or a record moved to another page, group or generation does not open", async () => {
    const { log, keysOf, alice, bob, identities } = await groupSetting();
    const verified = await log();
    const pageKey = await generatePageKey();
    const copy = await sealPageKey(pageKey, keyPlace, verified, identities.get(2)!, alice);
    await expectRefusal(openPageKey(copy, { ...keyPlace, pageId: PAGE + 1 }, verified, bob, keysOf), "bad_signature");
    await expectRefusal(openPageKey(copy, { ...keyPlace, generation: 2 }, verified, bob, keysOf), "bad_signature");
    await expectRefusal(openPageKey(copy, { ...keyPlace, groupId: GROUP_ID + 1 }, verified, bob, keysOf), "invalid_input");
    const sealed = await sealMoteForPage(pageKey, recordPlace, card);
    for (const moved of [{ pageId: PAGE + 1 }, { generation: 2 }, { groupId: GROUP_ID + 1 }, { recordId: "DwAODQwLCgkIBwYFBAMCAQ" }]) {
      await expectRefusal(openMoteForPage(pageKey, sealed, { ...recordPlace, ...moved }), "decrypt_failed");
    }
    const other = await sealMoteForPage(pageKey, recordPlace, { title: "other" });
    await expectRefusal(openMoteForPage(pageKey, { payload: other.payload, dockey: sealed.dockey }, recordPlace), "decrypt_failed");
  });

  it("refuses an unsigned copy, a changed signature, a sealer who is no administrator and a copy someone else sealed in their name", async () => {
    const { log, keysOf, alice, bob, carol, mallory, identities } = await groupSetting();
    const verified = await log();
    const pageKey = await generatePageKey();
    const copy = await sealPageKey(pageKey, keyPlace, verified, identities.get(2)!, alice);
    await expectRefusal(openPageKey({ ...copy, signature: "" }, keyPlace, verified, bob, keysOf), "malformed_record");
    // Another envelope under this signature (the server swapping in a key of its own making): the signature does not cover it.
    const other = await sealPageKey(await generatePageKey(), keyPlace, verified, identities.get(2)!, alice);
    await expectRefusal(openPageKey({ ...copy, sealed: other.sealed }, keyPlace, verified, bob, keysOf), "bad_signature");
    // Carol is a member, not an administrator; Mallory is no member at all.
    await expectRefusal(sealPageKey(pageKey, keyPlace, verified, identities.get(2)!, carol), "not_permitted");
    await expectRefusal(sealPageKey(pageKey, keyPlace, verified, identities.get(2)!, mallory), "not_permitted");
    // A copy a non-administrator member (or a non-member) made by hand, well signed by them, is still refused.
    const raw = await exportSymmetricKey(pageKey);
    for (const sealer of [carol, mallory]) {
      const forged = await sealSigned(
        raw,
        identities.get(2)!,
        pageKeyContext(keyPlace),
        (sealedDigest) => ({ type: "page-key", v: 2, ...keyPlace, recipientUserId: bob.userId, recipientKeyId: bob.keyId, sealedDigest, sealer: sealer.userId, sealerKeyId: sealer.keyId }),
        sealer,
        undefined,
      );
      await expectRefusal(openPageKey(forged, keyPlace, verified, bob, keysOf), "not_permitted");
    }
  });

  it("a new generation carries the one before: a reader given only the newest copy opens older cards; the link is bound to its place", async () => {
    const { log, keysOf, alice, bob, identities } = await groupSetting();
    const verified = await log();
    const first = await generatePageKey();
    const old = await sealMoteForPage(first, recordPlace, card);
    const second = await generatePageKey();
    const place2 = { ...keyPlace, generation: 2 };
    const link = await sealPageKeyLink(second, first, place2);
    const bobs = await openPageKey(await sealPageKey(second, place2, verified, identities.get(2)!, alice), place2, verified, bob, keysOf);
    const back = await openPageKeyLink(bobs, link, place2);
    expect(await openMoteForPage(back, old, recordPlace)).toEqual(card);
    await expectRefusal(openPageKeyLink(bobs, link, { ...place2, pageId: PAGE + 1 }), "decrypt_failed");
    await expectRefusal(openPageKeyLink(first, link, place2), "decrypt_failed");
    await expectRefusal(sealPageKeyLink(second, first, keyPlace), "invalid_input");
  });

  it("comments of a restricted page go under the page key too, and neither kind opens as the other", async () => {
    const pageKey = await generatePageKey();
    const comment = await sealCommentForPage(pageKey, recordPlace, { text: "Nur für HR 👀" });
    expect(await openCommentForPage(pageKey, comment, recordPlace)).toEqual({ text: "Nur für HR 👀" });
    await expectRefusal(openMoteForPage(pageKey, comment, recordPlace), "invalid_payload");
    await expectRefusal(openCommentForPage(pageKey, await sealMoteForPage(pageKey, recordPlace, card), recordPlace), "invalid_payload");
    await expectRefusal(sealCommentForPage(pageKey, recordPlace, { text: "  " }), "invalid_input");
  });
});
