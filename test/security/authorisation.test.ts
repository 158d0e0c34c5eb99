import { CALLER_KINDS, type CallerKind } from "@sealwork/contracts";
import { base64urlEncode, encrypt, generateSymmetricKey, serializeEnvelope } from "@sealwork/crypto";
import { issueToken } from "@sealwork/core/tokens";
import { beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { putBytes } from "../support/attachments";
import { createSession } from "../support/users";
import { fillPath, overrideBody, routeCases } from "../support/routes";

/**
 * Every route declares who may call it. Each other kind of caller must be turned away: 401
 * without a token, 403 with one. New routes are covered by being in the route table.
 */
describe("authorisation harness: every route refuses the callers it does not admit", () => {
  const tokens = {} as Record<CallerKind, string | undefined>;
  const ids = {} as Record<CallerKind, number>;

  beforeAll(async () => {
    tokens.anonymous = undefined;
    tokens.guest = await issueToken({ kind: "guest", uid: 0, pickup: "1" });
    ids.anonymous = ids.guest = 1;
    for (const [kind, options] of [
      ["user", {}],
      ["admin", { admin: true }],
      ["super", { admin: true, superAdmin: true }],
    ] as const) {
      const session = await createSession(options);
      tokens[kind] = session.api_token;
      ids[kind] = session.id;
    }
  });

  const cases = routeCases().flatMap((route) =>
    CALLER_KINDS.filter((kind) => !route.contract.access.includes(kind)).map((kind) => ({ route, kind, label: `${route.method} ${route.path} as ${kind}` })),
  );

  it("has routes that admit only some callers", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)("$label", async ({ route, kind }) => {
    const path = fillPath(route.path, { id: String(ids[kind]) });
    const body = route.method === "GET" ? undefined : { ...overrideBody(route) };
    const reply = await http(route.method, path, { token: tokens[kind], body });
    expect(reply.status).toBe(kind === "anonymous" ? 401 : 403);
    expect(reply.body).toMatchObject({ code: kind === "anonymous" ? "unauthenticated" : "forbidden" });
  });

  it("turns away a token signed with another key everywhere but anonymous routes", async () => {
    const { generateKeyPair, SignJWT } = await import("jose");
    const { privateKey } = await generateKeyPair("ES256");
    const foreign = await new SignJWT({ kind: "user", tv: 1 })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject(String(ids.super))
      .setIssuer("sealwork")
      .setAudience("sealwork-api")
      .setExpirationTime("1h")
      .sign(privateKey);
    for (const route of routeCases().filter((r) => !r.contract.access.includes("anonymous"))) {
      const reply = await http(route.method, fillPath(route.path), { token: foreign, body: route.method === "GET" ? undefined : overrideBody(route) });
      expect(reply.status, `${route.method} ${route.path}`).toBe(401);
    }
  });
});

/**
 * Within the instance, a group's routes answer by the caller's place in that group: a
 * non-member, a member, a role holder (a member holding a group role), a group administrator.
 * Each route of the groups area that names a group, page or role is called as every place it does
 * not admit, with a valid body, and must be 403; the harness checks that it covers them all.
 */
describe("authorisation harness: group routes refuse the group roles they do not admit", () => {
  type Place = "non-member" | "member" | "role holder" | "group admin";
  const PLACES: Place[] = ["non-member", "member", "role holder", "group admin"];
  const tokens = {} as Record<Place, string>;
  const ids = { group: 0, page: 0, restricted: 0, role: 0, member: 0 };
  let message: Record<string, unknown> = {};
  const ALL_MEMBERS: Place[] = ["member", "role holder", "group admin"];
  const ADMIN_ONLY: Place[] = ["group admin"];

  beforeAll(async () => {
    const [sue, member, holder, admin, outsider, spare] = await Promise.all([
      createSession({ admin: true, superAdmin: true }),
      createSession(),
      createSession(),
      createSession(),
      createSession(),
      createSession(),
    ]);
    const as = (token: string, method: string, path: string, body?: unknown) => http<{ id: number }>(method, path, { token, body });
    ids.group = (await as(sue.api_token, "POST", "/api/groups", { name: "Matrix", members: [member.id, holder.id, admin.id, spare.id] })).body.id;
    await as(sue.api_token, "POST", `/api/groups/${ids.group}/makeAdminMember`, { member_uid: admin.id });
    ids.role = (await as(sue.api_token, "POST", "/api/roles", { name: "Holders", group_id: ids.group })).body.id;
    await as(sue.api_token, "POST", `/api/roles/${ids.role}/assign`, { user_id: holder.id });
    ids.page = (await as(sue.api_token, "POST", "/api/pages", { group: ids.group, name: "Open", type: "blog" })).body.id;
    ids.restricted = (await as(sue.api_token, "POST", "/api/pages", { group: ids.group, name: "Holders only", type: "blog" })).body.id;
    await as(sue.api_token, "POST", `/api/pages/${ids.restricted}/permit`, { use: [{ role: true, id: ids.role }] });
    ids.member = spare.id;
    message = {
      localid: "m1",
      payload: serializeEnvelope(await encrypt(await generateSymmetricKey(), new Uint8Array(8))),
      epoch: 0,
      signature: serializeEnvelope({ v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(new Uint8Array(64)) } as never),
      sender_key_id: "A".repeat(22),
    };
    Object.assign(tokens, { "non-member": outsider.api_token, member: member.api_token, "role holder": holder.api_token, "group admin": admin.api_token });
  });

  /** Each group-scoped route: its path, a body that is valid, and the places it admits. */
  const table: Record<string, { path: () => string; body?: () => unknown; admits: Place[] }> = {
    "GET /api/groups/{id}": { path: () => `/api/groups/${ids.group}`, admits: ALL_MEMBERS },
    "PATCH /api/groups/{id}": { path: () => `/api/groups/${ids.group}`, body: () => ({ options: "{}" }), admits: ADMIN_ONLY },
    "GET /api/groups/{id}/members": { path: () => `/api/groups/${ids.group}/members`, admits: ALL_MEMBERS },
    "POST /api/groups/{id}/assignMember": { path: () => `/api/groups/${ids.group}/assignMember`, body: () => ({ member_uid: ids.member }), admits: ADMIN_ONLY },
    "POST /api/groups/{id}/revokeMember": { path: () => `/api/groups/${ids.group}/revokeMember`, body: () => ({ member_uid: ids.member }), admits: ADMIN_ONLY },
    "POST /api/groups/{id}/makeAdminMember": { path: () => `/api/groups/${ids.group}/makeAdminMember`, body: () => ({ member_uid: ids.member }), admits: ADMIN_ONLY },
    "GET /api/groups/{id}/log": { path: () => `/api/groups/${ids.group}/log`, admits: ALL_MEMBERS },
    "GET /api/groups/{id}/epochs/{epoch}": { path: () => `/api/groups/${ids.group}/epochs/0`, admits: ALL_MEMBERS },
    "POST /api/groups/{id}/log": { path: () => `/api/groups/${ids.group}/log`, body: () => ({ head: -1, entries: [{ a: 1 }] }), admits: ADMIN_ONLY },
    "GET /api/groups/{id}/wraps": { path: () => `/api/groups/${ids.group}/wraps`, admits: ALL_MEMBERS },
    "POST /api/groups/{id}/wraps": { path: () => `/api/groups/${ids.group}/wraps`, body: () => ({ epoch: 0, wraps: [{ user_id: ids.member, wrap: { a: 1 } }] }), admits: ADMIN_ONLY },
    "GET /api/groups/{id}/wraps/status": { path: () => `/api/groups/${ids.group}/wraps/status`, admits: ADMIN_ONLY },
    "GET /api/groups/{id}/conversation": { path: () => `/api/groups/${ids.group}/conversation`, admits: ALL_MEMBERS },
    "GET /api/groups/{id}/conversation/poll": { path: () => `/api/groups/${ids.group}/conversation/poll?largest=0`, admits: ALL_MEMBERS },
    "POST /api/groups/{id}/conversation/append": { path: () => `/api/groups/${ids.group}/conversation/append`, body: () => message, admits: ALL_MEMBERS },
    "GET /api/pages": { path: () => `/api/pages?group=${ids.group}`, admits: ALL_MEMBERS },
    "POST /api/pages": { path: () => "/api/pages", body: () => ({ group: ids.group, name: "New", type: "form" }), admits: ADMIN_ONLY },
    "GET /api/pages/{id}": { path: () => `/api/pages/${ids.restricted}`, admits: ["role holder", "group admin"] },
    "PATCH /api/pages/{id}": { path: () => `/api/pages/${ids.page}`, body: () => ({ menu_order: 9 }), admits: ADMIN_ONLY },
    "DELETE /api/pages/{id}": { path: () => `/api/pages/${ids.page}`, admits: ADMIN_ONLY },
    "POST /api/pages/{id}/permit": { path: () => `/api/pages/${ids.page}/permit`, body: () => ({ read: [] }), admits: ADMIN_ONLY },
    "GET /api/pages/{id}/permissions": { path: () => `/api/pages/${ids.restricted}/permissions`, admits: ["role holder", "group admin"] },
    "GET /api/pages/{id}/keys": { path: () => `/api/pages/${ids.restricted}/keys`, admits: ["role holder", "group admin"] },
    "POST /api/pages/{id}/keys": { path: () => `/api/pages/${ids.restricted}/keys`, body: () => ({ generation: 1, copies: [{ user_id: 1, copy: { sealed: "s" } }] }), admits: ADMIN_ONLY },
    "POST /api/roles": { path: () => "/api/roles", body: () => ({ name: "More", group_id: ids.group }), admits: ADMIN_ONLY },
    "DELETE /api/roles/{id}": { path: () => `/api/roles/${ids.role}`, admits: ADMIN_ONLY },
    "POST /api/roles/{id}/assign": { path: () => `/api/roles/${ids.role}/assign`, body: () => ({ user_id: ids.member }), admits: ADMIN_ONLY },
    "POST /api/roles/{id}/unassign": { path: () => `/api/roles/${ids.role}/unassign`, body: () => ({ user_id: ids.member }), admits: ADMIN_ONLY },
    "GET /api/keypairs/target?type=group": { path: () => `/api/keypairs/target?type=group&id=${ids.group}`, admits: ALL_MEMBERS },
  };
  /** Routes of the area that name no group, page or role: admitted by caller kind alone (above). */
  const UNSCOPED = ["GET /api/users/{id}/groups", "GET /api/people", "POST /api/groups"];

  it("covers every route of the groups area", () => {
    const area = [...new Set(routeCases().filter((r) => r.area === "groups").map((r) => r.key as string))];
    expect(area.filter((key) => !(key in table) && !UNSCOPED.includes(key))).toEqual([]);
  });

  const cases = Object.entries(table).flatMap(([key, entry]) => PLACES.filter((place) => !entry.admits.includes(place)).map((place) => ({ key, entry, place, label: `${key} as ${place}` })));

  it.each(cases)("$label", async ({ key, entry, place }) => {
    const method = key.split(" ")[0]!;
    const reply = await http(method, entry.path(), { token: tokens[place], body: entry.body?.() });
    expect(reply.status, JSON.stringify(reply.body)).toBe(403);
  });

  it("admits the role holder where a plain member is not", async () => {
    expect((await http("GET", `/api/pages/${ids.restricted}`, { token: tokens["role holder"] })).body).toMatchObject({ level: 2 });
    expect((await http("GET", `/api/pages/${ids.restricted}`, { token: tokens.member })).body).toMatchObject({ code: "page_forbidden" });
  });
});

/**
 * A group's records (motes): each route of the motes area is called as every place in the group
 * it does not admit, and must refuse with its own answer: 403 on a page the caller may only read
 * (mote_read_only) or for another's card or comment, 403 group_forbidden or page_forbidden where
 * the request names the group or page, and 404 mote_not_found where it names a card of a group the
 * caller is not in (an id tells them nothing). The harness checks that it covers every route.
 */
describe("authorisation harness: mote routes refuse the places they do not admit", () => {
  type Place = "non-member" | "reader" | "author" | "group admin";
  const PLACES: Place[] = ["non-member", "reader", "author", "group admin"];
  const tokens = {} as Record<Place, string>;
  const ids = { group: 0, page: 0, mote: 0, comment: 0, file: 0, recordId: "" };
  const sealed = { payload: "", dockey: "", epoch: 0, page_key: 1 };

  beforeAll(async () => {
    const [sue, reader, author, admin, outsider] = await Promise.all([createSession({ admin: true, superAdmin: true }), createSession(), createSession(), createSession(), createSession()]);
    const as = <T = { id: number }>(token: string, method: string, path: string, body?: unknown) => http<T>(method, path, { token, body });
    ids.group = (await as(sue.api_token, "POST", "/api/groups", { name: "Motes matrix", members: [reader.id, author.id, admin.id] })).body.id;
    await as(sue.api_token, "POST", `/api/groups/${ids.group}/makeAdminMember`, { member_uid: admin.id });
    ids.page = (await as(sue.api_token, "POST", "/api/pages", { group: ids.group, name: "Board", type: "pinboard" })).body.id;
    await as(sue.api_token, "POST", `/api/pages/${ids.page}/permit`, { read: [{ role: false, id: reader.id }], use: [{ role: false, id: author.id }] });
    // The restricted page's key (stand-in copies; docs/protocol.md, "Restricted pages"): its cards name generation 1.
    const copy = { sealed: "sealed", signature: "sig", sealer: sue.id, sealerKeyId: "key-1", linkDigest: null };
    expect((await as(sue.api_token, "POST", `/api/pages/${ids.page}/keys`, { generation: 1, copies: [reader, author, admin, sue].map((u) => ({ user_id: u.id, copy })) })).status).toBe(200);
    const key = await generateSymmetricKey();
    const envelope = async () => serializeEnvelope(await encrypt(key, new Uint8Array(16)));
    Object.assign(sealed, { payload: await envelope(), dockey: await envelope(), epoch: 0, page_key: 1 });
    ids.recordId = base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
    // A card's file, uploaded by its author and listed by the card.
    const started = await as<{ id: number; parts: { url: string }[] }>(author.api_token, "POST", "/api/motes/files", { page_id: ids.page, size: 64 });
    await putBytes(started.body.parts[0]!.url, new Uint8Array(64));
    expect((await as(author.api_token, "POST", `/api/motes/files/${started.body.id}/complete`, {})).status).toBe(200);
    ids.file = started.body.id;
    const made = await as<{ mote: { id: number } }>(author.api_token, "POST", "/api/motes", { group_id: ids.group, page_id: ids.page, record_id: ids.recordId, files: [ids.file], ...sealed });
    expect(made.status).toBe(200);
    ids.mote = made.body.mote.id;
    const commented = await as<{ comments: { id: number }[] }>(author.api_token, "POST", `/api/motes/${ids.mote}/comment`, { record_id: base64urlEncode(crypto.getRandomValues(new Uint8Array(16))), ...sealed });
    ids.comment = commented.body.comments[0]!.id;
    Object.assign(tokens, { "non-member": outsider.api_token, reader: reader.api_token, author: author.api_token, "group admin": admin.api_token });
  });

  const MEMBERS: Place[] = ["reader", "author", "group admin"];
  const WRITERS: Place[] = ["author", "group admin"];
  const fresh = () => ({ record_id: base64urlEncode(crypto.getRandomValues(new Uint8Array(16))), ...sealed });
  /** Each route: its path, a valid body, the places it admits and the refusal each other place gets. */
  const table: Record<string, { path: () => string; body?: () => unknown; admits: Place[]; refusal: Partial<Record<Place, [number, string]>> }> = {
    "POST /api/motes": { path: () => "/api/motes", body: () => ({ group_id: ids.group, page_id: ids.page, ...fresh() }), admits: WRITERS, refusal: { "non-member": [403, "group_forbidden"], reader: [403, "mote_read_only"] } },
    "GET /api/motes": { path: () => `/api/motes?page=${ids.page}`, admits: MEMBERS, refusal: { "non-member": [403, "page_forbidden"] } },
    "PATCH /api/motes/multipatch": {
      path: () => "/api/motes/multipatch",
      body: () => ({ group_id: ids.group, motes: [{ id: ids.mote, domain_id: ids.page, ...sealed }] }),
      admits: WRITERS,
      refusal: { "non-member": [403, "group_forbidden"], reader: [403, "mote_read_only"] },
    },
    "GET /api/motes/relationMotes": { path: () => `/api/motes/relationMotes?gid=${ids.group}&ids=${ids.mote}`, admits: MEMBERS, refusal: { "non-member": [403, "group_forbidden"] } },
    "GET /api/pages/best": { path: () => `/api/pages/best?type=pinboard&mote_id=${ids.mote}`, admits: MEMBERS, refusal: { "non-member": [404, "mote_not_found"] } },
    "POST /api/motes/files": { path: () => "/api/motes/files", body: () => ({ page_id: ids.page, size: 100 }), admits: WRITERS, refusal: { "non-member": [403, "group_forbidden"], reader: [403, "mote_read_only"] } },
    // Only its uploader completes an upload: to anyone else it is not there.
    "POST /api/motes/files/{fid}/complete": { path: () => `/api/motes/files/${ids.file}/complete`, body: () => ({}), admits: ["author"], refusal: { "non-member": [404, "attachment_not_found"], reader: [404, "attachment_not_found"], "group admin": [404, "attachment_not_found"] } },
    "GET /api/motes/files/{fid}": { path: () => `/api/motes/files/${ids.file}`, admits: MEMBERS, refusal: { "non-member": [404, "attachment_not_found"] } },
    "GET /api/motes/{id}": { path: () => `/api/motes/${ids.mote}`, admits: MEMBERS, refusal: { "non-member": [404, "mote_not_found"] } },
    "PATCH /api/motes/{id}": { path: () => `/api/motes/${ids.mote}`, body: () => sealed, admits: WRITERS, refusal: { "non-member": [404, "mote_not_found"], reader: [403, "mote_read_only"] } },
    "DELETE /api/motes/{id}": { path: () => `/api/motes/${ids.mote}`, admits: WRITERS, refusal: { "non-member": [404, "mote_not_found"], reader: [403, "mote_read_only"] } },
    "GET /api/motes/{id}/canI": { path: () => `/api/motes/${ids.mote}/canI?permission=read`, admits: MEMBERS, refusal: { "non-member": [404, "mote_not_found"] } },
    "POST /api/motes/{id}/comment": { path: () => `/api/motes/${ids.mote}/comment`, body: fresh, admits: MEMBERS, refusal: { "non-member": [404, "mote_not_found"] } },
    "POST /api/motes/{id}/comment/delete": {
      path: () => `/api/motes/${ids.mote}/comment/delete`,
      body: () => ({ comment_id: ids.comment }),
      admits: WRITERS,
      refusal: { "non-member": [404, "mote_not_found"], reader: [403, "comment_delete_forbidden"] },
    },
    "POST /api/motes/{id}/comment/reseal": {
      path: () => `/api/motes/${ids.mote}/comment/reseal`,
      body: () => ({ comments: [{ id: ids.comment, ...sealed }] }),
      admits: ["group admin"],
      refusal: { "non-member": [404, "mote_not_found"], reader: [403, "mote_edit_forbidden"], author: [403, "mote_edit_forbidden"] },
    },
  };

  it("covers every route of the motes area, with a refusal for every place a route does not admit", () => {
    const area = [...new Set(routeCases().filter((r) => r.area === "motes").map((r) => r.key as string))];
    expect(area.filter((key) => !(key in table))).toEqual([]);
    for (const [key, entry] of Object.entries(table)) expect(PLACES.filter((p) => !entry.admits.includes(p) && !entry.refusal[p]), key).toEqual([]);
  });

  const cases = Object.entries(table).flatMap(([key, entry]) => PLACES.filter((place) => !entry.admits.includes(place)).map((place) => ({ key, entry, place, label: `${key} as ${place}` })));

  it.each(cases)("$label", async ({ key, entry, place }) => {
    const method = key.split(" ")[0]!;
    const reply = await http(method, entry.path(), { token: tokens[place], body: entry.body?.() });
    const [status, code] = entry.refusal[place]!;
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(reply.body).toMatchObject({ code });
  });

  it("admits the places it names (the card and its comment are still there)", async () => {
    expect((await http("GET", `/api/motes/${ids.mote}/canI?permission=write`, { token: tokens.reader })).body).toEqual({ grant: false });
    expect((await http("GET", `/api/motes/${ids.mote}/canI?permission=write`, { token: tokens.author })).body).toEqual({ grant: true });
    expect((await http("GET", `/api/motes/${ids.mote}`, { token: tokens.reader })).body).toMatchObject({ mote: { id: ids.mote, comments: 1 } });
  });
});
