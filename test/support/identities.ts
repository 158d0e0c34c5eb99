import type { Session } from "@sealwork/contracts";
import {
  type AccountKeys,
  type IdentityChain,
  type IdentityKeys,
  type SignedIdentity,
  type SignedInvitation,
  accountPublicKeys,
  createInvitation,
  createInvitedIdentity,
  createRootIdentity,
  generateAccountKeys,
  identityKeys,
  parseEnvelope,
  rootAnchor,
  unwrapAccountKeys,
} from "@sealwork/crypto";
import { adminSession, http, mailedCodes, uniqueEmail } from "./api";
import { ADMIN } from "./global-setup";
import { newInviteBody, type CreatedInvite } from "./invites";
import { BROWSER_SECURE_CODE, newKeyBody } from "./keys";

/**
 * Protocol v2 identities through the API, made the way the web client makes them: the setup
 * administrator's root, signed invitations, takeovers with fresh keys (docs/protocol.md §14).
 */

type Json = Record<string, unknown>;
const DAY_MS = 86_400_000;

export interface Member {
  session: Session;
  keys: AccountKeys;
  me: IdentityKeys;
  email: string;
  keyId: number;
}

let root: Promise<Member> | undefined;

/**
 * The shared runtime's setup administrator (user 1) with their root identity: their key as the
 * browser tests make it (BROWSER_SECURE_CODE, so a browser signing in as them recovers it), made
 * here unless a browser or another test file made it first, and the root published unless it is.
 */
export function rootAdmin(): Promise<Member> {
  root ??= ensureRoot().catch((error: unknown) => {
    root = undefined;
    throw error;
  });
  return root;
}

async function ensureRoot(): Promise<Member> {
  const session = await adminSession();
  for (let attempt = 0; attempt < 5; attempt++) {
    const state = await http<{ keypair: { id: number; type: string } | null }>("GET", "/api/keypairs", { token: session.api_token });
    const bundle = await chainOf(session.api_token, session.id);
    if (!state.body.keypair) {
      const { body, keys } = await newKeyBody(session.id, null, { code: BROWSER_SECURE_CODE });
      const identity = await createRootIdentity({ userId: session.id, email: ADMIN.email, created: Date.now() }, keys);
      const made = await http<{ id: number }>("POST", "/api/keypairs", { token: session.api_token, body: { ...body, identity } });
      if (made.status === 409) continue;
      if (made.status !== 200) throw new Error(`the root key failed: ${made.status} ${JSON.stringify(made.body)}`);
      return { session, keys, me: await identityKeys(session.id, keys), email: ADMIN.email, keyId: made.body.id };
    }
    const backup = await http<{ recover: Json }>("POST", `/api/keypairs/${state.body.keypair.id}/recover`, { token: session.api_token });
    const keys = await openBackup(backup.body.recover, BROWSER_SECURE_CODE, session.api_token);
    if (!bundle.chain) {
      const identity = await createRootIdentity({ userId: session.id, email: ADMIN.email, created: Date.now() }, keys);
      const published = await http("POST", "/api/identities", { token: session.api_token, body: { identity } });
      if (published.status !== 200 && published.status !== 409) throw new Error(`the root failed: ${published.status} ${JSON.stringify(published.body)}`);
    }
    return { session, keys, me: await identityKeys(session.id, keys), email: ADMIN.email, keyId: state.body.keypair.id };
  }
  throw new Error("could not settle the setup administrator's key");
}

export interface IdentityBundleReply {
  chain: (IdentityChain & { issuers: NonNullable<IdentityChain["issuers"]>; admins: NonNullable<IdentityChain["admins"]> }) | null;
  legacy: { id: number; encrypt_public: string; sign_public: string } | null;
}

