import { base64urlEncode, keyId, serializeEnvelope } from "@sealwork/crypto";
import type { Page } from "playwright-core";
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

type Person = Awaited<ReturnType<typeof createSession>>;

/** A signature envelope of the right shape: the server checks shapes, so these messages show as not verified; the paging is what is tested. */
const signature = serializeEnvelope({ v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(new Uint8Array(64).fill(7)) } as never);

/** `count` messages appended to the group's conversation over the API, oldest first: their ids. */
async function seeded(ann: Person, group: number, count: number): Promise<number[]> {
  const key = await conversationKey();
  // Named by Ann's current key (the server takes no other), as her browser made it.
  const { keypair } = (await getAs<{ keypair: { encrypt_public: string; sign_public: string } }>(ann, "/api/keypairs")).body;
  const senderKeyId = await keyId({ encryptPublic: keypair.encrypt_public, signPublic: keypair.sign_public });
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const localid = `seed-${i}`;
    const reply = await postAs<{ mote: { id: number } }>(ann, `/api/groups/${group}/conversation/append`, { localid, payload: await encrypted(key, localid), epoch: 0, signature, sender_key_id: senderKeyId });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    ids.push(reply.body.mote.id);
  }
  return ids;
}

/**
 * Ann's group with `count` messages, its conversation open in her browser: the ids, oldest first,
 * and the `before` cursors of the older pages asked for, in order. `hold`: the answer to the page
 * below ids[hold.below] waits for `hold.until`.
 */
async function conversationOpened(signedIn: (person: Person) => Promise<Page>, count: number, hold?: { below: number; until: Promise<void> }) {
  const tag = Math.random().toString(36).slice(2, 7);
  const ann = await createSession({ admin: true, superAdmin: true, name: `Ann ${tag}` });
  const a = (await signedIn(ann))!;
  const group = await groupMadeIn(a, `Talk ${tag}`, []);
  const ids = await seeded(ann, group, count);
  const asked: number[] = [];
  await a.context().route(`**/api/groups/${group}/conversation?before=*`, async (route) => {
    const before = Number(new URL(route.request().url()).searchParams.get("before"));
    asked.push(before);
    if (hold && before === ids[hold.below]) await hold.until;
    await route.continue();
  });
  await a.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: `Pages of Talk ${tag}` }).getByRole("link", { name: "Conversation" }).click();
  await a.locator('[data-group-conversation="ready"]').waitFor({ timeout: 30_000 });
  return { a, ids, asked };
}

describe("the group conversation's history", () => {
  const { signedIn } = browserForSuite();

  it("pages back with the older pages fetched ahead in the page-chain worker: one look back asks for the page below the one asked for too", { timeout: 300_000 }, async () => {
    // 120 messages: the newest page (50), then pages below ids[70] (50) and below ids[20] (20).
    const { a, ids, asked } = await conversationOpened(signedIn, 120);
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

  it("leaving the conversation while older pages are fetched ahead stops the chain after the page on its way: no page is asked for after it", { timeout: 300_000 }, async () => {
    // 220 messages: one look back asks for the page below ids[170] and, ahead, below ids[120] and
    // below ids[70] (as many ahead as the history holds then); the page below ids[20] waits for the next.
    // The first page ahead is held until the conversation has been left.
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    const { a, ids, asked } = await conversationOpened(signedIn, 220, { below: 120, until });
    await expect.poll(() => messageList(a).evaluate((el) => el.scrollTop > 0)).toBe(true);
    await messageList(a).evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(() => asked, { timeout: 30_000 }).toEqual([ids[170], ids[120]]);

    // Away to the settings while that page is on its way; then its answer comes.
    await a.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Settings" }).click();
    await a.locator('[data-group-conversation]').waitFor({ state: "detached" });
    const answered = a.waitForResponse((response) => response.url().includes(`before=${ids[120]}`));
    release();
    await answered;
    // Had the screen's closing not stopped them, the chain (in the worker) or the look back that
    // waited for that page (on the page's thread) would ask for the page below ids[70] at once.
    await expect(a.waitForRequest((request) => request.url().includes(`before=${ids[70]}`), { timeout: 2_000 })).rejects.toThrow();
    expect(asked).toEqual([ids[170], ids[120]]);
    await a.context().close();
  });
});
