import { describe, expect, it } from "vitest";
import { exportSymmetricKey, generateSymmetricKey } from "./aead";
import { base64urlEncode, hexEncode } from "./bytes";
import { serializeEnvelope } from "./envelope";
import {
  PICKUP_ARGON2ID_FLOOR,
  PICKUP_CODE_LETTERS,
  derivePickupKeys,
  crc24,
  formatPickupCode,
  generatePickupCode,
  generatePickupLinkSecret,
  isDamagedPickupLink,
  isValidPickupCode,
  meetsPickupFloor,
  normalizePickupCode,
  parsePickupFragment,
  pickupFragment,
  pickupLink,
  pickupParams,
  pickupVerifier,
  unwrapPickupKey,
  wrapPickupKey,
} from "./pickup";
import { ARGON2ID_DEFAULTS } from "./secure-code-wrap";
import { expectRefusal } from "./test-support";

const SMALL = { memoryKiB: 1024, iterations: 1, parallelism: 1 };

describe("pickup codes (spec 000 §5, §9)", () => {
  it("has 22 letters without I, L, O, U", () => {
    expect(PICKUP_CODE_LETTERS).toHaveLength(22);
    expect(PICKUP_CODE_LETTERS).not.toMatch(/[ILOU]/);
  });

  it("generates five letters then five digits, all of them used", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const code = generatePickupCode();
      expect(isValidPickupCode(code)).toBe(true);
      for (const c of code) seen.add(c);
    }
    expect(seen.size).toBe(32);
  });

  it.each([
    ["ABABA12121", true],
    ["ABABA-12121", false],
    ["ababa12121", false],
    ["ABABI12121", false],
    ["ABABA1212O", false],
    ["ABAB112121", false],
    ["ABABA121212", false],
  ])("isValidPickupCode(%s) → %s", (code, valid) => expect(isValidPickupCode(code)).toBe(valid));

  it("normalises typed codes: case, spaces, hyphens, O/I/L in the digits", () => {
    expect(normalizePickupCode(" ababa-12121 ")).toBe("ABABA12121");
    expect(normalizePickupCode("ABABA 1O1L1")).toBe("ABABA10111");
    expect(normalizePickupCode("ABABO12121")).toBeNull();
    expect(normalizePickupCode("ABABA1212")).toBeNull();
    expect(formatPickupCode("ABABA12121")).toBe("ABABA-12121");
  });
});

