import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type MaliciousProxy, startProxy } from "../support/malicious-proxy";

/** The lying proxy of the malicious suite must not itself fail a test when the runtime closes an idle kept-alive socket. */

// Kept alive as Chromium's are: the proxy forwards the browser's Connection header.
const browser = new Agent({ keepAlive: true });

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: browser }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("malicious proxy", () => {
  let proxy: MaliciousProxy | undefined;
  const closers: (() => void)[] = [];
  afterEach(async () => {
    await proxy?.close();
    closers.splice(0).forEach((close) => close());
    browser.destroy();
  });

  it("sends a request again on a fresh socket when the runtime dropped the kept-alive one it was sent on", async () => {
    // An upstream that answers the first request of each connection and drops the connection at
    // the second, as a server does whose idle timeout ends just as the socket is reused.
    let connections = 0;
    const upstream = createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) return socket.destroy();
      res.end(JSON.stringify({ n: socket.served }));
    });
    upstream.on("connection", () => (connections += 1));
    await new Promise<void>((done) => upstream.listen(0, "127.0.0.1", done));
    closers.push(() => {
      upstream.closeAllConnections();
      upstream.close();
    });
    proxy = await startProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);

    expect(await get(`${proxy.url}/api/one`)).toEqual({ status: 200, body: '{"n":1}' });
    expect(await get(`${proxy.url}/api/two`)).toEqual({ status: 200, body: '{"n":1}' });
    expect(connections).toBe(2);
    expect(proxy.sent.map((s) => s.path)).toEqual(["/api/one", "/api/two"]);
  });
});
