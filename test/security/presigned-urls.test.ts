import { createHash, randomBytes } from "node:crypto";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { ATTACHMENT_PART_SIZE } from "@sealwork/contracts";
import { attachmentObjectKey } from "@sealwork/core/storage";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { http } from "../support/api";
import { completeUpload, startUpload } from "../support/attachments";
import { encrypted, shareGroup, startConversation } from "../support/conversations";
import { createSession } from "../support/users";

/**
 * Presigned URLs are scoped as S3 scopes them, and the local bucket proves it: it checks every
 * request's Signature Version 4 (packages/local/src/s3-gate.ts) as S3 does. An upload URL writes
 * exactly the announced bytes to a key no download reads; nothing can replace a file once it was
 * completed; a URL works for its own key, method and lifetime only; unsigned requests get nothing.
 */
type Session = Awaited<ReturnType<typeof createSession>>;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const bucket = () => inject("runtime").env.BUCKET_NAME!;
const endpoint = () => inject("runtime").env.S3_ENDPOINT!;

async function send(url: string, method: string, body?: Uint8Array) {
  const response = await fetch(url, { method, body });
  return { status: response.status, text: await response.text() };
}

const s3Error = (text: string) => /<Code>([^<]+)<\/Code>/.exec(text)?.[1];

async function downloadUrl(who: Session, conversationId: number, id: number, thumb = false): Promise<string> {
  const reply = await http<{ url: string }>("GET", `/api/conversations/${conversationId}/attachments/${id}${thumb ? "?thumb=1" : ""}`, { token: who.api_token });
  expect(reply.status).toBe(200);
  return reply.body.url;
}

const bytesAt = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

/** A URL with another path: the same signature for another key. */
function withPath(url: string, path: string): string {
  const changed = new URL(url);
  changed.pathname = path;
  return changed.toString();
}

let a: Session;
let b: Session;
let conversationId: number;
let conversationKey: Awaited<ReturnType<typeof startConversation>>["key"];

beforeAll(async () => {
  [a, b] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
  await shareGroup(a, b);
  ({ id: conversationId, key: conversationKey } = await startConversation(a, [b]));
});

/** Uploads `file` (and `thumb`) as the browser does, completes and sends it; answers the upload's URLs. */
async function sendFile(file: Uint8Array, thumb?: Uint8Array) {
  const started = await startUpload(a, conversationId, { size: file.length, ...(thumb ? { thumb_size: thumb.length } : {}) });
  expect(started.status).toBe(200);
  const upload = started.body;
  const etags: string[] = [];
  for (const part of upload.parts) {
    const put = await fetch(part.url, { method: "PUT", body: file.subarray((part.n - 1) * upload.part_size, part.n * upload.part_size) });
    expect(put.status, await put.text()).toBe(200);
    etags.push(put.headers.get("etag") ?? "");
  }
  if (thumb) expect((await send(upload.thumb_url!, "PUT", thumb)).status).toBe(200);
  expect((await completeUpload(a, conversationId, upload.id, upload.multipart ? etags : undefined)).status).toBe(200);
  const sent = await http("POST", `/api/conversations/${conversationId}/append`, {
    token: a.api_token,
    body: { localid: `file-${upload.id}`, payload: await encrypted(conversationKey, "a file"), attachments: [upload.id] },
  });
  expect(sent.status).toBe(200);
  return upload;
}

