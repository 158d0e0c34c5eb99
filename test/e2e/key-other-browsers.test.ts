import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser";
import { aliceAndBob, conversationWith, send, verifiedMessage, visitAs } from "../malicious/scenes";
import type { Member } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { messageBox, messageList } from "./conversation-helpers";
import { gotoApp, keyPopupState, passKeyPopup, renewKeyInSettings } from "./helpers";

/**
 * A user's other browsers learn that their key changed (docs/protocol.md §12, "Other browsers"):
 * Bob has the app open in three browsers; he renews his key in the first. The second is told when
 * it comes back to the front, drops the old key and, after his new secure code (recovered from the
 * server's backup), sends a message that Alice reads as signed. The third stays in front and sends
 * with the old key: the server refuses it (`sender_key_stale`) and the page asks for the code too.
 */
const BOB_NEW_CODE = "bobs-other-browsers-7";

describe("a key renewed in another browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const visit = (member: Member) => visitAs(browser, member);

  it("is noticed by Bob's other browsers, which load the new key with his code and write signed again", { timeout: 420_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const a = await visit(alice);
    const conversation = await conversationWith(a, bob.email, "Other browsers");
    await send(a, "Hello Bob");

    const [renewing, returning, staying] = [await visit(bob), await visit(bob), await visit(bob)];
    for (const page of [returning, staying]) {
      await gotoApp(page, `/conversation/${conversation}`, TEST_CODE);
      await verifiedMessage(page, "Hello Bob").waitFor({ timeout: 30_000 });
    }

    // The first browser renews Bob's key.
    await renewKeyInSettings(renewing, TEST_CODE, BOB_NEW_CODE);

    // The third, still in front, writes with the old key: refused, and it asks for the new key.
    const refused = staying.waitForResponse((r) => r.url().includes(`/api/conversations/${conversation}/append`), { timeout: 30_000 });
    await messageBox(staying).fill("Signed by the old key");
    await messageBox(staying).press("Enter");
    expect((await refused).status()).toBe(409);
    await staying.locator("[data-key-moved]").getByText("Your key was renewed in another browser or tab.", { exact: false }).waitFor({ timeout: 30_000 });
    expect(await keyPopupState(staying, ["missing"])).toBe("missing");

    // The second comes back to the front: it is told, and the new code recovers the new key.
    await returning.bringToFront();
    await returning.evaluate("window.dispatchEvent(new Event('focus'))");
    await returning.locator("[data-key-moved]").getByText("Your key was renewed in another browser or tab.", { exact: false }).waitFor({ timeout: 30_000 });
    await passKeyPopup(returning, BOB_NEW_CODE);
    // (The first conversation's key was sealed for his old key: it waits for Alice to renew it.
    // A new one is sealed for the key he holds now.)
    const after = await conversationWith(returning, alice.email, "After the renewal");
    await send(returning, "Hello Alice, from my other browser");
    await gotoApp(a, `/conversation/${after}`, TEST_CODE);
    await verifiedMessage(a, "Hello Alice, from my other browser").waitFor({ timeout: 30_000 });

    // Nothing the old key signed was stored.
    await gotoApp(a, `/conversation/${conversation}`, TEST_CODE);
    await verifiedMessage(a, "Hello Bob").waitFor({ timeout: 30_000 });
    expect(await messageList(a).getByText("Signed by the old key").count()).toBe(0);
    for (const page of [a, renewing, returning, staying]) await page.context().close();
  });
});
