/**
 * Trusted Types (issue 11, item 8). The site's CSP says `require-trusted-types-for 'script'`, so
 * the browser refuses plain strings at every sink that can turn text into script or markup
 * (innerHTML, script.src, eval, …): an injected string cannot become markup, whatever code hands
 * it on. The app itself writes no HTML; React, the router and the crypto need no sink.
 *
 * One library does: Mantine writes its CSS variables and responsive styles into <style> elements
 * through React's dangerouslySetInnerHTML, a TrustedHTML sink. So the app installs the `default`
 * policy (the only policy the CSP's `trusted-types default` allows), which lets through exactly
 * the strings that cannot make markup: text without "<". Such a string only ever becomes text
 * (entities such as `&lt;` decode to characters, never to tags). Anything with "<" is refused,
 * reported as a violation, and the assignment throws. Script text gets no policy at all, and
 * script URLs only the app's own workers (below).
 *
 * One more library parses HTML: the cards' rich body (tiptap, features/groups/cards/rich-body.tsx)
 * turns the body's HTML into its document by DOMParser.parseFromString on `<body>…</body>`. That
 * call, and only that shape at that sink, is let through (`parsedRichText`): DOMParser builds an
 * inert document (no script runs, nothing loads, no handler fires) that ProseMirror only reads,
 * keeping the elements and attributes its schema knows and building its own nodes; nothing of
 * the parsed document is put into the page. Pasting HTML into the editor is turned into pasting
 * text there, so ProseMirror's clipboard parser (innerHTML on a detached element) is never asked.
 *
 * The calendar's library (FullCalendar 6, features/groups/calendar) measures the browser once by
 * writing two fixed, empty skeletons into a detached <div> by innerHTML: a table cell holding a
 * <div> (can a cell's child be 100 % high?) and a <div> (does a scrollbar sit on the left?).
 * Exactly those two strings at that sink are let through (`layoutProbe`): no attributes, no text,
 * nothing a caller could vary.
 *
 * Script URLs: only the workers the app's own modules start (a `?worker&url` import, which Vite
 * builds into a script of the site), each named to the policy by the module that starts it
 * (`workerScriptUrl`, worker-scripts.ts) and compared whole. No other string becomes a script
 * URL, and script text has no policy at all.
 *
 * Imported first by main.tsx, before any module that could touch a sink.
 */
import * as z from "zod";
import { ownWorkerScript } from "./worker-scripts";

export function markupFreeHtml(input: string): string | null {
  return typeof input === "string" && !input.includes("<") ? input : null;
}

/** The one HTML parse let through: the rich body's, into an inert document (see above). */
export function parsedRichText(input: string, sink: string | undefined): string | null {
  return typeof input === "string" && sink === "DOMParser parseFromString" && input.startsWith("<body>") && input.endsWith("</body>") ? input : null;
}

/** FullCalendar's two fixed layout probes (see above), compared whole. */
const LAYOUT_PROBES: readonly string[] = ["<table><tr><td><div></div></td></tr></table>", "<div></div>"];

export function layoutProbe(input: string, sink: string | undefined): string | null {
  return typeof input === "string" && sink === "Element innerHTML" && LAYOUT_PROBES.includes(input) ? input : null;
}

// zod would probe whether it may compile validators with `new Function` (a TrustedScript sink,
// and eval under the CSP): refused either way, it only leaves violation reports. Told not to try.
z.config({ jitless: true });

type Rule = (input: string, type?: string, sink?: string) => string | null;

interface TrustedTypePolicyFactory {
  createPolicy(name: string, rules: { createHTML?: Rule; createScriptURL?: Rule }): unknown;
}

const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;
// Browsers without Trusted Types (Firefox before 142, older Safari) ignore the CSP directive too.
factory?.createPolicy("default", {
  createHTML: (input, _type, sink) => markupFreeHtml(input) ?? parsedRichText(input, sink) ?? layoutProbe(input, sink),
  createScriptURL: ownWorkerScript,
});
