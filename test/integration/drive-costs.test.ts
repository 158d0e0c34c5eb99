import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { dynamo } from "@sealwork/core/db/client";
import { db } from "@sealwork/core/db/service";
import { generateRecordId } from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { handler } from "../../functions/areas/drive";
import { conversationKey, encrypted } from "../support/conversations";
import { groupTeam, postAs as post } from "../support/groups";

/**
 * What a move costs (issue 13): a folder holding 1,000 items is moved by writing the folder alone
 * (its new parent), whatever it holds. The drive area's handler runs in-process against the
 * runtime's table with a recorder on the DynamoDB client every domain call goes through.
 */
const writes: { command: string; items: number }[] = [];
const WRITES = new Set(["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand", "BatchWriteItemCommand", "TransactWriteItemsCommand"]);
dynamo().middlewareStack.add(
  (next, context) => async (args) => {
    const command = (context as { commandName?: string }).commandName ?? "";
    if (WRITES.has(command)) {
      const input = args.input as { TransactItems?: Record<string, unknown>[]; RequestItems?: Record<string, unknown[]> };
      const items = input.TransactItems
        ? input.TransactItems.filter((i) => !("ConditionCheck" in i)).length
        : input.RequestItems
          ? Object.values(input.RequestItems).reduce((n, list) => n + list.length, 0)
          : 1;
      writes.push({ command, items });
    }
    return next(args);
  },
  { step: "initialize", name: "recordTableWrites" },
);

async function move(token: string, groupId: number, itemId: number, parent: number) {
  const path = `/api/drive/${groupId}/update/${itemId}`;
  const event = {
    version: "2.0",
    routeKey: "PATCH /api/drive/{id}/update/{rid}",
    rawPath: path,
    rawQueryString: "",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    pathParameters: { id: String(groupId), rid: String(itemId) },
    body: JSON.stringify({ parent }),
    isBase64Encoded: false,
    requestContext: { http: { method: "PATCH", path, protocol: "HTTP/1.1", sourceIp: "192.0.2.8", userAgent: "test" }, requestId: "drive-costs", stage: "$default" },
  } as unknown as APIGatewayProxyEventV2;
  writes.length = 0;
  const result = await handler(event, {} as Context);
  return { status: result.statusCode, writes: [...writes] };
}

describe("drive costs", () => {
  it("moves a folder holding 1,000 items by writing the folder alone", { timeout: 180_000 }, async () => {
    const { ann, group } = await groupTeam("Drive costs");
    const key = await conversationKey();
    const sealed = async (label: string) => ({ payload: await encrypted(key, label), dockey: await encrypted(key, `key ${label}`), epoch: 0 });
    const create = async (kind: "drive" | "folder", parent: number) =>
      (await post<{ item: { id: number } }>(ann, `/api/drive/${group}`, { record_id: generateRecordId(), kind, parent, ...(await sealed(kind)) })).body.item.id;
    const [one, two] = [await create("drive", 0), await create("drive", 0)];
    const full = await create("folder", one);
    const empty = await create("folder", one);
    // 1,000 items inside `full` (40 folders of 24 and their own), stored straight into the table.
    const base = 10_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    const template = { groupId: group, sourceId: ann.id, created: 1, modified: 1, payload: "x", dockey: "y", epoch: 0, kind: "folder" as const };
    const inner = Array.from({ length: 40 }, (_, i) => ({ ...template, id: base + i, recordId: generateRecordId(), parentId: full }));
    const leaves = Array.from({ length: 960 }, (_, i) => ({ ...template, id: base + 100 + i, recordId: generateRecordId(), parentId: base + (i % 40) }));
    await db().entities.driveitem.put([...inner, ...leaves]).go();

    const costs = [];
    for (const [folder, target] of [
      [full, two],
      [empty, two],
    ] as const) {
      const moved = await move(ann.api_token, group, folder, target);
      expect(moved.status).toBe(200);
      costs.push(moved.writes);
    }
    // One transaction with one item written (the folder's new parent), beside condition checks.
    expect(costs[0]).toEqual([{ command: "TransactWriteItemsCommand", items: 1 }]);
    expect(costs[1]).toEqual(costs[0]);
  });
});
