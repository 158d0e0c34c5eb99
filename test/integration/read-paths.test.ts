import { UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import type { Session } from "@sealwork/contracts";
import { dynamo } from "@sealwork/core/db/client";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { db } from "@sealwork/core/db/service";
import { handler } from "../../functions/areas/conversations";
import { http } from "../support/api";
import { encrypted, sealedKey, shareGroup, startConversation } from "../support/conversations";
import { createSession } from "../support/users";

/**
 * The conversation list and the notification check (every 10 s for every signed-in user) cost
 * a number of table requests that does not grow with the user's conversations. The area's
 * Lambda handler runs here in-process against the runtime's table, with a counter on the
 * DynamoDB client that every domain call goes through.
 */
let requests = 0;
dynamo().middlewareStack.add(
  (next) => async (args) => {
    requests++;
    return next(args);
  },
  { step: "initialize", name: "countTableRequests" },
);

async function call(routeKey: string, path: string, token: string, query: Record<string, string> = {}) {
  const event = {
    version: "2.0",
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { authorization: `Bearer ${token}` },
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: /\/users\/(\d+)\//.test(path) ? { id: /\/users\/(\d+)\//.exec(path)![1]! } : undefined,
    isBase64Encoded: false,
    requestContext: { http: { method: routeKey.split(" ")[0], path, protocol: "HTTP/1.1", sourceIp: "192.0.2.7", userAgent: "test" }, requestId: "read-paths", routeKey, stage: "$default" },
  } as unknown as APIGatewayProxyEventV2;
  const before = requests;
  const result = await handler(event, {} as Context);
  return { status: result.statusCode, body: result.body ? (JSON.parse(result.body) as { new_highest?: number; conversations: unknown[] }) : undefined, requests: requests - before };
}

/** A user with `count` conversations, each with one other person (and one with a message). */
async function userWith(count: number): Promise<Session> {
  const me = await createSession();
  const others = await Promise.all(Array.from({ length: Math.min(count, 5) }, () => createSession()));
  await shareGroup(me, ...others);
  for (let i = 0; i < count; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => startConversation(others[(i + j) % others.length]!, [me])));
  }
  return me;
}

describe("read paths that stay flat", () => {
  it("a notification check and the list cost the same table requests for 3 conversations as for 60", { timeout: 120_000 }, async () => {
    const costs = [];
    for (const count of [3, 60]) {
      const me = await userWith(count);
      const news = await call("GET /api/notify/check", "/api/notify/check", me.api_token, { previous: "0" });
      expect(news.status).toBe(200);
      expect(news.body!.conversations).toHaveLength(count);
      const quiet = await call("GET /api/notify/check", "/api/notify/check", me.api_token, { previous: String(news.body!.new_highest) });
      expect(quiet.status).toBe(204);
      const list = await call("GET /api/users/{id}/conversations", `/api/users/${me.id}/conversations`, me.api_token);
      expect(list.status).toBe(200);
      expect(list.body!.conversations).toHaveLength(count);
      costs.push({ count, news: news.requests, quiet: quiet.requests, list: list.requests });
    }
    console.log("table requests:", JSON.stringify(costs));
    const [few, many] = costs;
    expect(many!.news).toBe(few!.news);
    expect(many!.quiet).toBe(few!.quiet);
    expect(many!.list).toBe(few!.list);
    // The token's user, the user's participant items, their conversations (one batch), and for
    // an answer with news the people in them (one batch).
    expect(few!.quiet).toBeLessThanOrEqual(3);
    expect(few!.news).toBeLessThanOrEqual(5);
  });
});

