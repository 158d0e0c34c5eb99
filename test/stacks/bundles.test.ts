/**
 * Each area's Lambda and each worker, bundled as `sst deploy` bundles them (scripts/bundle-sizes.ts:
 * SST's esbuild and options, minified, the AWS SDK left to the runtime), must stay small and carry
 * only what its routes import.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { contracts } from "@sealwork/contracts";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { routesByArea, workers } from "../../functions/routes";
import { measureBundles, ROOT, type Bundle } from "../../scripts/bundle-sizes";

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

  it("keeps the entities and error texts its modules import for them (core's sideEffects)", () => {
    // Each domain's entities.ts and errors.ts registers itself when imported; a module imports
    // those it uses (test/unit/registrations.test.ts), often for that effect alone, which esbuild
    // keeps only because packages/core/package.json names them in sideEffects.
    for (const { name, inputs } of bundles) {
      const dropped = Object.entries(inputs)
        .filter(([, { bytes }]) => bytes > 0)
        .flatMap(([input, { imports }]) => imports.filter((path) => /^packages\/core\/src\/[^/]+\/(entities|errors)\.ts$/.test(path) && !(inputs[path]!.bytes > 0)).map((path) => `${input} → ${path}`));
      expect(dropped, name).toEqual([]);
    }
    const registering = bundles.find((b) => b.name === "area pickups")!.inputs["packages/core/src/pickup/entities.ts"];
    expect(registering?.bytes, "the pickups area registers the pickup entities").toBeGreaterThan(0);
  });

  it("carries only the entities and error texts of the domains its routes reach", () => {
    const carried = (name: string) =>
      Object.entries(bundles.find((b) => b.name === name)!.inputs)
        .filter(([input, { bytes }]) => bytes > 0 && /^packages\/core\/src\/[^/]+\/(entities|errors)\.ts$/.test(input))
        .map(([input]) => input.replace("packages/core/src/", ""));
    // The mail worker sends what it is given; the identities area never reaches groups or drives.
    expect(carried("worker mail")).toEqual([]);
    expect(carried("area identities")).not.toContain("group/entities.ts");
    expect(carried("area identities")).not.toContain("drive/entities.ts");
    expect(carried("area pickups")).not.toContain("group/entities.ts");
  });

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

/**
 * The bundles as Lambda would load them: minified (names mangled), ES modules, the AWS SDK from
 * outside. Each area's bundle is imported and asked one of its members-only routes without a
 * token, which runs the whole stack up to the access rule (middy, CORS, logging, the entities
 * built at import, the token check) and must answer the app's 401, not crash.
 */
describe("the bundles run", () => {
  const dir = join(ROOT, ".sst", "bundle-smoke");

  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    const settings: Record<string, string> = {
      TABLE_NAME: "smoke",
      BUCKET_NAME: "smoke",
      MAIL_QUEUE_URL: "http://localhost:1/mail",
      PURGE_ATTACHMENTS_QUEUE_URL: "http://localhost:1/purge",
      PICKUP_SWEEP_QUEUE_URL: "http://localhost:1/sweep",
      UPLOAD_SWEEP_QUEUE_URL: "http://localhost:1/upload-sweep",
      KEY_MOVED_QUEUE_URL: "http://localhost:1/key-moved",
      JWT_PRIVATE_JWK: "{}",
      APP_URL: "http://localhost:5173",
    };
    for (const [name, value] of Object.entries(settings)) vi.stubEnv(name, value);
  });
  afterAll(() => vi.unstubAllEnvs());

  async function load(bundle: Bundle): Promise<Record<string, unknown>> {
    const file = join(dir, `${bundle.name.replace(" ", "-")}.mjs`);
    // Without its source map (Lambda gets the map apart from the code).
    writeFileSync(file, bundle.code.replace(/\/\/# sourceMappingURL=.*\s*$/, ""));
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  }

  for (const [area, served] of routesByArea()) {
    it(`serves the ${area} area from its minified bundle`, async () => {
      const route = served.find(({ key }) => !contracts[key].access.includes("anonymous"))!;
      const { handler } = (await load(bundles.find((b) => b.name === `area ${area}`)!)) as {
        handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
      };
      const path = route.path.replaceAll(/\{[^}]+\}/g, "1");
      const event = {
        version: "2.0",
        routeKey: `${route.method} ${route.path}`,
        rawPath: path,
        rawQueryString: "",
        headers: { origin: "http://localhost:5173" },
        pathParameters: {},
        isBase64Encoded: false,
        requestContext: { requestId: "smoke", http: { method: route.method, path, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "smoke" } },
      } as unknown as APIGatewayProxyEventV2;
      const response = await handler(event, {} as Context);
      expect(response.statusCode, String(response.body)).toBe(401);
      expect(JSON.parse(String(response.body))).toMatchObject({ code: "unauthenticated" });
    });
  }

  for (const kind of Object.keys(workers)) {
    it(`loads the ${kind} worker from its minified bundle`, async () => {
      const { handler } = await load(bundles.find((b) => b.name === `worker ${kind}`)!);
      expect(typeof handler).toBe("function");
    });
  }
});
