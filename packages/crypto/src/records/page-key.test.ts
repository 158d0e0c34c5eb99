import { describe, expect, it } from "vitest";
import { exportSymmetricKey, generateSymmetricKey } from "../aead";
import { sealSigned } from "./distribution";
import { encryptRecord } from "./place";
import { expectRefusal } from "../test-support";
import { GROUP_ID, groupSetting } from "./group-test-support";
import { type MotePayload, openCommentForPage, openMote, openMoteForPage, sealCommentForPage, sealMote, sealMoteForPage } from "./mote";
import { type OpenedPageKey, generatePageKey, openPageKey, openPageKeyLink, pageDockeyAad, pageKeyChainAad, pageKeyContext, pageKeyLinkDigest, sealPageKey, sealPageKeyLink } from "./page-key";

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
    const forBob = await sealPageKey(pageKey, keyPlace, null, verified, identities.get(2)!, alice);
    const bobs = await openPageKey(forBob, keyPlace, verified, bob, keysOf);
    expect(bobs.linkDigest).toBeNull();
    const sealed = await sealMoteForPage(bobs.key, recordPlace, card);
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
    const copy = await sealPageKey(pageKey, keyPlace, null, verified, identities.get(2)!, alice);
    await expectRefusal(openPageKey(copy, { ...keyPlace, pageId: PAGE + 1 }, verified, bob, keysOf), "bad_signature");
    // A first generation's copy names no link: as a later generation's it is refused before its signature is looked at.
    await expectRefusal(openPageKey(copy, { ...keyPlace, generation: 2 }, verified, bob, keysOf), "bad_chain");
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
    const copy = await sealPageKey(pageKey, keyPlace, null, verified, identities.get(2)!, alice);
    await expectRefusal(openPageKey({ ...copy, signature: "" }, keyPlace, verified, bob, keysOf), "malformed_record");
    // Another envelope under this signature (the server swapping in a key of its own making): the signature does not cover it.
    const other = await sealPageKey(await generatePageKey(), keyPlace, null, verified, identities.get(2)!, alice);
    await expectRefusal(openPageKey({ ...copy, sealed: other.sealed }, keyPlace, verified, bob, keysOf), "bad_signature");
    // Carol is a member, not an administrator; Mallory is no member at all.
    await expectRefusal(sealPageKey(pageKey, keyPlace, null, verified, identities.get(2)!, carol), "not_permitted");
    await expectRefusal(sealPageKey(pageKey, keyPlace, null, verified, identities.get(2)!, mallory), "not_permitted");
    // A copy a non-administrator member (or a non-member) made by hand, well signed by them, is still refused.
    const raw = await exportSymmetricKey(pageKey);
    for (const sealer of [carol, mallory]) {
      const forged = await sealSigned(
        raw,
        identities.get(2)!,
        pageKeyContext(keyPlace),
        (sealedDigest) => ({ type: "page-key", v: 2, ...keyPlace, linkDigest: null, recipientUserId: bob.userId, recipientKeyId: bob.keyId, sealedDigest, sealer: sealer.userId, sealerKeyId: sealer.keyId }),
        sealer,
        undefined,
      );
      await expectRefusal(openPageKey({ ...forged, linkDigest: null }, keyPlace, verified, bob, keysOf), "not_permitted");
    }
  });

  it("a new generation carries the one before: a reader given only the newest copy opens older cards; the link is bound to its place", async () => {
    const { log, keysOf, alice, bob, identities } = await groupSetting();
    const verified = await log();
    const first: OpenedPageKey = { key: await generatePageKey(), linkDigest: null };
    const old = await sealMoteForPage(first.key, recordPlace, card);
    const second = await generatePageKey();
    const place2 = { ...keyPlace, generation: 2 };
    const link = await sealPageKeyLink(second, first, place2);
    const copy = await sealPageKey(second, place2, await pageKeyLinkDigest(link), verified, identities.get(2)!, alice);
    expect(copy.linkDigest).toBe(await pageKeyLinkDigest(link));
    const bobs = await openPageKey(copy, place2, verified, bob, keysOf);
    const back = await openPageKeyLink(bobs, link, place2);
    expect(back.linkDigest).toBeNull();
    expect(await openMoteForPage(back.key, old, recordPlace)).toEqual(card);
    await expectRefusal(openPageKeyLink(bobs, link, { ...place2, pageId: PAGE + 1 }), "decrypt_failed");
    await expectRefusal(openPageKeyLink({ ...first, linkDigest: bobs.linkDigest }, link, place2), "decrypt_failed");
    await expectRefusal(sealPageKeyLink(second, first, keyPlace), "invalid_input");
    // A second generation's copy names its link; a first generation's names none.
    await expectRefusal(sealPageKey(second, place2, null, verified, identities.get(2)!, alice), "invalid_input");
    await expectRefusal(sealPageKey(second, keyPlace, bobs.linkDigest, verified, identities.get(2)!, alice), "invalid_input");
  });

  it("the signature covers the link: a link swapped in by the server or a reader, or a copy's link digest changed, is refused", async () => {
    const { log, keysOf, alice, bob, identities } = await groupSetting();
    const verified = await log();
    const first: OpenedPageKey = { key: await generatePageKey(), linkDigest: null };
    const second = await generatePageKey();
    const place2 = { ...keyPlace, generation: 2 };
    const link = await sealPageKeyLink(second, first, place2);
    const copy = await sealPageKey(second, place2, await pageKeyLinkDigest(link), verified, identities.get(2)!, alice);
    const bobs = await openPageKey(copy, place2, verified, bob, keysOf);
    // Bob holds generation 2's key: a link of his making to a key he chose is well formed and opens, but it is not the signed one.
    const forged = await sealPageKeyLink(bobs.key, { key: await generatePageKey(), linkDigest: null }, place2);
    await expectRefusal(openPageKeyLink(bobs, forged, place2), "bad_chain");
    await expectRefusal(openPageKeyLink({ ...bobs, linkDigest: null }, link, place2), "bad_chain");
    // The copy's digest changed to the forged link's: the signature does not cover it; nor a first generation's "no link".
    await expectRefusal(openPageKey({ ...copy, linkDigest: await pageKeyLinkDigest(forged) }, place2, verified, bob, keysOf), "bad_signature");
    await expectRefusal(openPageKey({ ...copy, linkDigest: null }, place2, verified, bob, keysOf), "bad_chain");
    const { linkDigest: _dropped, ...bare } = copy;
    await expectRefusal(openPageKey(bare as typeof copy, place2, verified, bob, keysOf), "malformed_record");
  });

  it("each link vouches for the one before: a reader given only the third generation walks to the first, and a swapped second link is refused", async () => {
    const { log, keysOf, alice, bob, identities } = await groupSetting();
    const verified = await log();
    const keys = [await generatePageKey(), await generatePageKey(), await generatePageKey()];
    const place = (generation: number) => ({ ...keyPlace, generation });
    const link2 = await sealPageKeyLink(keys[1]!, { key: keys[0]!, linkDigest: null }, place(2));
    const link3 = await sealPageKeyLink(keys[2]!, { key: keys[1]!, linkDigest: await pageKeyLinkDigest(link2) }, place(3));
    const copy3 = await sealPageKey(keys[2]!, place(3), await pageKeyLinkDigest(link3), verified, identities.get(2)!, alice);
    const third = await openPageKey(copy3, place(3), verified, bob, keysOf);
    const second = await openPageKeyLink(third, link3, place(3));
    expect(second.linkDigest).toBe(await pageKeyLinkDigest(link2));
    const old = await sealMoteForPage(keys[0]!, recordPlace, card);
    expect(await openMoteForPage((await openPageKeyLink(second, link2, place(2))).key, old, recordPlace)).toEqual(card);
    // Someone holding generation 2's key makes another second link: the third's link carries the true one's digest.
    const forged = await sealPageKeyLink(keys[1]!, { key: await generatePageKey(), linkDigest: null }, place(2));
    await expectRefusal(openPageKeyLink(second, forged, place(2)), "bad_chain");
    // A third link must carry the second's digest; a second generation's link (no digest inside) under the third's name does not open as one.
    await expectRefusal(sealPageKeyLink(keys[2]!, { key: keys[1]!, linkDigest: null }, place(3)), "invalid_input");
    const bare = await encryptRecord(keys[2]!, await exportSymmetricKey(keys[1]!), pageKeyChainAad(place(3)), undefined);
    await expectRefusal(openPageKeyLink({ key: keys[2]!, linkDigest: await pageKeyLinkDigest(bare) }, bare, place(3)), "invalid_payload");
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