describe("what the conversation item keeps for the lists", () => {
  const list = async (who: Session) =>
    (await http<{ conversations: { id: number; unread: boolean; participants: { user_id: number; admin: boolean }[] }[] }>("GET", `/api/users/${who.id}/conversations`, { token: who.api_token })).body.conversations;

  it("keeps the members right when people are added, promoted and removed at the same time", { timeout: 60_000 }, async () => {
    const [author, ...people] = await Promise.all(Array.from({ length: 7 }, () => createSession()));
    await shareGroup(author!, ...people);
    const { id, key } = await startConversation(author!, [people[0]!]);
    const sealed = await sealedKey(key, id);
    const participate = (body: object) => http("POST", `/api/conversations/${id}/participate`, { token: author!.api_token, body });
    const added = await Promise.all(people.slice(1).map((p) => participate({ participant: p.id, sealed })));
    expect(added.map((r) => r.status)).toEqual(people.slice(1).map(() => 200));
    const changed = await Promise.all([
      participate({ participant: people[1]!.id, admin: true }),
      participate({ participant: people[2]!.id, admin: true }),
      http("POST", `/api/conversations/${id}/unparticipate`, { token: author!.api_token, body: { unparticipant: people[3]!.id } }),
      http("POST", `/api/conversations/${id}/unparticipate`, { token: author!.api_token, body: { unparticipant: people[4]!.id } }),
    ]);
    expect(changed.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const expected = [
      { user_id: author!.id, admin: true },
      { user_id: people[0]!.id, admin: false },
      { user_id: people[1]!.id, admin: true },
      { user_id: people[2]!.id, admin: true },
      { user_id: people[5]!.id, admin: false },
    ].sort((a, b) => a.user_id - b.user_id);
    expect((await list(author!)).find((c) => c.id === id)!.participants).toEqual(expected);
    const page = await http<{ participants: unknown[] }>("GET", `/api/conversations/${id}`, { token: people[5]!.api_token });
    expect(page.body.participants).toEqual(expected);
    expect((await http("GET", `/api/conversations/${id}`, { token: people[3]!.api_token })).status).toBe(403);
  });

  it("reads the participants of a conversation made before the item kept them, once, and then keeps them", async () => {
    const [a, b, c] = await Promise.all([createSession(), createSession(), createSession()]);
    await shareGroup(a, b, c);
    const { id, key } = await startConversation(a, [b]);
    // As an item written before these fields existed.
    const { Key, TableName } = db().entities.conversation.get({ id }).params<{ Key: { pk: string; sk: string }; TableName: string }>();
    await dynamo().send(
      new UpdateItemCommand({ TableName, Key: { pk: { S: Key.pk }, sk: { S: Key.sk } }, UpdateExpression: "REMOVE members, membersVersion, lastOtherMoteId, lastSourceId" }),
    );
    expect((await list(b)).find((x) => x.id === id)!.participants.map((p) => p.user_id).sort()).toEqual([a.id, b.id].sort());
    const { data } = await db().entities.conversation.get({ id }).go();
    expect(data!.members).toHaveLength(2);
    // Changes after it keep the list right.
    const added = await http("POST", `/api/conversations/${id}/participate`, { token: a.api_token, body: { participant: c.id, sealed: await sealedKey(key, id) } });
    expect(added.status).toBe(200);
    expect((await http("POST", `/api/conversations/${id}/participate`, { token: a.api_token, body: { participant: b.id, admin: true } })).status).toBe(200);
    expect((await list(c)).find((x) => x.id === id)!.participants).toEqual(
      [
        { user_id: a.id, admin: true },
        { user_id: b.id, admin: true },
        { user_id: c.id, admin: false },
      ].sort((x, y) => x.user_id - y.user_id),
    );
  });

  it("marks unread what others sent, never one's own messages", async () => {
    const [a, b] = await Promise.all([createSession(), createSession()]);
    await shareGroup(a, b);
    const { id, key } = await startConversation(a, [b]);
    const send = async (who: Session, localid: string) => expect((await http("POST", `/api/conversations/${id}/append`, { token: who.api_token, body: { localid, payload: await encrypted(key, localid) } })).status).toBe(200);
    const unread = async (who: Session) => (await list(who)).find((c) => c.id === id)!.unread;
    const open = (who: Session) => http("GET", `/api/conversations/${id}`, { token: who.api_token });
    await open(b);
    await send(a, "a1");
    await send(a, "a2");
    expect([await unread(a), await unread(b)]).toEqual([false, true]);
    await open(b);
    expect(await unread(b)).toBe(false);
    await send(b, "b1");
    expect([await unread(a), await unread(b)]).toEqual([true, false]);
    await send(b, "b2");
    await open(a);
    await send(a, "a3");
    expect([await unread(a), await unread(b)]).toEqual([false, true]);
  });

  it("two senders appending in turn, 40 at once, all get their message and distinct ids", async () => {
    const [a, b] = await Promise.all([createSession(), createSession()]);
    await shareGroup(a, b);
    const { id, key } = await startConversation(a, [b]);
    // Each append's id depends on who had the newest one: senders alternating at once make every
    // guess about it go stale, which is the race the id allocation must win.
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, n) => {
        const who = n % 2 ? b : a;
        const localid = `turn-${n}`;
        return http("POST", `/api/conversations/${id}/append`, { token: who.api_token, body: { localid, payload: await encrypted(key, localid) } });
      }),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((r) => (r.body as { mote: { id: number } }).mote.id);
    expect(new Set(ids).size).toBe(40);
    expect(Math.max(...ids)).toBe(40);
  });
});
