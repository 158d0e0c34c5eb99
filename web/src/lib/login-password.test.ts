import { beforeEach, describe, expect, it, vi } from "vitest";

// The session store reads browser storage; the check only needs the signed-in user's id.
const session = vi.hoisted(() => ({ id: 7 as number | null, listeners: new Set<() => void>() }));
vi.mock("./session", () => ({
  getSession: () => (session.id === null ? null : { id: session.id }),
  subscribeSession: (listener: () => void) => session.listeners.add(listener),
}));
vi.mock("./unlocked-keys", () => ({ getUnlockedKeys: () => null, subscribeUnlockedKeys: () => () => undefined }));

const { forgetLoginPassword, isLoginPassword, rememberLoginPassword } = await import("./login-password");

describe("the login password, kept to refuse it as a secure code (issue 11, item 9)", () => {
  beforeEach(() => {
    session.id = 7;
    forgetLoginPassword();
  });

  it("knows the password it was given (NFC or NFD), and nothing else", async () => {
    rememberLoginPassword(7, "Grüezi-Passwort-1");
    expect(await isLoginPassword("Grüezi-Passwort-1")).toBe(true);
    expect(await isLoginPassword("Gru\u0308ezi-Passwort-1")).toBe(true);
    expect(await isLoginPassword("grüezi-passwort-1")).toBe(false);
    expect(await isLoginPassword("Grüezi-Passwort-1 ")).toBe(false);
  });

  it("answers false when it does not know: nothing remembered, another user, forgotten", async () => {
    expect(await isLoginPassword("anything-1")).toBe(false);
    rememberLoginPassword(8, "someone-else-1");
    expect(await isLoginPassword("someone-else-1")).toBe(false);
    rememberLoginPassword(7, "mine-password-1");
    forgetLoginPassword();
    expect(await isLoginPassword("mine-password-1")).toBe(false);
  });

  it("forgets at logout", async () => {
    rememberLoginPassword(7, "mine-password-1");
    session.id = null;
    for (const listener of session.listeners) listener();
    session.id = 7;
    expect(await isLoginPassword("mine-password-1")).toBe(false);
  });
});
