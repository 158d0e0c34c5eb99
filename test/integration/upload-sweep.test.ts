import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { db } from "@sealwork/core/db/service";
import { Queue } from "@sealwork/core/queue";
import { Attachment } from "@sealwork/core/conversation";
import { attachmentObjectKey, cardFiles, driveFiles } from "@sealwork/core/storage";
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { http } from "../support/api";
import { putBytes, startUpload, uploadFile } from "../support/attachments";
import { encrypted, shareGroup, startConversation } from "../support/conversations";
import { getAs as get, groupTeam, postAs as post } from "../support/groups";
import { createSession } from "../support/users";

/**
 * The upload sweep (job upload-sweep, hourly: functions/routes.ts schedules): a file that nothing
 * took within its day (a cancelled message, card edit or drive upload) loses its item and its
 * encrypted bytes; a file a message, card or drive item took stays.
 */
const runtime = inject("runtime");
const bucket = new S3Client({ region: "eu-central-2", endpoint: runtime.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
const exists = (Key: string) =>
  bucket.send(new HeadObjectCommand({ Bucket: runtime.env.BUCKET_NAME, Key })).then(
    () => true,
    () => false,
  );
const nowSeconds = () => Math.floor(Date.now() / 1000);

type Owner = "conversation" | "drive" | "cards";
/** A file as the sweep's notes name it: ids are counted per kind of file, so the owner is part of it. */
type Watched = { owner: Owner; ownerId: number; fileId: number };
const same = (a: Watched, b: Watched) => a.owner === b.owner && a.ownerId === b.ownerId && a.fileId === b.fileId;
const notesOf = async (files: Watched[]) => (await db().entities.filewatch.query.byDue({}).go({ pages: "all" })).data.filter((n) => files.some((f) => same(f, n)));

/** The sweep's notes of these files, made due now (as a day later), as the hour's schedule would find them. */
async function dueNow(files: Watched[]): Promise<void> {
  const notes = await notesOf(files);
  expect(notes).toHaveLength(files.length);
  for (const note of notes) {
    expect(note.dueAt).toBeGreaterThan(nowSeconds() + 23 * 3600);
    await db().entities.filewatch.delete(note).go();
    await db().entities.filewatch.put({ ...note, dueAt: nowSeconds() - 1 }).go();
  }
}

/** Sends the job the schedule sends and waits until no note of these files is left. */
async function sweep(files: Watched[]): Promise<void> {
  await Queue.send({ type: "upload-sweep" });
  await expect.poll(async () => (await notesOf(files)).length, { timeout: 20_000 }).toBe(0);
}

describe("the upload sweep", () => {
  it("deletes a conversation's attachments that no message took (uploaded or never completed), keeps the one a message took", async () => {
    const [a, b] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(a, b);
    const { id, key } = await startConversation(a, [b]);
    const sent = await uploadFile(a, id, randomBytes(2000), randomBytes(300));
    const unsent = await uploadFile(a, id, randomBytes(2000), randomBytes(300));
    const never = (await startUpload(a, id, { size: 1000 })).body.id;
    const append = await http("POST", `/api/conversations/${id}/append`, { token: a.api_token, body: { localid: "with-file", payload: await encrypted(key, "see attached"), attachments: [sent.id] } });
    expect(append.status).toBe(200);
    for (const file of [sent.id, unsent.id]) expect(await exists(attachmentObjectKey(id, file))).toBe(true);

    const files = [sent.id, unsent.id, never].map((fileId) => ({ owner: "conversation" as const, ownerId: id, fileId }));
    await dueNow(files);
    await sweep(files);

    const item = async (fid: number) => (await db().entities.attachment.get({ conversationId: id, id: fid }).go()).data;
    expect(await item(unsent.id)).toBeNull();
    expect(await item(never)).toBeNull();
    expect(await exists(attachmentObjectKey(id, unsent.id))).toBe(false);
    expect(await exists(attachmentObjectKey(id, unsent.id, "thumb"))).toBe(false);
    // The one a message took: its item, its bytes, its download.
    expect(await item(sent.id)).toMatchObject({ state: "attached" });
    expect(await exists(attachmentObjectKey(id, sent.id))).toBe(true);
    expect(await exists(attachmentObjectKey(id, sent.id, "thumb"))).toBe(true);
    expect((await http("GET", `/api/conversations/${id}/attachments/${sent.id}`, { token: b.api_token })).status).toBe(200);
    // The swept one cannot be sent any more.
    const late = await http("POST", `/api/conversations/${id}/append`, { token: a.api_token, body: { localid: "late", payload: await encrypted(key, "late"), attachments: [unsent.id] } });
    expect(late.status).toBe(422);
  });

  it("deletes a drive's and a card page's files that no drive item or card took", async () => {
    const { admin, ann, group } = await groupTeam();
    const bytes = randomBytes(3000);
    const page = (await post<{ id: number }>(admin, "/api/pages", { group, name: "Board", type: "pinboard" })).body.id;
    const upload = async (start: string, complete: (id: number) => string) => {
      const started = await post<{ id: number; parts: { url: string }[] }>(ann, start, start.includes("motes") ? { page_id: page, size: bytes.length } : { size: bytes.length });
      expect(started.status).toBe(200);
      await putBytes(started.body.parts[0]!.url, bytes);
      expect((await post(ann, complete(started.body.id), {})).status).toBe(200);
      return started.body.id;
    };
    const driveFile = await upload(`/api/drive/${group}/files`, (fid) => `/api/drive/${group}/files/${fid}/complete`);
    const cardFile = await upload("/api/motes/files", (fid) => `/api/motes/files/${fid}/complete`);
    expect(await exists(driveFiles(group).object(driveFile))).toBe(true);
    expect(await exists(cardFiles(group).object(cardFile))).toBe(true);

    const files: Watched[] = [
      { owner: "drive", ownerId: group, fileId: driveFile },
      { owner: "cards", ownerId: group, fileId: cardFile },
    ];
    await dueNow(files);
    await sweep(files);

    expect((await db().entities.drivefile.get({ groupId: group, id: driveFile }).go()).data).toBeNull();
    expect((await db().entities.motefile.get({ id: cardFile }).go()).data).toBeNull();
    expect(await exists(driveFiles(group).object(driveFile))).toBe(false);
    expect(await exists(cardFiles(group).object(cardFile))).toBe(false);
    expect((await get(ann, `/api/motes/files/${cardFile}`)).status).toBe(404);
  });

  it("a message that takes a file while the sweep deletes it: either the message has the file and it stays, or neither", async () => {
    const [a, b] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(a, b);
    const { id, key } = await startConversation(a, [b]);
    for (let round = 0; round < 4; round++) {
      const file = await uploadFile(a, id, randomBytes(1000));
      const [sent, deleted] = await Promise.all([
        http("POST", `/api/conversations/${id}/append`, { token: a.api_token, body: { localid: `race-${round}`, payload: await encrypted(key, "race"), attachments: [file.id] } }),
        Attachment.forgetUnused(id, file.id),
      ]);
      const bytes = await exists(attachmentObjectKey(id, file.id));
      if (sent.status === 200) {
        expect(deleted, `round ${round}`).toBe(false);
        expect(bytes).toBe(true);
      } else {
        expect(sent.status).toBe(422);
        expect(deleted).toBe(true);
        expect(bytes).toBe(false);
      }
    }
  });
});
