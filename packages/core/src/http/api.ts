import middy from "@middy/core";
import httpCors from "@middy/http-cors";
import type { RouteKey } from "@sealwork/contracts";
import { splitRouteKey, type HttpMethod, type RouteContract } from "@sealwork/contracts/route";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import * as z from "zod";
import type { Actor } from "../access/actor";
import { config } from "../config";
import { AppError, errorBody, fail, valid, type ErrorCode } from "../errors";
import { authenticate } from "./authenticate";
import { logger } from "./logger";
import { loadBoundSecrets } from "./secrets";

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

/** JSON bodies are small; files go straight to the bucket with presigned URLs. */
export const MAX_BODY_BYTES = 1024 * 1024;


type Part<C, P extends "params" | "query" | "body"> = C extends { [Q in P]: z.ZodType } ? z.output<C[P]> : undefined;

export interface ApiRequest<C extends RouteContract> {
  params: Part<C, "params">;
  query: Part<C, "query">;
  body: Part<C, "body">;
  actor: Actor;
  requestId: string;
}

/** A route without a body contract takes none: nothing, or an empty object. */
const NO_BODY = z.strictObject({}).transform(() => undefined);

/** What a handler returns to answer 204 with no body; only routes whose contract has `noContent`. */
export const NO_CONTENT: unique symbol = Symbol("no content");
export type NoContent = typeof NO_CONTENT;
type Answer<C extends RouteContract> = z.output<C["response"]> | (C extends { noContent: true } ? NoContent : never);

export interface ApiOptions {
  /** The error code for a body that fails validation (default `validation`, 422). */
  invalid?: ErrorCode;
}

/**
 * Wraps a route's domain call in the one middleware stack: CORS, request id, logging, the
 * `_method` override, bearer authentication, the route's access rule, validation against its
 * zod contract, and the mapping of errors to responses. `routes` is the route's area in the
 * contracts (for example `conversationRoutes`): a handler's bundle then carries the contracts of
 * its area, not of every route of the API.
 */
export function api<R extends Record<string, RouteContract>, K extends keyof R & RouteKey>(routes: R, key: K, fn: (request: ApiRequest<R[K]>) => Promise<Answer<R[K]>>, options: ApiOptions = {}) {
  const contract: RouteContract = routes[key]!;
  const { method } = splitRouteKey(key);

  const core = async (event: Event): Promise<Result> => {
    await loadBoundSecrets();
    const requestId = event.requestContext.requestId;
    const body = readBody(event);
    if (event.requestContext.http.method.toUpperCase() !== method) {
      // Reached as "POST path" through the route table's _method expansion.
      const override = isRecord(body) && typeof body._method === "string" ? body._method.toUpperCase() : undefined;
      if (override !== method) fail("method_not_allowed");
    }
    if (isRecord(body)) delete body._method;

    const actor = await authenticate(event);
    if (!contract.access.includes(actor.kind)) fail(actor.kind === "anonymous" ? "unauthenticated" : "forbidden");

    const request = {
      params: parse("params" in contract ? contract.params : undefined, event.pathParameters ?? {}, "validation"),
      query: parse("query" in contract ? contract.query : undefined, event.queryStringParameters ?? {}, "validation"),
      // Only a missing body reads as {}; a JSON null is a wrong body, not an empty one.
      body: parse("body" in contract ? contract.body : NO_BODY, body === undefined ? {} : body, options.invalid ?? "validation"),
      actor,
      requestId,
    } as ApiRequest<R[K]>;
    const result = await fn(request);
    if (result === NO_CONTENT) return { statusCode: 204, headers: { "x-request-id": requestId, "cache-control": "no-store" } };
    return json(200, result, requestId);
  };

  return middy<Event, Result>()
    .use(httpCors({ getOrigin: () => new URL(config().APP_URL).origin, credentials: false, maxAge: 600 }))
    .use({
      before: (request) => {
        (request.internal as Record<string, unknown>).started = Date.now();
      },
      after: (request) => log(key, request.event, request.response?.statusCode ?? 200, request.internal),
      onError: (request) => {
        const error = toAppError(request.error);
        if (error.code === "internal") logger.error("unhandled error", { route: key, requestId: request.event.requestContext.requestId, error: request.error as Error });
        request.response = json(error.status, errorBody(error), request.event.requestContext.requestId);
        log(key, request.event, error.status, request.internal, error.code);
      },
    })
    .handler(core);
}

function readBody(event: Event): unknown {
  if (event.body === undefined || event.body === null || event.body === "") return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) fail("payload_too_large");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The client's fault, and the parser's message would echo their bytes back.
    return fail("bad_request", { message: "The request body is not valid JSON." });
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, code: ErrorCode): unknown {
  return schema ? valid(schema, value, code) : undefined;
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError("internal", { cause: error });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function json(status: number, body: unknown, requestId: string): Result {
  return {
    statusCode: status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "cache-control": "no-store" },
    body: JSON.stringify(body),
  };
}

/**
 * One line per request only where it tells something (LOG_REQUESTS, LOG_SLOW_MS): a refusal (4xx,
 * at info: a burst of 401, 403 or 429 is worth seeing), a failure (5xx, at error) or a slow answer
 * (warn). With LOG_REQUESTS=all every request (polls included: one a second per open tab).
 */
function log(route: string, event: Event, status: number, internal: Record<string, unknown>, code?: ErrorCode) {
  const started = typeof internal.started === "number" ? internal.started : Date.now();
  const ms = Date.now() - started;
  const { LOG_REQUESTS, LOG_SLOW_MS } = config();
  const line = { route, method: event.requestContext.http.method, status, code, ms, requestId: event.requestContext.requestId };
  if (status >= 500) logger.error("request", line);
  else if (ms >= LOG_SLOW_MS) logger.warn("slow request", line);
  else if (status >= 400 || LOG_REQUESTS === "all") logger.info("request", line);
}

type AnyHandler = (event: Event, context: Context) => Promise<Result>;

/**
 * One handler for the methods of a path that a POST reaches through `_method` (the route table
 * wants one handler per such path: API Gateway matches "POST path" once): the real method's
 * handler, or for a POST the one its body's `_method` names. An unknown or missing `_method` goes
 * to the first, which refuses it (method_not_allowed) as a single route would.
 */
export function byMethod(handlers: Partial<Record<HttpMethod, AnyHandler>>): AnyHandler {
  const first = Object.values(handlers)[0]!;
  return async (event, context) => {
    let method = event.requestContext.http.method.toUpperCase();
    if (method === "POST") {
      try {
        const body = readBody(event);
        if (isRecord(body) && typeof body._method === "string") method = body._method.toUpperCase();
      } catch (error) {
        // A body that cannot be read: the first handler answers it (400 or 413) as it would alone.
        if (!(error instanceof AppError)) throw error;
      }
    }
    return (handlers[method as HttpMethod] ?? first)(event, context);
  };
}
