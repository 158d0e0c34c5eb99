import { Agent, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { serveStatic } from "../../packages/local/src/static";

/**
 * A lying server for the browser tests of test/malicious: an HTTP proxy between Chromium and the
 * local runtime. Everything is forwarded; a test installs lies, each rewriting the JSON answer of
 * one route (the runtime's status and headers are kept, CSP included), and reads back what the
 * browser sent. It can serve another build of the SPA in place of the runtime's (the test build
 * with its switches, web/build-settings.ts), with the headers the runtime gives its own.
 */

/** One API request the browser sent, its JSON body parsed (undefined when it had none). */
export interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** What a lie sees beside the answer it rewrites. */
export interface Exchange extends Sent {
  status: number;
}

/** Rewrites a JSON answer (a parsed copy: change it and return it, or return another). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are whatever JSON the route gives.
export type Rewrite = (answer: any, exchange: Exchange) => unknown;

/** A lie in place: how often it was told, so that a test knows its attack was mounted. */
export interface Lie {
  hits: number;
}

interface Rule extends Lie {
  method: string;
  path: string | RegExp;
  rewrite: Rewrite;
}

// Headers that describe one message rather than the site: not carried over to another body.
const ENTITY_HEADERS = new Set(["content-length", "content-type", "content-encoding", "transfer-encoding", "cache-control", "etag", "last-modified", "connection", "keep-alive", "date"]);

export interface MaliciousProxy {
  url: string;
  /** Every /api request the browser sent through this proxy, oldest first. */
  readonly sent: Sent[];
  /** Answers `method path` (exact, or a pattern of the path without its query) with the runtime's answer rewritten. */
  lie(method: string, path: string | RegExp, rewrite: Rewrite): Lie;
  /** The requests sent to `method path` (same matching as `lie`). */
  sentTo(method: string, path: string | RegExp): Sent[];
  /** Takes every lie back and forgets what was sent. */
  reset(): void;
  close(): Promise<void>;
}

const matches = (rule: { method: string; path: string | RegExp }, method: string, path: string) =>
  rule.method === method && (typeof rule.path === "string" ? rule.path === path : rule.path.test(path));

/**
 * Starts a proxy on a free loopback port in front of `target` (the runtime's URL). `spaDir`: a
 * built SPA to serve instead of the runtime's own.
 */
export async function startProxy(target: string, options: { spaDir?: string } = {}): Promise<MaliciousProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const rules: Rule[] = [];
  const sent: Sent[] = [];
  let origin = "";

  /** Sends a request on to the runtime as the browser sent it (to the runtime's own origin); answers status, headers and body. */
  function forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
    // The page is the runtime's app as far as the runtime can tell: one origin, as a lying server serves it.
    if (headers.origin === origin) headers.origin = upstream.origin;
    if (headers.referer?.startsWith(origin)) headers.referer = upstream.origin + headers.referer.slice(origin.length);
    const attempt = (via: Agent | false): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> =>
      new Promise((resolve, reject) => {
        const out = request(new URL(req.url ?? "/", upstream), { method: req.method, headers, agent: via }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on("error", reject);
        });
        out.on("error", (error: NodeJS.ErrnoException) => {
          // A kept-alive socket the runtime closed as idle just as it was reused: the request never
          // reached the runtime, so it is sent again on a fresh socket (Node's documented remedy).
          if (out.reusedSocket && error.code === "ECONNRESET") attempt(false).then(resolve, reject);
          else reject(error);
        });
        out.end(body);
      });
    return attempt(agent);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", upstream);
    const method = req.method ?? "GET";
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const isApi = url.pathname === "/api" || url.pathname.startsWith("/api/");
    const answer = await forward(req, body);

    if (!isApi && !url.pathname.startsWith("/dev/") && options.spaDir) {
      // Another build of the SPA, with the headers the runtime gives its own pages.
      const siteHeaders = Object.fromEntries(Object.entries(answer.headers).filter(([name, value]) => !ENTITY_HEADERS.has(name) && typeof value === "string")) as Record<string, string>;
      return serveStatic(options.spaDir, url.pathname, res, siteHeaders);
    }

    let out = answer.body;
    if (isApi) {
      const exchange: Exchange = { method, path: url.pathname, query: url.searchParams, body: parseJson(body), status: answer.status };
      sent.push({ method, path: exchange.path, query: exchange.query, body: exchange.body });
      const rule = rules.find((r) => matches(r, method, url.pathname));
      const json = parseJson(answer.body);
      if (rule && json !== undefined) {
        rule.hits += 1;
        out = Buffer.from(JSON.stringify(await rule.rewrite(json, exchange)));
      }
    }
    const headers = { ...answer.headers, "content-length": String(out.length) };
    delete headers["transfer-encoding"];
    res.writeHead(answer.status, headers);
    res.end(out);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[malicious proxy]", error);
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    sent,
    lie(method, path, rewrite) {
      const rule: Rule = { method, path, rewrite, hits: 0 };
      rules.unshift(rule);
      return rule;
    },
    sentTo: (method, path) => sent.filter((s) => matches({ method, path }, s.method, s.path)),
    reset() {
      rules.length = 0;
      sent.length = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    // Not JSON (a file, a page): nothing to read or rewrite.
    return undefined;
  }
}
