/**
 * Each area's Lambda and each worker, bundled as `sst deploy` bundles them (scripts/bundle-sizes.ts:
 * SST's esbuild and options, minified, the AWS SDK left to the runtime), must stay small and carry
 * only what its routes import.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { routesByArea } from "../../functions/routes";
import { measureBundles, type Bundle } from "../../scripts/bundle-sizes";

/** 500 kB of minified code per area. */
const MAX_AREA_BYTES = 500_000;

let bundles: Bundle[];

beforeAll(async () => {
  bundles = await measureBundles();
}, 120_000);

describe("area bundles", () => {
  for (const area of routesByArea().keys()) {
    it(`keeps the ${area} area under 500 kB`, () => {
      const { bytes, packages } = bundles.find((b) => b.name === `area ${area}`)!;
      const largest = Object.entries(packages).slice(0, 5).map(([name, size]) => `${name} ${Math.round(size / 1000)} kB`);
      expect(bytes, `${area}: ${Math.round(bytes / 1000)} kB, largest ${largest.join(", ")}`).toBeLessThan(MAX_AREA_BYTES);
    });
  }

  it("carries no QR code drawing (the browser draws the TOTP setup's code)", () => {
    for (const { name, packages } of bundles) for (const pkg of ["qrcode", "pngjs"]) expect(pkg in packages, `${pkg} in ${name}`).toBe(false);
  });

  it("carries the mail composer in the mail worker only (the others merely queue a message)", () => {
    for (const { name, packages } of bundles) expect("nodemailer" in packages, `nodemailer in ${name}`).toBe(name === "worker mail");
  });

  it("carries Argon2id of hash-wasm, not all its algorithms, and no AWS SDK", () => {
    for (const { name, packages } of bundles) {
      expect(packages["hash-wasm"] ?? 0, name).toBeLessThan(40_000);
      expect(Object.keys(packages).filter((pkg) => pkg.startsWith("@aws-sdk/")), name).toEqual([]);
    }
  });
});
