import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { areaHandler } from "../../../functions/area-entries";
import type { ApiHandler } from "../../../functions/dispatch";
import { servedRoutes, type ServedRoute } from "../../../functions/routes";
import { AREA_GRANTS } from "../../../stacks/permissions";
import { runAs } from "./iam";
import { lambdaContext } from "./lambda-context";
import { loadHandler } from "./paths";

/** API Gateway's own payload limit. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

interface CompiledRoute extends ServedRoute {
  pattern: RegExp;
  names: string[];
}

/**
 * Serves the route table the way API Gateway's HTTP API does: match "METHOD /path/{param}",
 * build a payload-v2 event, call the route's area entry (functions/areas/) as the area's Lambda
 * would, and write its result. Each area is loaded on its first request.
 */
export function createApiAdapter({ appOrigin }: { appOrigin: string }) {
  const compiled: CompiledRoute[] = servedRoutes().map((route) => {
    const names: string[] = [];
    const segments = route.path.split("/").map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
      names.push(param[1]!);
      return "([^/]+)";
    });
    return { ...route, names, pattern: new RegExp(`^${segments.join("/")}/?$`) };
  });
  const areas = new Map<string, Promise<ApiHandler>>();
  const areaFor = (area: string) => {
    if (!areas.has(area)) areas.set(area, loadHandler<ApiHandler>(areaHandler(area)));
    return areas.get(area)!;
  };

  return async function serveApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const candidates = compiled.filter((r) => r.pattern.test(url.pathname));
    // As API Gateway does: a literal segment beats a {param} ("/api/keypairs/target" over "/{id}").
    const route = candidates.filter((r) => r.method === method).sort((a, b) => a.names.length - b.names.length)[0];
    if (!route) {
      const code = candidates.length ? "method_not_allowed" : "not_found";
      const message = candidates.length ? "This method is not allowed here." : "Requested content not found.";
      if (method === "OPTIONS" && candidates.length) return void res.writeHead(204, corsPreflight(req, appOrigin)).end();
      return void res.writeHead(candidates.length ? 405 : 404, { "content-type": "application/json" }).end(JSON.stringify({ code, message }));
    }

    const body = await readBody(req);
    if (body === "too-large") {
      return void res.writeHead(413, { "content-type": "application/json" }).end(JSON.stringify({ code: "payload_too_large", message: "The request is too large." }));
    }
    const match = route.pattern.exec(url.pathname)!;
    const pathParameters: Record<string, string> = {};
    route.names.forEach((name, i) => {
      pathParameters[name] = safeDecode(match[i + 1] ?? "");
    });
    const event = toEvent(req, url, route, body, pathParameters);
    const handler = await areaFor(route.area);
    // As the area's Lambda, with its IAM policy (iam.ts).
    const principal = { name: `the ${route.area} area`, grant: AREA_GRANTS[route.area] ?? {} };
    const result = await runAs(principal, () => handler(event, lambdaContext(route.area)));
    res.writeHead(result.statusCode ?? 200, (result.headers ?? {}) as Record<string, string>);
    res.end(result.isBase64Encoded && result.body ? Buffer.from(result.body, "base64") : (result.body ?? ""));
  };
}

/**
 * As API Gateway's CORS configuration (stacks/api.ts) answers a preflight: only for the app's own
 * origin, which is also the only one the handlers' responses name (httpCors in the core). Any other
 * origin gets no CORS headers, so its browser refuses to send the request.
 */
function corsPreflight(req: IncomingMessage, appOrigin: string): Record<string, string> {
  if (req.headers.origin !== appOrigin) return { vary: "origin" };
  return {
    "access-control-allow-origin": appOrigin,
    vary: "origin",
    "access-control-allow-methods": "GET,POST,PATCH,PUT,DELETE,OPTIONS",
    "access-control-allow-headers": "authorization,content-type",
    "access-control-max-age": "600",
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return "too-large";
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // A malformed escape is passed on as sent; the route's contract rejects it.
    return value;
  }
}

function toEvent(req: IncomingMessage, url: URL, route: ServedRoute, body: Buffer, pathParameters: Record<string, string>): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(",") : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const contentType = headers["content-type"] ?? "";
  const textual = body.length === 0 || /json|text|urlencoded|xml/i.test(contentType) || !contentType;
  const now = new Date();
  return {
    version: "2.0",
    routeKey: `${route.method} ${route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ""),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    body: body.length ? (textual ? body.toString("utf8") : body.toString("base64")) : undefined,
    isBase64Encoded: body.length > 0 && !textual,
    requestContext: {
      accountId: "local",
      apiId: "local",
      domainName: headers.host ?? "localhost",
      domainPrefix: "localhost",
      http: {
        method: (req.method ?? "GET").toUpperCase(),
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "unknown",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: `${route.method} ${route.path}`,
      stage: "$default",
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
  };
}