describe("pickup links and fragments", () => {
  const secret = base64urlEncode(new Uint8Array(16).fill(7));

  it("knows CRC-24's check value (OpenPGP: '123456789' → 0x21CF02)", () => {
    expect(crc24("123456789")).toBe(0x21cf02);
    expect(crc24("")).toBe(0xb704ce);
  });

  it("writes version 2: '2', the code, the link secret and a check (37 characters), or '2', the code and a check (15)", () => {
    const fragment = pickupFragment("ABABA12121", secret);
    expect(fragment).toHaveLength(37);
    expect(fragment.startsWith(`2ABABA12121${secret}`)).toBe(true);
    expect(fragment).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(pickupFragment("ABABA12121", null)).toHaveLength(15);
    expect(pickupLink("https://app.example/", "ABABA12121", null)).toBe(`https://app.example/login#${pickupFragment("ABABA12121", null)}`);
    expect(parsePickupFragment(pickupLink("https://app.example", "ABABA12121", secret))).toEqual({ code: "ABABA12121", linkSecret: secret });
    expect(parsePickupFragment(`#${fragment}`)).toEqual({ code: "ABABA12121", linkSecret: secret });
    expect(parsePickupFragment(pickupFragment("ABABA12121", null))).toEqual({ code: "ABABA12121", linkSecret: null });
  });

  it("still reads version 1 links: the code and the link secret (32 characters)", () => {
    expect(parsePickupFragment(`https://app.example/login#ABABA12121${secret}`)).toEqual({ code: "ABABA12121", linkSecret: secret });
    expect(parsePickupFragment(`#ABABA12121${secret}`)).toEqual({ code: "ABABA12121", linkSecret: secret });
  });

  it("reads 10 to 12 characters as code-only (the spec's 12-character fragment)", () => {
    expect(parsePickupFragment("#ABABA12121")).toEqual({ code: "ABABA12121", linkSecret: null });
    expect(parsePickupFragment("ABABA-12121")).toEqual({ code: "ABABA12121", linkSecret: null });
    expect(parsePickupFragment("#ababa12121xy")).toEqual({ code: "ABABA12121", linkSecret: null });
  });

  it("refuses anything else", () => {
    for (const bad of ["", "#short", "#ABABA1212", `#ABABA12121${secret}x`, `#ABABI12121${secret}`, `#ABABA12121${secret.slice(0, 21)}+`, "https://x/#ABABA12121ABC"]) {
      expect(parsePickupFragment(bad)).toBeNull();
    }
    expect(() => pickupFragment("ABABA12121", "short")).toThrow();
  });

  // The point of the check: a damaged link is known before a key is derived, so it never
  // reaches the server as a wrong security code (ten of which lock the pickup).
  it.each([
    ["with a link secret", secret],
    ["code only", null],
  ])("finds every link of version 2 %s that lost characters or had one changed", (_, linkSecret) => {
    const fragment = pickupFragment("HJKMN34567", linkSecret);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let cut = 1; cut < fragment.length; cut++) {
      const short = fragment.slice(0, cut);
      expect(parsePickupFragment(short), short).toBeNull();
      expect(isDamagedPickupLink(`https://app.example/login#${short}`), short).toBe(true);
    }
    for (let i = 0; i < fragment.length; i++) {
      for (const c of alphabet) {
        if (c === fragment[i]) continue;
        const changed = fragment.slice(0, i) + c + fragment.slice(i + 1);
        expect(parsePickupFragment(changed), changed).toBeNull();
      }
      if (i > 0 && fragment[i] !== fragment[i - 1]) {
        const swapped = fragment.slice(0, i - 1) + fragment[i] + fragment[i - 1] + fragment.slice(i + 1);
        expect(parsePickupFragment(swapped), swapped).toBeNull();
      }
    }
    expect(isDamagedPickupLink(`#${fragment}`)).toBe(false);
  });

  it("calls a fragment damaged only when there is one", () => {
    expect(isDamagedPickupLink("")).toBe(false);
    expect(isDamagedPickupLink("#")).toBe(false);
    expect(isDamagedPickupLink(`#ABABA12121${secret}`)).toBe(false);
    expect(isDamagedPickupLink("#ABABA12121")).toBe(false);
    expect(isDamagedPickupLink("#xyz")).toBe(true);
  });

  it("makes 16-byte link secrets", () => {
    expect(generatePickupLinkSecret()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(generatePickupLinkSecret()).not.toBe(generatePickupLinkSecret());
  });
});

