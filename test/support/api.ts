import type { Session } from "@sealwork/contracts";
import { inject } from "vitest";
import { ADMIN } from "./global-setup";

let otherRuntime: string | undefined;
/** Points this test file's helpers at another runtime (one started with settings of its own). */
export function useRuntime(url: string | undefined): void {
  otherRuntime = url;
}
export const baseUrl = () => otherRuntime ?? inject("runtime").url;

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** One HTTP request to the running instance; JSON in, JSON (or text) out. */
export async function http<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(baseUrl() + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (the SPA, the outbox page): the text itself is the body.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export async function login(uid: number, password: string): Promise<Session> {
  const reply = await http<Session>("POST", `/api/users/${uid}/login`, { body: { password } });
  if (reply.status !== 200) throw new Error(`login ${uid} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export async function adminSession(): Promise<Session> {
  const found = await http<{ id: number }>("GET", `/api/users?lookup=${encodeURIComponent(ADMIN.email)}`);
  return login(found.body.id, ADMIN.password);
}

/** A message in the local outbox: `raw` is the composed email (RFC 5322) as SES would get it. */
export interface OutboxMessage {
  subject: string;
  text: string;
  to: string;
  channel: "email" | "sms";
  raw?: string;
}

/** Email messages in the local outbox for one address, newest first. */
export async function outboxFor(address: string, { wait = true } = {}): Promise<OutboxMessage[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const reply = await http<OutboxMessage[]>("GET", "/dev/outbox.json");
    const mine = reply.body.filter((m) => m.to === address);
    if (mine.length > 0 || !wait || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The codes (`pattern`'s first group) mailed to `address`, newest first, once there are `count` of them. */
export async function mailedCodes(address: string, pattern: RegExp, count = 1): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const codes = (await outboxFor(address, { wait: false })).flatMap((m) => pattern.exec(m.text)?.[1] ?? []);
    if (codes.length >= count) return codes;
    if (Date.now() > deadline) throw new Error(`${count} code(s) for ${address} did not arrive`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let counter = 0;
/** A unique email address for a test's own accounts. */
export function uniqueEmail(label = "user"): string {
  counter += 1;
  return `${label}.${Date.now().toString(36)}.${process.pid}.${counter}@example.ch`;
}
