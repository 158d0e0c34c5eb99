/**
 * Reading a composed email (the outbox's `raw`, what SES is handed) as a receiving mail client
 * would: the header lines (continuation lines unfolded) and RFC 2047 encoded words decoded.
 */
export interface Header {
  name: string;
  value: string;
}

export function mailHeaders(raw: string): Header[] {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
  return head
    .replace(/\r\n[ \t]+/g, " ")
    .split("\r\n")
    .map((line) => {
      const colon = line.indexOf(":");
      return { name: line.slice(0, colon), value: line.slice(colon + 1).trim() };
    });
}

/** Decodes =?charset?Q|B?…?= words; the bytes of adjacent words are joined before decoding. */
export function decodeHeader(value: string): string {
  const word = /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/y;
  let out = "";
  let pending: Buffer[] = [];
  const flush = () => {
    out += Buffer.concat(pending).toString("utf8");
    pending = [];
  };
  for (let i = 0; i < value.length; ) {
    word.lastIndex = i;
    const match = word.exec(value);
    if (match) {
      const [, , encoding, text] = match as unknown as [string, string, string, string];
      pending.push(
        encoding.toUpperCase() === "B"
          ? Buffer.from(text, "base64")
          : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1"),
      );
      i = word.lastIndex;
      // Whitespace between two encoded words is not part of the text.
      const gap = /^[ \t]+(?==\?)/.exec(value.slice(i));
      if (gap) i += gap[0].length;
      continue;
    }
    flush();
    out += value[i];
    i += 1;
  }
  flush();
  return out;
}
