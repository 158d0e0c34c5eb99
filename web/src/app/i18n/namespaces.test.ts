import { describe, expect, it } from "vitest";

/**
 * Every namespace (lib's common and errors, the shell's, each feature's): German has exactly the
 * English keys (the types say so too), no text is empty, and each German text names the same
 * {{placeholders}} as its English one, which the types cannot see.
 */
const files = import.meta.glob<{ en?: object; de?: object }>("../../**/i18n/**/{en,de}.ts", { eager: true });

type Leaves = Record<string, string>;
function leaves(texts: object, prefix = ""): Leaves {
  return Object.entries(texts).reduce<Leaves>(
    (all, [key, value]) => ({ ...all, ...(typeof value === "string" ? { [prefix + key]: value } : leaves(value as object, `${prefix}${key}.`)) }),
    {},
  );
}
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const namespaces = Object.keys(files)
  .filter((path) => path.endsWith("/en.ts"))
  .map((path) => ({ path: path === "./en.ts" ? "app/i18n" : path.replace(/\/en\.ts$/, "").replace(/^(\.\.\/)+/, ""), en: leaves(files[path]!.en!), de: leaves(files[path.replace(/en\.ts$/, "de.ts")]!.de!) }));

describe("i18n namespaces", () => {
  it("are all found", () => {
    expect(namespaces.map((n) => n.path)).toEqual(
      expect.arrayContaining(["app/i18n", "lib/i18n/common", "lib/i18n/errors", "features/conversations/i18n", "features/login/i18n"]),
    );
  });

  it.each(namespaces)("$path: German matches English key for key and placeholder for placeholder", ({ en, de }) => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      expect(text.trim(), key).not.toBe("");
      expect(de[key]!.trim(), key).not.toBe("");
      expect(placeholders(de[key]!), key).toEqual(placeholders(text));
    }
  });

  // The German texts address the user with "du" throughout (most of them did; a mix reads as two
  // products): no formal "Ihr…" inside a sentence, no "Sie" after a verb ("versuchen Sie") or as
  // the one who may, can or must. A sentence's own "Sie" or "Ihre" (they, it, her) stays allowed.
  const formal = /(?<!^|[.!?:] )\b(Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b|\b\w+en Sie\b|\bSie (sind|dürfen|können|müssen)\b|\bNur Sie\b/;
  it.each(namespaces)("$path: German says du, not Sie", ({ de }) => {
    for (const [key, text] of Object.entries(de)) expect(formal.exec(text)?.[0], key).toBeUndefined();
  });
});
