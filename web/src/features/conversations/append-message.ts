import { base64urlEncode } from "@sealwork/crypto";
import { call } from "../../lib/api";

/** A fresh local id for a message (spec 000 §4): 16 random bytes, base64url. */
export function newLocalid(): string {
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * POST /api/conversations/{id}/append: idempotent per local id, so a retry with the same one
 * never stores the message twice. Answers the stored message and the id of the one before it.
 * `attachments` names the uploaded files the payload carries, so the server can check they exist.
 */
export function appendMessage(id: number, localid: string, payload: string, attachments: number[] = []) {
  return call("POST /api/conversations/{id}/append", { params: { id }, body: { localid, payload, ...(attachments.length ? { attachments } : {}) } });
}
