import { base64urlEncode, keyId, serializeEnvelope } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { conversationKey, encrypted } from "../support/conversations";
import { getAs, postAs } from "../support/groups";
import { createSession } from "../support/users";
import { groupMadeIn } from "./card-pages";
import { browserForSuite, messageCount, messageList, olderPagesFetchedByThePage } from "./conversation-helpers";

/**
 * The group conversation pages back as a conversation does (issue 9): older pages are fetched
 * ahead of the list by the page-chain worker, not one request per look back from the page.
 */

/** A signature envelope of the right shape: the server checks shapes, so these messages show as not verified; the paging is what is tested. */
const signature = serializeEnvelope({ v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(new Uint8Array(64).fill(7)) } as never);

describe("the group conversation's history", () => {
  const { signedIn } = browserForSuite();

  it("pages back with the older pages fetched ahead in the page-chain worker: one look back asks for the page below the one asked for too", { timeout: 300_000 }, async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const ann = await createSession({ admin: true, superAdmin: true, name: `Ann ${tag}` });
    const a = (await signedIn(ann))!;
    const group = await groupMadeIn(a, `Talk ${tag}`, []);

    // 120 messages: the newest page (50), then pages below ids[70] (50) and below ids[20] (20).
    const key = await conversationKey();
    // Named by Ann's current key (the server takes no other), as her browser made it.
    const { keypair } = (await getAs<{ keypair: { encrypt_public: string; sign_public: string } }>(ann, "/api/keypairs")).body;
    const senderKeyId = await keyId({ encryptPublic: keypair.encrypt_public, signPublic: keypair.sign_public });
    const ids: number[] = [];
    for (let i = 1; i <= 120; i++) {
      const localid = `seed-${i}`;
      const reply = await postAs<{ mote: { id: number } }>(ann, `/api/groups/${group}/conversation/append`, { localid, payload: await encrypted(key, localid), epoch: 0, signature, sender_key_id: senderKeyId });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      ids.push(reply.body.mote.id);
    }

    const asked: number[] = [];
    await a.context().route(`**/api/groups/${group}/conversation?before=*`, async (route) => {
      asked.push(Number(new URL(route.request().url()).searchParams.get("before")));
      await route.continue();
    });
    await a.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: `Pages of Talk ${tag}` }).getByRole("link", { name: "Conversation" }).click();
    await a.locator('[data-group-conversation="ready"]').waitFor({ timeout: 30_000 });
    expect(await messageCount(a)).toBe(50);
    // The worker started with the newest page, before any look back.
    await expect.poll(() => a.workers().some((w) => w.url().includes("page-chain.worker"))).toBe(true);
    expect(asked).toEqual([]);

    // One look back: the page below the newest, and the one below that fetched ahead, both by the worker.
    await expect.poll(() => messageList(a).evaluate((el) => el.scrollTop > 0)).toBe(true);
    await messageList(a).evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(() => asked, { timeout: 30_000 }).toEqual([ids[70], ids[20]]);
    expect(await olderPagesFetchedByThePage(a)).toBe(0);

    // Scrolled to the start: every message, none asked for twice.
    await expect
      .poll(
        async () => {
          await messageList(a).evaluate((el) => el.scrollTo(0, 0));
          return messageCount(a);
        },
        { timeout: 30_000 },
      )
      .toBe(120);
    await a.getByText("(no more messages)").waitFor();
    expect(asked).toEqual([ids[70], ids[20]]);
    await a.context().close();
  });
});
