import { request } from "node:http";
import { baseUrl } from "./api";

/**
 * Requests as a hostile client sends them: each on a TCP connection of its own (no keep-alive,
 * no pool, so nothing serialises them), all at once, optionally from another loopback address
 * (127.0.0.0/8 is all ours) so that per-client limits can be told apart from per-account ones.
 */
export interface Shot {
  method: string;
  path: string;
  body?: unknown;
  token?: string;
  /** The local address the connection comes from (e.g. "127.0.0.7"); the runtime sees it as the client. */
  from?: string;
}

export interface Hit {
  status: number;
  body: { code?: string; message?: string } & Record<string, unknown>;
}

/** One request on a fresh connection. */
export function fire(shot: Shot, base = baseUrl()): Promise<Hit> {
  const url = new URL(shot.path, base);
  const payload = shot.body === undefined ? undefined : JSON.stringify(shot.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: shot.method,
        agent: false,
        localAddress: shot.from,
        headers: {
          accept: "application/json",
          connection: "close",
          ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
          ...(shot.token ? { authorization: `Bearer ${shot.token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: Hit["body"] = {};
          try {
            body = text ? (JSON.parse(text) as Hit["body"]) : {};
          } catch {
            body = { message: text };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** `count` requests at once, each on its own connection; shot(i) says what the i-th sends. */
export function burst(count: number, shot: (i: number) => Shot, base = baseUrl()): Promise<Hit[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => fire(shot(i), base)));
}

/** How many hits answered each status ("403 password_incorrect": 3, "429 too_many_attempts": 27). */
export function tally(hits: Hit[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const hit of hits) {
    const key = `${hit.status} ${hit.body.code ?? ""}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

// A random start, so that test files sharing a runtime do not meet either.
let next = Math.floor(Math.random() * 1_000_000);
/** A loopback address no other test uses, so that each starts with empty per-client windows. */
export function freshAddress(): string {
  next += 1;
  const n = next % 16_000_000;
  return `127.${1 + (n >> 16) % 250}.${(n >> 8) & 255}.${1 + (n & 255) % 254}`;
}
