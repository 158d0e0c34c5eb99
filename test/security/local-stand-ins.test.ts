import { describe, expect, it, inject } from "vitest";

/**
 * The stand-ins run on the developer's machine while they browse the web: no page of another
 * origin may talk to them through the browser.
 */
describe("the local stand-ins refuse other origins", () => {
  it("DynamoDB Local answers no CORS preflight from a foreign origin", async () => {
    const endpoint = inject("runtime").env.DYNAMODB_ENDPOINT!;
    const preflight = await fetch(endpoint, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-amz-target" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const simple = await fetch(endpoint, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-amz-json-1.0", "x-amz-target": "DynamoDB_20120810.ListTables" },
      body: "{}",
    });
    expect(simple.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("the SQS stand-in and s3rver listen on loopback only", () => {
    const { SQS_ENDPOINT, S3_ENDPOINT } = inject("runtime").env;
    expect(new URL(SQS_ENDPOINT!).hostname).toBe("127.0.0.1");
    expect(new URL(S3_ENDPOINT!).hostname).toBe("127.0.0.1");
  });
});
