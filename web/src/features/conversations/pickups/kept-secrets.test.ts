import { describe, expect, it } from "vitest";
import { forgetSecrets, keepSecrets, parseSecrets, readSecrets } from "./kept-secrets";

function memoryStore() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

const secrets = { code: "ABABA12121", securityCode: "123456", linkSecret: "AAAAAAAAAAAAAAAAAAAAAA" };

describe("kept pickup secrets", () => {
  it("keeps them for the session unless remembered, and reads either", () => {
    const stores = { session: memoryStore(), local: memoryStore() };
    keepSecrets(7, secrets, false, stores);
    expect(stores.session.map.size).toBe(1);
    expect(stores.local.map.size).toBe(0);
    keepSecrets(8, { ...secrets, linkSecret: null }, true, stores);
    expect(stores.local.map.size).toBe(1);
    expect(readSecrets(7, stores)).toEqual(secrets);
    expect(readSecrets(8, stores)).toEqual({ ...secrets, linkSecret: null });
    expect(readSecrets(9, stores)).toBeNull();
    forgetSecrets(7, stores);
    expect(readSecrets(7, stores)).toBeNull();
  });

  it("ignores damaged entries", () => {
    expect(parseSecrets("{")).toBeNull();
    expect(parseSecrets(JSON.stringify({ ...secrets, code: "ABABA-12121" }))).toBeNull();
    expect(parseSecrets(JSON.stringify({ ...secrets, securityCode: "12345" }))).toBeNull();
  });
});
