import { ARGON2ID_DEFAULTS, derivePickupKeys } from "@sealwork/crypto";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { errorDialogText } from "../e2e/helpers";
import { type MadePickup, createPickup } from "../support/pickups";
import { createSession } from "../support/users";
import type { MaliciousSuite } from "./harness";

/** A KDF downgrade (issue 11, item 5): the pickup lookup answers Argon2id parameters far below the floor. */

const WEAK = { memoryKiB: 1024, iterations: 1 };

const pickupPopup = (page: Page) => page.locator('[data-key-state="pickup"]');

/** Six-digit security codes around `code` (itself among them): a slice of the 10^6 a server would try. */
function guessesAround(code: string, count = 20): string[] {
  return Array.from({ length: count }, (_, i) => String((Number(code) + i - count / 2 + 1_000_000) % 1_000_000).padStart(6, "0"));
}

export function pickupAttacks(suite: MaliciousSuite): void {
  suite.attack("downgraded pickup parameters: the lookup answers Argon2id with 1 MiB and 1 pass", {
    check: "pickup-floor",
    async mount(run) {
      const creator = await createSession();
      // Made as a browser makes it (64 MiB, 3 passes); the server mails the link, so it knows all but the security code.
      const pickup: MadePickup = await createPickup(creator, { params: ARGON2ID_DEFAULTS });
      const told: { salt?: string } = {};
      const lie = run.proxy.lie("GET", `/api/pickup/${pickup.lookup}`, (meta) => {
        told.salt = meta.salt;
        return { ...meta, ...WEAK };
      });
      const page = await run.visitor();
      await page.goto(run.viaProxy(pickup.link));
      return { page, lie, pickup, told };
    },
    async refused({ page, lie, pickup }, run) {
      const text = await errorDialogText(page);
      expect(text).toContain("This pickup asks for weaker protection than this app accepts (1 MiB and 1 passes; at least 64 MiB and 3 passes are needed).");
      expect(text).toContain("Nothing was computed or sent.");
      expect(lie.hits).toBeGreaterThan(0);
      // Nothing derived: no security code asked for, no auth key shown to the server.
      expect(await pickupPopup(page).count()).toBe(0);
      expect(run.proxy.sentTo("POST", `/api/pickup/recover/${pickup.lookup}`)).toEqual([]);
    },
    async works({ page, lie, pickup, told }, run) {
      await pickupPopup(page).getByLabel("Security code").fill(pickup.securityCode);
      await pickupPopup(page).getByRole("button", { name: "Open pickup" }).click();
      const recover = () => run.proxy.sentTo("POST", `/api/pickup/recover/${pickup.lookup}`);
      await expect.poll(() => recover().length, { timeout: 30_000 }).toBe(1);
      expect(lie.hits).toBeGreaterThan(0);
      // The guest derived with 1 MiB and 1 pass and showed the result: the server tests security
      // codes against it offline, at 1 MiB a guess, and finds the right one.
      const { auth } = recover()[0]!.body as { auth: string };
      const params = { salt: told.salt!, ...WEAK, parallelism: ARGON2ID_DEFAULTS.parallelism, link: 1 as const };
      const hits: string[] = [];
      for (const guess of guessesAround(pickup.securityCode)) {
        const keys = await derivePickupKeys({ code: pickup.code, securityCode: guess, linkSecret: pickup.linkSecret }, params);
        if (keys.auth === auth) hits.push(guess);
      }
      expect(hits).toEqual([pickup.securityCode]);
    },
  });
}
