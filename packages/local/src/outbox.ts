import { readdir, readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { join } from "node:path";

/** Development only: the emails and text messages the instance "sent", newest first. */
export async function readOutbox(dir: string): Promise<Record<string, string>[]> {
  let files: string[] = [];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith(".json"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const messages = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), "utf8")) as Record<string, string>));
  return messages.sort((a, b) => String(b.id).localeCompare(String(a.id)));
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page has its own inline style and nothing else; nobody may frame or sniff it. */
const OUTBOX_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

export async function serveOutbox(dir: string, res: ServerResponse, asJson: boolean): Promise<void> {
  const messages = await readOutbox(dir);
  if (asJson) return void res.writeHead(200, { "content-type": "application/json", ...OUTBOX_HEADERS }).end(JSON.stringify(messages));
  const rows = messages
    .map((m) => `<article><h2>${escape(m.subject ?? "")}</h2><p><b>To:</b> ${escape(m.to ?? "")} (${escape(m.channel ?? "email")}) · ${escape(m.sentAt ?? "")}</p><pre>${escape(m.text ?? "")}</pre></article>`)
    .join("\n");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...OUTBOX_HEADERS }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox (development)</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ddd;padding:.5rem 0}pre{white-space:pre-wrap;background:#f6f6f6;padding:.75rem}</style></head>
<body><h1>Outbox</h1><p>Messages this local instance sent. This page exists only in the local runtime.</p>${rows || "<p>No messages yet.</p>"}</body></html>`);
}