export async function chainOf(token: string, uid: number): Promise<IdentityBundleReply> {
  const reply = await http<IdentityBundleReply>("GET", `/api/identities/${uid}`, { token });
  if (reply.status !== 200) throw new Error(`GET /api/identities/${uid}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** The instance anchors a client pins (the root key ids), from the server's roots. */
export async function anchorsOf(token: string): Promise<SignedIdentity[]> {
  return (await http<{ roots: SignedIdentity[] }>("GET", "/api/identities/anchors", { token })).body.roots;
}

/**
 * Opens an account key's backup as a browser does: bound to one of the roots the server shows (a
 * key with an identity, docs/protocol.md §14.10), or to none.
 */
export async function openBackup(envelope: unknown, code: string, token: string): Promise<AccountKeys> {
  return unwrapAccountKeys(parseEnvelope(envelope, "secure-code-wrap"), code, (await trustOf(token)).anchors);
}

/** What a client pins for the instance: the root key ids. */
export async function trustOf(token: string): Promise<{ anchors: string[] }> {
  return { anchors: await Promise.all((await anchorsOf(token)).map((root) => rootAnchor(root))) };
}

export async function reserveInviteId(token: string): Promise<number> {
  const reply = await http<{ id: number }>("POST", "/api/instance/invites/reserve", { token });
  if (reply.status !== 200) throw new Error(`reserve failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}

export interface SignedInvite {
  body: Awaited<ReturnType<typeof newInviteBody>>["body"];
  temp: AccountKeys;
  code: string;
  invitation: SignedInvitation;
}

/** An invite body with the invitation signed by `issuer` on a reserved id (the Invite screen's work). */
export async function newSignedInvite(issuer: Member, options: { email?: string; roles?: { admin?: boolean }; expires?: number } = {}): Promise<SignedInvite> {
  const made = await newInviteBody({ email: options.email ?? uniqueEmail("v2-invitee"), sendEmail: true, roles: options.roles ?? {} });
  const inviteId = await reserveInviteId(issuer.session.api_token);
  const invitation = await createInvitation(
    { inviteId, email: made.body.email, temp: await accountPublicKeys(made.keys), expires: options.expires ?? Date.now() + 30 * DAY_MS },
    issuer.me,
  );
  return { body: { ...made.body, invitation: { ...invitation } }, temp: made.keys, code: made.code, invitation };
}

/** Registers an invited account (the 6-digit code from the outbox) and answers its session. */
export async function registerInvitee(uid: number, email: string, password = "invitee-password-1"): Promise<Session> {
  const sent = await http("POST", "/api/verification/register", { body: { uid, contact: email } });
  if (sent.status !== 200) throw new Error(`registration code: ${sent.status} ${JSON.stringify(sent.body)}`);
  const [vericode] = await mailedCodes(email, /verification code is (\d{6})/);
  const reply = await http<Session>("POST", "/api/users/register", { body: { name: "Invited Person", password, contact: email, vericode } });
  if (reply.status !== 200) throw new Error(`register: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/**
 * The whole v2 path of a new member: `issuer` invites with a signed invitation, the invitee
 * registers, opens the transit envelope with the code, makes fresh keys and registers them with
 * their birth record certified by the temporary key.
 */
export async function invitedMember(issuer: Member, options: { admin?: boolean; unboundBackup?: boolean } = {}): Promise<Member & { created: CreatedInvite; invitation: SignedInvitation }> {
  const invite = await newSignedInvite(issuer, { roles: { admin: options.admin } });
  const reply = await http<CreatedInvite>("POST", "/api/instance/invite", { token: issuer.session.api_token, body: invite.body });
  if (reply.status !== 200) throw new Error(`invite failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  const created = reply.body;
  const session = await registerInvitee(created.account.id, invite.body.email);
  const transit = await http<{ recover: Json }>("POST", `/api/keypairs/${created.keypair.id}/recover`, { token: session.api_token });
  const temp = await unwrapAccountKeys(parseEnvelope(transit.body.recover, "secure-code-wrap"), invite.code);
  const keys = await generateAccountKeys();
  const identity = await createInvitedIdentity({ userId: session.id, created: Date.now(), invitation: invite.invitation }, keys, temp);
  // Its backup bound to the instance's root, as the browser binds it at takeover (unless it stands for a key wrapped before backups were bound).
  const anchor = options.unboundBackup ? undefined : (await trustOf(session.api_token)).anchors[0];
  const { body } = await newKeyBody(session.id, created.keypair.id, { keys, anchor });
  const taken = await http<{ id: number }>("POST", "/api/keypairs", { token: session.api_token, body: { ...body, identity } });
  if (taken.status !== 200) throw new Error(`takeover failed: ${taken.status} ${JSON.stringify(taken.body)}`);
  return { session, keys, me: await identityKeys(session.id, keys), email: invite.body.email, keyId: taken.body.id, created, invitation: invite.invitation };
}

/**
 * A version 1 member, as protocol v1 left them: invited by `admin` without a signed invitation,
 * their key registered without an identity (a legacy contact, docs/protocol.md §14.14).
 */
export async function legacyMember(admin: Pick<Member, "session">, email: string, password = "invitee-password-1", code?: string) {
  const made = await newInviteBody({ email });
  const invited = await http<CreatedInvite>("POST", "/api/instance/invite", { token: admin.session.api_token, body: made.body });
  if (invited.status !== 200) throw new Error(`invite: ${invited.status} ${JSON.stringify(invited.body)}`);
  const session = await registerInvitee(invited.body.account.id, email, password);
  const key = await newKeyBody(session.id, invited.body.keypair.id, { code });
  const reply = await http<{ id: number }>("POST", "/api/keypairs", { token: session.api_token, body: key.body });
  if (reply.status !== 200) throw new Error(`key: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { session, email, keys: await accountPublicKeys(key.keys), keypairId: reply.body.id, accountKeys: key.keys };
}
