/**
 * Tags as typed (spec 001 §5): comma separated, each trimmed, blank entries dropped, and a tag
 * that differs from an earlier one only in case ignored (the first spelling kept).
 */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of text.split(",")) {
    const tag = part.trim();
    const key = tag.toLocaleLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}