describe("the guest's key", () => {
  const code = "HJKMN34567";
  const securityCode = "012345";

  async function made(linkSecret: string | null) {
    const key = await generateSymmetricKey();
    const wrapped = await wrapPickupKey(key, { code, securityCode, linkSecret }, SMALL);
    return { key, wrapped, params: pickupParams(wrapped.envelope) };
  }

  it("round-trips with a link secret; the verifier is SHA-256 of the auth key", async () => {
    const linkSecret = generatePickupLinkSecret();
    const { key, wrapped, params } = await made(linkSecret);
    expect(params).toMatchObject({ ...SMALL, link: 1 });
    const keys = await derivePickupKeys({ code, securityCode, linkSecret }, params);
    expect(keys.auth).toBe(wrapped.auth);
    expect(keys.verifier).toBe(wrapped.verifier);
    expect(await pickupVerifier(keys.auth)).toBe(wrapped.verifier);
    const opened = await unwrapPickupKey(keys, serializeEnvelope(wrapped.envelope), { extractable: true });
    expect(hexEncode(await exportSymmetricKey(opened))).toBe(hexEncode(await exportSymmetricKey(key)));
    expect((await unwrapPickupKey(keys, wrapped.envelope)).extractable).toBe(false);
  });

  it("round-trips code-only", async () => {
    const { wrapped, params } = await made(null);
    expect(params.link).toBe(0);
    await unwrapPickupKey(await derivePickupKeys({ code, securityCode, linkSecret: null }, params), wrapped.envelope);
  });

  it("another security code, link secret or code gives another auth key and does not open", async () => {
    const linkSecret = generatePickupLinkSecret();
    const { wrapped, params } = await made(linkSecret);
    for (const wrong of [
      { code, securityCode: "012346", linkSecret },
      { code, securityCode, linkSecret: generatePickupLinkSecret() },
      { code: "HJKMN34568", securityCode, linkSecret },
    ]) {
      const keys = await derivePickupKeys(wrong, params);
      expect(keys.auth).not.toBe(wrapped.auth);
      await expectRefusal(unwrapPickupKey(keys, wrapped.envelope), "decrypt_failed");
    }
  });

  it("keys derived with other parameters than the envelope's do not open it", async () => {
    const { wrapped, params } = await made(null);
    const keys = await derivePickupKeys({ code, securityCode, linkSecret: null }, { ...params, iterations: 2 });
    await expectRefusal(unwrapPickupKey(keys, wrapped.envelope), "decrypt_failed");
  });

  it("refuses bad input before any work", async () => {
    const { params } = await made(null);
    await expectRefusal(derivePickupKeys({ code, securityCode: "12345", linkSecret: null }, params), "invalid_input");
    await expectRefusal(derivePickupKeys({ code: "ABABA-12121", securityCode, linkSecret: null }, params), "invalid_input");
    // A code-only pickup with a link secret, and a link pickup without one.
    await expectRefusal(derivePickupKeys({ code, securityCode, linkSecret: generatePickupLinkSecret() }, params), "invalid_input");
    await expectRefusal(derivePickupKeys({ code, securityCode, linkSecret: null }, { ...params, link: 1 }), "invalid_input");
    await expectRefusal(derivePickupKeys({ code, securityCode, linkSecret: null }, { ...params, memoryKiB: 1 << 30 }), "invalid_input");
    await expectRefusal(pickupVerifier("short"), "invalid_input");
  });
});

describe("the floor a guest holds the lookup's parameters to (issue 11, item 5)", () => {
  it("is the defaults every creator uses: 64 MiB and 3 passes", () => {
    expect(PICKUP_ARGON2ID_FLOOR).toEqual(ARGON2ID_DEFAULTS);
    expect(PICKUP_ARGON2ID_FLOOR).toEqual({ memoryKiB: 65536, iterations: 3, parallelism: 1 });
  });

  it("admits the defaults and anything stronger, and nothing weaker in memory or passes", () => {
    expect(meetsPickupFloor(ARGON2ID_DEFAULTS)).toBe(true);
    expect(meetsPickupFloor({ memoryKiB: 131072, iterations: 4, parallelism: 2 })).toBe(true);
    expect(meetsPickupFloor({ memoryKiB: 65536, iterations: 3, parallelism: 4 })).toBe(true);
    for (const weak of [SMALL, { memoryKiB: 65535, iterations: 3, parallelism: 1 }, { memoryKiB: 65536, iterations: 2, parallelism: 1 }, { memoryKiB: 262144, iterations: 1, parallelism: 1 }]) {
      expect(meetsPickupFloor(weak)).toBe(false);
    }
    // Garbage is not strong enough either.
    for (const odd of [{ memoryKiB: 65536.5, iterations: 3, parallelism: 1 }, { memoryKiB: "65536", iterations: 3, parallelism: 1 }, { memoryKiB: 65536, iterations: 3, parallelism: 0 }, {}, null]) {
      expect(meetsPickupFloor(odd as never)).toBe(false);
    }
    // A test may hold parameters to a floor of its own.
    expect(meetsPickupFloor(SMALL, SMALL)).toBe(true);
  });
});
