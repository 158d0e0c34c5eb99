import { describe, expect, it } from "vitest";
import { layoutProbe, markupFreeHtml, parsedRichText } from "./trusted-types";
import { ownWorkerScript, workerScriptUrl } from "./worker-scripts";

describe("the Trusted Types default policy (issue 11, item 8)", () => {
  it("lets through text that cannot make markup: Mantine's CSS variables", () => {
    const css = ":root{--mantine-color-scheme: light;--mantine-font-family: -apple-system, sans-serif;}@media (min-width: 48em){.x{display:none}}";
    expect(markupFreeHtml(css)).toBe(css);
    expect(markupFreeHtml("a &lt;b&gt; &amp; c")).toBe("a &lt;b&gt; &amp; c");
    expect(markupFreeHtml("")).toBe("");
  });

  it("refuses anything with a tag in it", () => {
    for (const evil of ['<img src=x onerror="alert(1)">', "</style><script>alert(1)</script>", "a<b", "<!-- -->"]) expect(markupFreeHtml(evil)).toBeNull();
    expect(markupFreeHtml(42 as unknown as string)).toBeNull();
  });

  it("lets HTML through only as the rich body's parse into an inert document: DOMParser, a whole <body>", () => {
    const body = "<body><p>Hi <strong>there</strong></p></body>";
    expect(parsedRichText(body, "DOMParser parseFromString")).toBe(body);
    for (const sink of ["Element innerHTML", "Element outerHTML", "Document write", "Range createContextualFragment", "Element insertAdjacentHTML", undefined]) expect(parsedRichText(body, sink)).toBeNull();
    for (const other of ["<p>Hi</p>", "<body><p>x</p>", "<p></p></body>", "<svg onload=alert(1)>"]) expect(parsedRichText(other, "DOMParser parseFromString")).toBeNull();
  });

  it("lets through only FullCalendar's two fixed layout probes, whole, at innerHTML", () => {
    for (const probe of ["<table><tr><td><div></div></td></tr></table>", "<div></div>"]) {
      expect(layoutProbe(probe, "Element innerHTML")).toBe(probe);
      expect(layoutProbe(probe, "Element outerHTML")).toBeNull();
      expect(layoutProbe(probe, "DOMParser parseFromString")).toBeNull();
    }
    for (const other of ["<div></div><img src=x onerror=alert(1)>", "<div onclick=x></div>", "<div>text</div>", " <div></div>", "<table><tr><td><div></div></td></tr></table><script></script>"]) {
      expect(layoutProbe(other, "Element innerHTML")).toBeNull();
    }
  });

  it("lets through as a script URL only a worker the app's own module named, whole", () => {
    expect(ownWorkerScript("/assets/page-chain.worker-abc123.js")).toBeNull();
    expect(workerScriptUrl("/assets/page-chain.worker-abc123.js")).toBe("/assets/page-chain.worker-abc123.js");
    expect(ownWorkerScript("/assets/page-chain.worker-abc123.js")).toBe("/assets/page-chain.worker-abc123.js");
    for (const other of ["/assets/page-chain.worker-abc123.js?x", "https://evil.example/assets/page-chain.worker-abc123.js", "data:text/javascript,postMessage(1)", "/assets/other.js", ""]) {
      expect(ownWorkerScript(other)).toBeNull();
    }
  });
});
