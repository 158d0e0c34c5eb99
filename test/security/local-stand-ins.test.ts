import { statSync } from "node:fs";
import { request } from "node:http";
import { Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { describe, expect, it, inject } from "vitest";
import { http } from "../support/api";

/** A raw HTTP request, so that Host and the client's address can be what a browser elsewhere would send. */
function rawGet(url: string, headers: Record<string, string> = {}, address?: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: address ?? target.hostname, port: target.port, path: target.pathname + target.search, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const mode = (file: string) => statSync(file).mode & 0o777;

/** Whether a TCP connection to address:port is accepted. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => (socket.destroy(), resolve(false)));
    socket.connect(port, address);
  });
}

const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === "IPv4")?.address;

/**
 * The stand-ins run on the developer's machine while they browse the web: no page of another
 * origin may talk to them through the browser, and nothing secret is readable by other users.
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

  it("the app, the SQS stand-in and the bucket listen on loopback only", async () => {
    const { url, env } = inject("runtime");
    const ports = [url, env.SQS_ENDPOINT!, env.S3_ENDPOINT!].map((u) => Number(new URL(u).port));
    expect(new URL(env.SQS_ENDPOINT!).hostname).toBe("127.0.0.1");
    expect(new URL(env.S3_ENDPOINT!).hostname).toBe("127.0.0.1");
    for (const port of ports) expect(await accepts("127.0.0.1", port), `127.0.0.1:${port}`).toBe(true);
    // From the network (this machine's own external address stands in for another machine).
    if (externalAddress) for (const port of ports) expect(await accepts(externalAddress, port), `${externalAddress}:${port}`).toBe(false);
  });

  it("the API answers a CORS preflight only for the app's own origin", async () => {
    const { url } = inject("runtime");
    const preflight = (origin: string) =>
      fetch(`${url}/api/users/1/login`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    const foreign = await preflight("https://evil.example");
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    expect(foreign.headers.get("access-control-allow-methods")).toBeNull();
    const own = await preflight(new URL(url).origin);
    expect(own.headers.get("access-control-allow-origin")).toBe(new URL(url).origin);
    // And as before, answers name only the app's origin, whoever asks.
    const answer = await fetch(`${url}/api/health`, { headers: { origin: "https://evil.example" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe(new URL(url).origin);
  });
});

describe("the local runtime keeps its secrets", () => {
  it("writes runtime.json and secrets.json for its user only, in a private data folder", () => {
    const { dataDir } = inject("runtime");
    expect(mode(join(dataDir, "runtime.json")).toString(8)).toBe("600");
    expect(mode(join(dataDir, "secrets.json")).toString(8)).toBe("600");
    expect(mode(dataDir).toString(8)).toBe("700");
    expect(mode(join(dataDir, "outbox")).toString(8)).toBe("700");
  });

  it("serves the outbox only to a loopback name, so a rebound DNS name cannot read codes and links", async () => {
    const { url } = inject("runtime");
    const port = new URL(url).port;
    expect((await rawGet(`${url}/dev/outbox.json`, { host: `localhost:${port}` })).status).toBe(200);
    expect((await rawGet(`${url}/dev/outbox.json`, { host: `127.0.0.1:${port}` })).status).toBe(200);
    for (const host of [`evil.example:${port}`, "evil.example", `localhost.evil.example:${port}`]) {
      const reply = await rawGet(`${url}/dev/outbox.json`, { host });
      expect(reply.status, host).toBe(404);
      expect(reply.body).not.toContain("@");
    }
    expect((await rawGet(`${url}/dev/outbox`, { host: `evil.example:${port}` })).status).toBe(404);
  });
});

describe("the SQS stand-in survives hostile clients", () => {
  it("a request aborted mid-body, a body that is not JSON and an unknown action do not stop the runtime", async () => {
    const endpoint = new URL(inject("runtime").env.SQS_ENDPOINT!);
    await new Promise<void>((resolve, reject) => {
      const socket = new Socket();
      socket.once("error", reject);
      socket.connect(Number(endpoint.port), endpoint.hostname, () => {
        socket.write(`POST / HTTP/1.1\r\nHost: ${endpoint.host}\r\nX-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: 1000\r\n\r\n{"QueueUrl":`);
        setTimeout(() => (socket.destroy(), resolve()), 100);
      });
    });
    const garbage = await fetch(endpoint, { method: "POST", headers: { "x-amz-target": "AmazonSQS.SendMessage" }, body: "{not json" });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { __type: string }).__type).toContain("SerializationException");
    const notObject = await fetch(endpoint, { method: "POST", headers: { "x-amz-target": "AmazonSQS.SendMessage" }, body: "null" });
    expect(notObject.status).toBe(400);
    const unknown = await fetch(endpoint, { method: "POST", headers: { "x-amz-target": "AmazonSQS.Nothing" }, body: "{}" });
    expect(unknown.status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    expect((await http("GET", "/api/health")).body).toMatchObject({ status: "ok", queue: "ok" });
  });
});
