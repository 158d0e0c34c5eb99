import { base64urlDecode, decryptFileStream, encryptFileChunk, encryptedFileSize, fileChunkCount, importFileStream, newFileStream } from "@sealwork/crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FileSpace, TransferError, encryptedParts, isAbort, uploadFile } from "./transfer";

// The spaces under test are fakes: the API client (and the session it reads) stays out.
vi.mock("../../../lib/api", () => ({ call: vi.fn() }));

/** A file of `size` bytes that are not all alike. */
const bytesOf = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 7 + (i >> 8)) & 255);

/** The bytes of the blobs one after the other (a Buffer: its equals is quick where toEqual walks 3 MB). */
async function concatenated(blobs: Blob[]): Promise<Buffer> {
  return Buffer.from(await new Blob(blobs).arrayBuffer());
}

describe("encryptedParts", () => {
  it("cuts the same bytes as chunk-by-chunk encryption into parts of the part size, the last one shorter", async () => {
    const stream = await newFileStream(1024);
    for (const size of [0, 1, 1023, 1024, 4096 - 16 * 4, 5000, 9 * 1024 + 3]) {
      const data = bytesOf(size);
      const count = fileChunkCount(size, 1024);
      const expected: Uint8Array[] = [];
      for (let i = 0; i < count; i++) expected.push(await encryptFileChunk(stream, i, i === count - 1, data.subarray(i * 1024, (i + 1) * 1024)));
      const parts: Blob[] = [];
      for await (const part of encryptedParts(new Blob([data]), stream, 3000)) parts.push(new Blob(part));
      const total = encryptedFileSize(size, 1024);
      expect(parts.map((p) => p.size)).toEqual(Array.from({ length: Math.ceil(total / 3000) }, (_, i) => Math.min(3000, total - i * 3000)));
      expect((await concatenated(parts)).equals(await concatenated(expected.map((e) => new Blob([e as Uint8Array<ArrayBuffer>]))))).toBe(true);
    }
  });
});

/** What the fake bucket saw of one PUT. */
interface Put {
  url: string;
  body: Blob;
  settle: (status: number) => void;
  progress: (loaded: number) => void;
  aborted: boolean;
}

/** XMLHttpRequest as transfer.ts uses it, answered by the test through `puts`. */
let puts: Put[];
let waiting: ((put: Put) => void)[];
class FakeXhr {
  upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  private url = "";
  private put?: Put;
  open(_method: string, url: string) {
    this.url = url;
  }
  getResponseHeader() {
    return `"etag ${this.url}"`;
  }
  send(body: Blob) {
    this.put = {
      url: this.url,
      body,
      aborted: false,
      settle: (status) => {
        this.status = status;
        if (status) this.onload?.();
        else this.onerror?.();
      },
      progress: (loaded) => this.upload.onprogress?.({ loaded }),
    };
    puts.push(this.put);
    waiting.shift()?.(this.put);
  }
  abort() {
    this.put!.aborted = true;
    this.onabort?.();
  }
}

/** The next PUT the upload sends (already sent, or when it is). */
const nextPut = (): Promise<Put> => {
  const sent = puts.find((p) => !(p as { seen?: boolean }).seen);
  const mark = (p: Put) => ((p as { seen?: boolean }).seen = true, p);
  return sent ? Promise.resolve(mark(sent)) : new Promise((resolve) => waiting.push((p) => resolve(mark(p))));
};

/** A space whose start answers `parts` part URLs of `partSize` bytes. */
function space(partSize: number, parts: number) {
  const completed: { etags?: string[] }[] = [];
  const files: FileSpace = {
    key: ["test"],
    start: async () => ({ id: 5, parts: Array.from({ length: parts }, (_, i) => ({ n: i + 1, url: `part-${i + 1}` })), part_size: partSize, multipart: parts > 1, thumb_url: null }),
    complete: async (_id, body) => void completed.push(body),
    link: async () => ({ url: "", size: 0 }),
  };
  return { files, completed };
}

describe("uploadFile", () => {
  const original = globalThis.XMLHttpRequest;
  beforeEach(() => {
    puts = [];
    waiting = [];
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    globalThis.XMLHttpRequest = original;
  });

  const MiB = 1024 * 1024;
  const file = new File([bytesOf(3 * MiB + 5)], "report.bin", { type: "application/octet-stream" });
  const total = encryptedFileSize(file.size, MiB);
  const partSize = MiB;
  const partCount = Math.ceil(total / partSize);

  it("sends two parts at a time, completes with the ETags in part order and the bytes decrypt to the file", async () => {
    const { files, completed } = space(partSize, partCount);
    const progress: number[] = [];
    const done = uploadFile(files, file, { onProgress: (sent) => progress.push(sent) });
    const first = await nextPut();
    const second = await nextPut();
    // Two on their way, the third waits for one of them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(puts).toHaveLength(2);
    second.progress(100);
    second.settle(200);
    first.progress(10);
    first.settle(200);
    for (let i = 2; i < partCount; i++) (await nextPut()).settle(200);
    const ref = await done;
    expect(puts.map((p) => p.url)).toEqual(Array.from({ length: partCount }, (_, i) => `part-${i + 1}`));
    expect(completed).toEqual([{ etags: Array.from({ length: partCount }, (_, i) => `"etag part-${i + 1}"`) }]);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(total);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const stream = await importFileStream(base64urlDecode(ref.key), ref.header);
    const plain: Uint8Array[] = [];
    for await (const chunk of decryptFileStream(stream, (async function* () { for (const p of puts) yield new Uint8Array(await p.body.arrayBuffer()); })())) plain.push(chunk);
    expect((await concatenated(plain.map((p) => new Blob([p as Uint8Array<ArrayBuffer>])))).equals(await concatenated([file]))).toBe(true);
  });

  it("retries a failed part, and when it fails for good stops the other part and never completes", async () => {
    const { files, completed } = space(partSize, partCount);
    const done = uploadFile(files, file);
    done.catch(() => undefined);
    const first = await nextPut();
    const second = await nextPut();
    first.settle(0);
    (await nextPut()).settle(503);
    const third = await nextPut();
    expect(third.url).toBe("part-1");
    third.settle(500);
    await expect(done).rejects.toBeInstanceOf(TransferError);
    expect(second.aborted).toBe(true);
    expect(completed).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(puts).toHaveLength(4);
  });

  it("stops every part on its way when the user cancels, and sends no more", async () => {
    const { files, completed } = space(partSize, partCount);
    const cancel = new AbortController();
    const done = uploadFile(files, file, { signal: cancel.signal });
    done.catch(() => undefined);
    (await nextPut()).settle(200);
    const [a, b] = [await nextPut(), await nextPut()];
    cancel.abort();
    const error = await done.catch((e: unknown) => e);
    expect(isAbort(error)).toBe(true);
    expect([a.aborted, b.aborted]).toEqual([true, true]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(puts).toHaveLength(3);
    expect(completed).toEqual([]);
  });
});