describe("upload URLs", () => {
  it("sign the exact length and live 15 minutes (a single PUT, a thumbnail) or an hour (the parts of a multipart upload)", async () => {
    const single = await startUpload(a, conversationId, { size: 1000, thumb_size: 100 });
    for (const url of [single.body.parts[0]!.url, single.body.thumb_url!]) {
      const query = new URL(url).searchParams;
      expect(query.get("X-Amz-SignedHeaders")!.split(";")).toContain("content-length");
      expect(Number(query.get("X-Amz-Expires"))).toBe(15 * 60);
    }
    const multi = await startUpload(a, conversationId, { size: ATTACHMENT_PART_SIZE + 10 });
    for (const part of multi.body.parts) {
      const query = new URL(part.url).searchParams;
      expect(query.get("X-Amz-SignedHeaders")!.split(";")).toContain("content-length");
      expect(Number(query.get("X-Amz-Expires"))).toBe(60 * 60);
    }
  });

  it("take no byte more or less than announced", async () => {
    const started = await startUpload(a, conversationId, { size: 1000 });
    const url = started.body.parts[0]!.url;
    const longer = await send(url, "PUT", randomBytes(50_000));
    expect(longer.status).toBe(403);
    expect(s3Error(longer.text)).toBe("SignatureDoesNotMatch");
    expect((await send(url, "PUT", randomBytes(999))).status).toBe(403);
    expect((await send(url, "PUT", randomBytes(1000))).status).toBe(200);

    const multi = await startUpload(a, conversationId, { size: ATTACHMENT_PART_SIZE + 10 });
    const lastPart = multi.body.parts[1]!.url;
    expect((await send(lastPart, "PUT", randomBytes(ATTACHMENT_PART_SIZE))).status).toBe(403);
    expect((await send(lastPart, "PUT", randomBytes(10))).status).toBe(200);
  });

  it("cannot replace a file once it was completed and sent: the recipient downloads what was sent", async () => {
    const file = randomBytes(1000);
    const thumb = randomBytes(100);
    const upload = await sendFile(file, thumb);
    // The same URLs again, with other bytes of the signed length: they write to the staging key only.
    await send(upload.parts[0]!.url, "PUT", randomBytes(1000));
    await send(upload.thumb_url!, "PUT", randomBytes(100));
    expect(sha256(await bytesAt(await downloadUrl(b, conversationId, upload.id)))).toBe(sha256(file));
    expect(sha256(await bytesAt(await downloadUrl(b, conversationId, upload.id, true)))).toBe(sha256(thumb));
    // Pointed at the file's own key, the upload URL's signature no longer holds.
    const atFile = await send(withPath(upload.parts[0]!.url, `/${bucket()}/${attachmentObjectKey(conversationId, upload.id)}`), "PUT", randomBytes(1000));
    expect(atFile.status).toBe(403);
    expect(s3Error(atFile.text)).toBe("SignatureDoesNotMatch");
    expect(sha256(await bytesAt(await downloadUrl(b, conversationId, upload.id)))).toBe(sha256(file));
  });

  it("of a multipart upload add nothing to the file once it was completed", async () => {
    const file = randomBytes(ATTACHMENT_PART_SIZE + 10);
    const upload = await sendFile(file);
    await send(upload.parts[1]!.url, "PUT", randomBytes(10));
    expect(sha256(await bytesAt(await downloadUrl(b, conversationId, upload.id)))).toBe(sha256(file));
  });

  it("cannot read: not the staged upload, not the file", async () => {
    const upload = await sendFile(randomBytes(1000));
    const asRead = await send(upload.parts[0]!.url, "GET");
    expect(asRead.status).toBe(403);
    expect(s3Error(asRead.text)).toBe("SignatureDoesNotMatch");
    expect((await send(withPath(upload.parts[0]!.url, `/${bucket()}/${attachmentObjectKey(conversationId, upload.id)}`), "GET")).status).toBe(403);
  });
});

