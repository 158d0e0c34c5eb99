import type { Session } from "@sealwork/contracts";
import {
  type Argon2idParams,
  type Key,
  derivePickupKeys,
  generatePickupCode,
  generatePickupLinkSecret,
  generatePickupSecurityCode,
  pickupLink,
  pickupLookup,
  sealPickup,
} from "@sealwork/crypto";
import { http, type Reply, uniqueEmail } from "./api";
import { conversationKey, reserveConversation, standInKey } from "./conversations";

/**
 * Argon2id parameters for the guest's key in tests over HTTP: the envelope's lowest, for speed.
 * A guest in the browser refuses them (below the floor, docs/protocol.md Pickups): pickups that a
 * browser opens are made with `params: ARGON2ID_DEFAULTS`.
 */
export const TEST_PICKUP_PARAMS = { memoryKiB: 1024, iterations: 1, parallelism: 1 };

export interface MadePickup {
  conversation_id: number;
  code: string;
  securityCode: string;
  linkSecret: string | null;
  key: Key;
  lookup: string;
  link: string;
  email: string;
  body: Record<string, unknown>;
}

let instanceName: Promise<string> | undefined;
export const instance = () => (instanceName ??= http<{ name: string }>("GET", "/api/instance").then((r) => r.body.name));

export interface PickupOptions {
  linkSecret?: boolean;
  title?: string;
  email?: string;
  expiredays?: number;
  params?: Argon2idParams;
  /** The creator sends the link themselves: the body carries no link. */
  sendMyself?: boolean;
}

/** The body of POST /api/pickup as the web client builds it (`sealPickup` for the reserved id), and what only the client knows. */
export async function pickupBody(creator: Pick<Session, "api_token">, options: PickupOptions = {}) {
  const code = generatePickupCode();
  const securityCode = generatePickupSecurityCode();
  const linkSecret = options.linkSecret === false ? null : generatePickupLinkSecret();
  const key = await conversationKey();
  const conversation_id = await reserveConversation(creator);
  const sealed = await sealPickup({ conversationId: conversation_id, conversationKey: key, creatorPublic: await standInKey(), secrets: { code, securityCode, linkSecret }, title: options.title, params: options.params ?? TEST_PICKUP_PARAMS });
  const link = pickupLink(process.env.APP_URL!, code, linkSecret);
  const email = options.email ?? uniqueEmail("guest");
  const body = {
    conversation_id,
    email,
    expiredays: options.expiredays ?? 14,
    ...(sealed.title ? { title: sealed.title } : {}),
    lookup: await pickupLookup(code, await instance()),
    verifier: sealed.verifier,
    wrapped: sealed.wrapped,
    sealed: sealed.sealed,
    ...(options.sendMyself ? {} : { link }),
  };
  return { body, code, securityCode, linkSecret, key, link, email, lookup: body.lookup };
}

export async function createPickup(creator: Pick<Session, "api_token">, options: Parameters<typeof pickupBody>[1] = {}): Promise<MadePickup> {
  const made = await pickupBody(creator, options);
  const reply = await http<{ conversation_id: number }>("POST", "/api/pickup", { token: creator.api_token, body: made.body });
  if (reply.status !== 200) throw new Error(`creating a pickup failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { ...made, conversation_id: reply.body.conversation_id, body: reply.body };
}

export interface Meta {
  conversation_id: number;
  salt: string;
  memoryKiB: number;
  iterations: number;
  parallelism: number;
  link_secret: boolean;
  expire_timestamp: number;
  redeem_timestamp: number;
}

export interface Recovered {
  id: 0;
  name: string;
  api_token: string;
  conversation_id: number;
  wrapped: string;
  expire_timestamp: number;
  redeem_timestamp: number;
}

/** The guest's way in: lookup, derive the auth key, recover. */
export async function collect(p: Pick<MadePickup, "lookup" | "code" | "linkSecret" | "securityCode">, securityCode = p.securityCode) {
  const meta = await http<Meta>("GET", `/api/pickup/${p.lookup}?meta=1`);
  if (meta.status !== 200) return { meta, recover: meta as unknown as Reply<Recovered>, keys: undefined };
  const m = meta.body;
  const keys = await derivePickupKeys(
    { code: p.code, securityCode, linkSecret: p.linkSecret },
    { salt: m.salt, memoryKiB: m.memoryKiB, iterations: m.iterations, parallelism: m.parallelism, link: m.link_secret ? 1 : 0 },
  );
  const recover = await http<Recovered>("POST", `/api/pickup/recover/${p.lookup}`, { body: { auth: keys.auth } });
  return { meta, recover, keys };
}
