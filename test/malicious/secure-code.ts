import { isCryptoError } from "@sealwork/crypto";
import { expect } from "vitest";
import { http, login } from "../support/api";
import { createUser } from "../support/users";
import { keyPopupState, passKeyPopup, signIn } from "../e2e/helpers";
import type { MaliciousSuite } from "./harness";
import { openBackup } from "../support/identities";

/** Encryption switched off (issue 11, item 3): the key-state answer claims secure codes are off and names a code the server knows. */

const SERVER_CODE = "server-chosen-code-1";
const OWN_CODE = "my-own-secure-code-5";

/** Whether the account's backup on the server opens with `code`: what the server can do with a code it knows. */
async function backupOpensWith(user: { id: number; password?: string }, code: string): Promise<boolean> {
  const session = await login(user.id, user.password!);
  const state = await http<{ keypair: { id: number } | null }>("GET", "/api/keypairs", { token: session.api_token });
  const backup = await http<{ recover: unknown }>("POST", `/api/keypairs/${state.body.keypair!.id}/recover`, { token: session.api_token });
  try {
    await openBackup(backup.body.recover, code, session.api_token);
    return true;
  } catch (error) {
    if (isCryptoError(error, "decrypt_failed")) return false;
    throw error;
  }
}

export function secureCodeAttacks(suite: MaliciousSuite): void {
  suite.attack("secure code switched off: the key-state answer says disableSecurecode and hands out a defaultSecurecode it knows", {
    check: "securecode-from-build",
    async mount(run) {
      const user = await createUser({ name: "Code Keeper" });
      const lie = run.proxy.lie("GET", "/api/keypairs", (state) =>
        "instance" in state ? { ...state, instance: { ...state.instance, disableSecurecode: true, defaultSecurecode: SERVER_CODE } } : state,
      );
      const page = await run.visitor();
      await signIn(page, user.email, user.password!, null);
      return { page, lie, user };
    },
    async refused({ page, lie, user }, run) {
      // The popup asks for the user's own code; it says nothing of a default code.
      expect(await keyPopupState(page, ["fresh", "unlock", "missing", "error"])).toBe("fresh");
      const dialog = page.getByRole("dialog", { name: "Secure key" });
      await dialog.getByRole("heading", { name: "Choose your secure code" }).waitFor();
      expect(await dialog.getByText("This instance uses a default secure code").count()).toBe(0);
      expect(lie.hits).toBeGreaterThan(0);
      await passKeyPopup(page, OWN_CODE);
      await page.getByRole("heading", { name: "Hello, Code Keeper!" }).waitFor();
      // One key was registered: under the user's code, never under the server's.
      expect(run.proxy.sentTo("POST", "/api/keypairs")).toHaveLength(1);
      expect(await backupOpensWith(user, OWN_CODE)).toBe(true);
      expect(await backupOpensWith(user, SERVER_CODE)).toBe(false);
    },
    async works({ page, lie, user }, run) {
      // Nobody is asked: the key is made and wrapped under the server's code, which opens its backup.
      await page.getByRole("heading", { name: "Hello, Code Keeper!" }).waitFor({ timeout: 30_000 });
      expect(lie.hits).toBeGreaterThan(0);
      expect(run.proxy.sentTo("POST", "/api/keypairs")).toHaveLength(1);
      expect(await backupOpensWith(user, SERVER_CODE)).toBe(true);
    },
  });
}