describe("download URLs", () => {
  it("read their own object only: another key, the thumbnail's or another conversation's, is refused", async () => {
    const first = await sendFile(randomBytes(1000), randomBytes(100));
    const second = await sendFile(randomBytes(1000));
    const url = await downloadUrl(b, conversationId, first.id);
    expect((await send(url, "GET")).status).toBe(200);
    for (const key of [attachmentObjectKey(conversationId, second.id), attachmentObjectKey(conversationId, first.id, "thumb"), attachmentObjectKey(conversationId + 1, first.id)]) {
      const changed = await send(withPath(url, `/${bucket()}/${key}`), "GET");
      expect(changed.status, key).toBe(403);
      expect(s3Error(changed.text)).toBe("SignatureDoesNotMatch");
    }
  });

  it("cannot write, and a failed write leaves the file as it was", async () => {
    const file = randomBytes(1000);
    const upload = await sendFile(file);
    const url = await downloadUrl(b, conversationId, upload.id);
    const write = await send(url, "PUT", randomBytes(1000));
    expect(write.status).toBe(403);
    expect(s3Error(write.text)).toBe("SignatureDoesNotMatch");
    expect((await send(url, "DELETE")).status).toBe(403);
    expect(sha256(await bytesAt(url))).toBe(sha256(file));
  });

  it("live five minutes (the bucket refuses them after X-Amz-Expires, see packages/local/src/s3-gate.test.ts)", async () => {
    const upload = await sendFile(randomBytes(1000));
    expect(new URL(await downloadUrl(b, conversationId, upload.id)).searchParams.get("X-Amz-Expires")).toBe("300");
  });
});

describe("the bucket", () => {
  it("answers no unsigned request: no read, no write, no listing", async () => {
    const upload = await sendFile(randomBytes(1000));
    const objectUrl = `${endpoint()}/${bucket()}/${attachmentObjectKey(conversationId, upload.id)}`;
    for (const [url, method] of [
      [objectUrl, "GET"],
      [objectUrl, "HEAD"],
      [objectUrl, "PUT"],
      [objectUrl, "DELETE"],
      [`${endpoint()}/${bucket()}?list-type=2`, "GET"],
      [`${endpoint()}/`, "GET"],
    ] as const) {
      const reply = await send(url, method, method === "PUT" ? randomBytes(10) : undefined);
      expect(reply.status, `${method} ${url}`).toBe(403);
      if (method !== "HEAD") expect(s3Error(reply.text)).toBe("AccessDenied");
    }
  });

  it("refuses a URL whose signature or credential was tampered with", async () => {
    const upload = await sendFile(randomBytes(1000));
    const url = new URL(await downloadUrl(b, conversationId, upload.id));
    const signature = url.searchParams.get("X-Amz-Signature")!;
    const tampered = new URL(url);
    tampered.searchParams.set("X-Amz-Signature", `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`);
    expect((await send(tampered.toString(), "GET")).status).toBe(403);
    const longer = new URL(url);
    longer.searchParams.set("X-Amz-Expires", "604800");
    expect((await send(longer.toString(), "GET")).status).toBe(403);
    const unsignedHost = new URL(url);
    unsignedHost.searchParams.delete("X-Amz-SignedHeaders");
    expect((await send(unsignedHost.toString(), "GET")).status).toBe(400);
  });

  it("checks header-signed requests too: a wrong secret, an unknown key, a body that is not the signed one", async () => {
    const client = (secretAccessKey: string, accessKeyId = "S3RVER") =>
      new S3Client({ region: "eu-central-2", endpoint: endpoint(), forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
    await expect(client("S3RVER").send(new ListObjectsV2Command({ Bucket: bucket(), MaxKeys: 1000 }))).resolves.toBeDefined();
    await expect(client("not-the-secret").send(new ListObjectsV2Command({ Bucket: bucket(), MaxKeys: 1000 }))).rejects.toMatchObject({ name: "SignatureDoesNotMatch" });
    await expect(client("S3RVER", "SOMEONE").send(new ListObjectsV2Command({ Bucket: bucket(), MaxKeys: 1000 }))).rejects.toMatchObject({ name: "InvalidAccessKeyId" });

    // A signed PUT whose body is swapped on the way: the signature names the body's SHA-256.
    const swapped = client("S3RVER");
    swapped.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { body?: unknown };
        request.body = "SIGNED BODY";
        return next(args);
      },
      // After signing: the deserialize step wraps the sending itself.
      { step: "deserialize", name: "swapBody" },
    );
    await expect(swapped.send(new PutObjectCommand({ Bucket: bucket(), Key: "uploads/swapped", Body: "signed body" }))).rejects.toMatchObject({ name: "XAmzContentSHA256Mismatch" });
  });
});
