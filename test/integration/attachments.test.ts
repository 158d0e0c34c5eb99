import { encryptedFileSize, FILE_CHUNK_SIZE, openThumbnail } from "@sealwork/crypto";
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { completeUpload, decryptFile, downloadFile, putBytes, startUpload, uploadFile } from "../support/attachments";
import { encrypted, shareGroup, startConversation } from "../support/conversations";
import { collect, createPickup } from "../support/pickups";
import { createSession } from "../support/users";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function pair() {
  const [a, b, stranger] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" }), createSession({ name: "Sam" })]);
  await shareGroup(a, b);
  const { id, key } = await startConversation(a, [b]);
  return { a, b, stranger, id, key };
}

const append = (token: string, id: number, localid: string, payload: string, attachments?: number[]) =>
  http<{ mote: { id: number }; localid: string }>("POST", `/api/conversations/${id}/append`, { token, body: { localid, payload, ...(attachments ? { attachments } : {}) } });

describe("attachments", () => {
  it("uploads a small file with a thumbnail in one PUT; the other participant downloads and decrypts both", async () => {
    const { a, b, id, key } = await pair();
    const data = randomBytes(300_000);
    const thumb = randomBytes(2_000);
    const file = await uploadFile(a, id, data, thumb);
    expect(file.encrypted.length).toBe(encryptedFileSize(data.length, FILE_CHUNK_SIZE));

    // Not downloadable until a message attaches it.
    expect((await downloadFile(b, id, file.id)).status).toBe(404);
    const sent = await append(a.api_token, id, "with-file", await encrypted(key, "see attached"), [file.id]);
    expect(sent.status).toBe(200);

    const got = await downloadFile(b, id, file.id);
    expect(got.status).toBe(200);
    expect(sha256(await decryptFile(file.stream, got.bytes!))).toBe(sha256(data));
    const gotThumb = await downloadFile(b, id, file.id, true);
    expect(sha256(await openThumbnail(file.stream.key, new TextDecoder().decode(gotThumb.bytes!)))).toBe(sha256(thumb));

    const listed = await http<{ motes: { id: number }[] }>("GET", `/api/conversations/${id}/attachments`, { token: b.api_token });
    expect(listed.body.motes.map((m) => m.id)).toEqual([sent.body.mote.id]);
  });

  it("uploads a larger file in parts (multipart) and it decrypts whole", async () => {
    const { a, b, id, key } = await pair();
    const data = randomBytes(9 * 1024 * 1024 + 12_345);
    const started = await startUpload(a, id, { size: encryptedFileSize(data.length, FILE_CHUNK_SIZE) });
    expect(started.body).toMatchObject({ multipart: true, thumb_url: null });
    expect(started.body.parts).toHaveLength(2);
    const file = await uploadFile(a, id, data);
    expect((await append(a.api_token, id, "big", await encrypted(key, "big one"), [file.id])).status).toBe(200);
    const got = await downloadFile(b, id, file.id);
    expect(sha256(await decryptFile(file.stream, got.bytes!))).toBe(sha256(data));
    // No thumbnail was announced.
    expect((await downloadFile(b, id, file.id, true)).status).toBe(404);
  });

  it("an interrupted upload cannot be completed or attached, and leaves no message behind", async () => {
    const { a, id, key } = await pair();
    const single = await startUpload(a, id, { size: 1000 });
    // Nothing was PUT: the bucket does not hold the bytes.
    expect((await completeUpload(a, id, single.body.id)).status).toBe(409);
    // Half the bytes: the URL signs the announced length, so the bucket refuses them.
    await expect(putBytes(single.body.parts[0]!.url, randomBytes(500))).rejects.toThrow(/answered 403/);
    expect((await completeUpload(a, id, single.body.id)).status).toBe(409);
    // A multipart upload with a part missing.
    const multi = await startUpload(a, id, { size: 9 * 1024 * 1024 });
    const etag = await putBytes(multi.body.parts[0]!.url, randomBytes(8 * 1024 * 1024));
    expect((await completeUpload(a, id, multi.body.id, [etag])).status).toBe(409);

    const refused = await append(a.api_token, id, "dangling", await encrypted(key, "file?"), [single.body.id]);
    expect(refused.status).toBe(422);
    expect((refused.body as unknown as { message: string }).message).toMatch(/not uploaded/);
    const page = await http<{ motes: unknown[] }>("GET", `/api/conversations/${id}`, { token: a.api_token });
    expect(page.body.motes).toEqual([]);
    // The localid is free again: the refused message was not stored.
    expect((await append(a.api_token, id, "dangling", await encrypted(key, "no file"))).status).toBe(200);
  });

  it("a file goes into one message only, from its uploader only; a retry of that message is idempotent", async () => {
    const { a, b, id, key } = await pair();
    const file = await uploadFile(a, id, randomBytes(1000));
    expect((await append(b.api_token, id, "theirs", await encrypted(key, "mine now"), [file.id])).status).toBe(422);
    const first = await append(a.api_token, id, "once", await encrypted(key, "file"), [file.id]);
    expect(first.status).toBe(200);
    const retry = await append(a.api_token, id, "once", await encrypted(key, "file"), [file.id]);
    expect(retry.status).toBe(200);
    expect(retry.body.mote.id).toBe(first.body.mote.id);
    expect((await append(a.api_token, id, "twice", await encrypted(key, "again"), [file.id])).status).toBe(422);
  });

  it("keeps non-participants out, and refuses sizes over the limit", async () => {
    const { a, stranger, id, key } = await pair();
    const file = await uploadFile(a, id, randomBytes(100));
    await append(a.api_token, id, "x", await encrypted(key, "x"), [file.id]);
    expect((await startUpload(stranger, id, { size: 100 })).status).toBe(403);
    expect((await downloadFile(stranger, id, file.id)).status).toBe(403);
    expect((await http("GET", `/api/conversations/${id}/attachments`, { token: stranger.api_token })).status).toBe(403);
    expect((await completeUpload(stranger, id, file.id)).status).toBe(403);
    expect((await startUpload(a, id, { size: 2 * 1024 * 1024 * 1024 })).status).toBe(422);
    expect((await downloadFile(a, id, 999_999_999)).status).toBe(404);
  });

  it("lets a pickup's guest attach a file the creator downloads, and nothing of other conversations", async () => {
    const creator = await createSession({ name: "Creator" });
    const p = await createPickup(creator);
    const { recover } = await collect(p);
    const guest = { id: 0, api_token: recover.body.api_token };
    const data = randomBytes(50_000);
    const file = await uploadFile(guest, p.conversation_id, data);
    const payload = await encrypted(p.key, "my answer");
    expect((await append(guest.api_token, p.conversation_id, "guest-1", payload, [file.id])).status).toBe(200);
    const got = await downloadFile(creator, p.conversation_id, file.id);
    expect(sha256(await decryptFile(file.stream, got.bytes!))).toBe(sha256(data));

    const { a, id } = await pair();
    const theirs = await uploadFile(a, id, randomBytes(10));
    expect((await startUpload(guest, id, { size: 100 })).status).toBe(403);
    expect((await downloadFile(guest, id, theirs.id)).status).toBe(403);
  });
});
