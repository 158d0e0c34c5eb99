import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { launchBrowser } from "../support/browser";
import { png } from "../support/png";
import { ROOT } from "../support/runtime";
import { benchPage, spaBundle } from "./browser-bundle";
import { figures } from "./keys";

/**
 * The calendar and the gallery in Chromium (issue 14, "Must show"), in one page drawn with the
 * SPA's own code (React, Mantine, FullCalendar; bundled with esbuild, not shipped), each beside the
 * fetch and decrypt of the same records without drawing, BENCH_CARD_RUNS (default 5) runs after a
 * warm-up, taking turns. The records are sealed in the page with the crypto package under one
 * epoch key and served to it as GET /api/motes would list them (page.route), in one answer.
 *
 * 1. **Calendar, BENCH_CALENDAR_EVENTS (default 5,000) events in one month**: the page's records
 *    opened (`openRecords`), then the time from the data being decrypted to the month drawn (to
 *    the next frame: `eventOfRecord`, the month's share by `limitPerDay`, FullCalendar with the
 *    page's MAIN_CALENDAR options and `dayWithMore`, as calendar-page.tsx does), switching to the
 *    next (empty) month and back to the full one, how many event elements the month builds against
 *    the events it holds, the '+N more' links, and the day one of them opens (all its events
 *    built then). Beside it: the same fetch and decrypt alone, the same calendar without events,
 *    and the mapping and limiting alone.
 * 2. **Gallery, BENCH_GALLERY_IMAGES (default 1,000) images**: from the fetch of the records to
 *    every thumbnail of the built tiles fetched, decrypted and drawn (the gallery's `GalleryGrid`
 *    in a 1280 × 720 window); beside it, the bare fetch and decrypt of the records and of the same
 *    number of thumbnails (`fetchThumbnail`), nothing drawn.
 *
 * Figures, not assertions: bench/results-card-pages.json.
 */
const EVENTS = Number(process.env.BENCH_CALENDAR_EVENTS ?? 5000);
const IMAGES = Number(process.env.BENCH_GALLERY_IMAGES ?? 1000);
const RUNS = Number(process.env.BENCH_CARD_RUNS ?? 5);
/** The full month (and the empty one after it). */
const YEAR = 2026;
const MONTH = 11;

const ENTRY = `
import "@mantine/core/styles.css";
import { MantineProvider } from "@mantine/core";
import FullCalendar from "@fullcalendar/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { base64urlDecode, base64urlEncode, exportFileKey, generateRecordId, generateSymmetricKey, newFileStream, sealMote, sealThumbnail, serializeFileStreamHeader } from "@sealwork/crypto";
import { createRef, useMemo, useState } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { fetchThumbnail } from "./src/features/conversations";
import { eventOfRecord, eventsForView, limitPerDay, nextRange } from "./src/features/groups/calendar/calendar-events";
import { DAY_MAX_EVENTS, MAIN_CALENDAR } from "./src/features/groups/calendar/main-calendar";
import { dayWithMore } from "./src/features/groups/calendar/day-more";
import { GalleryGrid } from "./src/features/groups/gallery/gallery-grid";
import { photosOf } from "./src/features/groups/gallery/gallery-page";
import { openRecords } from "./src/features/groups/records/open-records";
import { cardSpace } from "./src/features/groups/records/records";

const GROUP = 7;
const PAGE = 1;
let key;
const ring = () => ({ groupId: GROUP, epoch: 0, keyFor: async () => key });
const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const pad = (n) => String(n).padStart(2, "0");

async function mote(id, payload) {
  const recordId = generateRecordId();
  const sealed = await sealMote(key, { groupId: GROUP, recordId, epoch: 0 }, payload);
  return { id, record_id: recordId, group_id: GROUP, domain_id: PAGE, type_id: 0, source_id: 1, timestamp: 0, modified: 0, relationships: [], ...sealed, epoch: 0, page_key: null, size: sealed.payload.length, comments: 0, files: payload.media ? [payload.media.id] : [], editable: true };
}

/** GET /api/motes as the page fetches it, opened as usePageRecords opens it. */
async function fetchOpen(url) {
  const answer = await (await fetch(url)).json();
  return openRecords(ring(), answer.motes);
}

/** The calendar page's main calendar as calendar-page.tsx gives it its events: the month's share, '+N more', the day's events when one is opened. */
function MainCalendar({ events, initialDate, calendar }) {
  const [range, setRange] = useState(null);
  const month = useMemo(() => limitPerDay(events, DAY_MAX_EVENTS), [events]);
  const drawn = useMemo(() => eventsForView(events, month.shown, range), [events, month, range]);
  const dayContent = useMemo(() => dayWithMore(month.more, (n) => "+" + n + " more", (date) => calendar.current.getApi().changeView("timeGridDay", date)), [month]);
  const datesSet = ({ view }) => setRange((r) => nextRange(r, view));
  return <FullCalendar ref={calendar} {...MAIN_CALENDAR} initialDate={initialDate} dayCellContent={dayContent} events={drawn} datesSet={datesSet} />;
}

function mount() {
  const host = document.createElement("div");
  host.style.width = "1000px";
  document.body.append(host);
  const root = createRoot(host);
  return { host, root, done: () => { root.unmount(); host.remove(); } };
}

globalThis.bench = {
  async key() {
    key = await generateSymmetricKey();
  },

  /** The calendar's records: count events spread over the days and hours of one month. */
  async events(count, year, month) {
    const days = new Date(year, month + 1, 0).getDate();
    const motes = await Promise.all(Array.from({ length: count }, (_, i) => {
      const day = 1 + (i % days);
      const hour = 6 + (Math.floor(i / days) % 14);
      const minute = (i * 7) % 60;
      const start = year + "-" + pad(month + 1) + "-" + pad(day) + "T" + pad(hour) + ":" + pad(minute);
      const end = year + "-" + pad(month + 1) + "-" + pad(day) + "T" + pad(hour + 1) + ":" + pad(minute);
      return mote(i + 1, { title: "Termin " + i, content: "Besprechung " + i, event_start: start, event_end: end, tags: ["T" + (i % 5)] });
    }));
    return JSON.stringify({ motes, next: null, can_create: true, epoch: 0 });
  },

  /** The gallery's records: count image cards, each with its own file key and sealed thumbnail (the served text in thumbs). */
  async images(count, pngBase64) {
    const image = base64urlDecode(pngBase64);
    const thumbs = {};
    const motes = [];
    for (let i = 0; i < count; i++) {
      const stream = await newFileStream();
      const id = i + 1;
      thumbs[id] = await sealThumbnail(stream.key, image);
      const media = { id, name: "bild-" + i + ".png", type: "image/png", size: image.length, key: base64urlEncode(await exportFileKey(stream)), header: serializeFileStreamHeader(stream.header), thumb: true };
      motes.push(await mote(id, { title: "Bild " + i, media }));
    }
    return { listing: JSON.stringify({ motes, next: null, can_create: true, epoch: 0 }), thumbs };
  },

  /** The bare work: fetch and decrypt of the records (and of the first \`thumbs\` thumbnails), nothing drawn. */
  async bare(url, thumbs) {
    const started = performance.now();
    const records = await fetchOpen(url);
    const opened = performance.now() - started;
    if (thumbs) {
      const photos = photosOf(records, "(untitled)").slice(0, thumbs);
      await Promise.all(photos.map((photo) => fetchThumbnail(cardSpace(PAGE), photo.media)));
    }
    return { records_ms: opened, ms: performance.now() - started, records: records.length };
  },

  /** The calendar page's main calendar over the records: drawn, switched, a '+N more' opened; first the same calendar without events. */
  async calendar(url, initialDate) {
    const empty = mount();
    const mounted = performance.now();
    flushSync(() => empty.root.render(<MainCalendar calendar={createRef()} initialDate={initialDate} events={[]} />));
    await frame();
    const empty_ms = performance.now() - mounted;
    empty.done();
    const fetched = performance.now();
    const records = await fetchOpen(url);
    const decrypted = performance.now();
    const events = records.flatMap((record) => {
      const event = eventOfRecord(record, "(untitled)");
      return event ? [{ ...event, editable: record.editable, color: "#1864ab" }] : [];
    });
    const { host, root, done } = mount();
    const calendar = createRef();
    flushSync(() => root.render(<MainCalendar calendar={calendar} initialDate={initialDate} events={events} />));
    await frame();
    const drawn = performance.now();
    const built = host.querySelectorAll(".fc-event").length;
    const links = [...host.querySelectorAll(".fc-daygrid-more-link, [data-calendar-more]")];
    const hidden = links.reduce((n, link) => n + Number(/\\d+/.exec(link.textContent ?? "")?.[0] ?? 0), 0);
    const api = calendar.current.getApi();
    let started = performance.now();
    flushSync(() => api.next());
    await frame();
    const next_ms = performance.now() - started;
    const builtNext = host.querySelectorAll(".fc-event").length;
    started = performance.now();
    flushSync(() => api.prev());
    await frame();
    const back_ms = performance.now() - started;
    const link = host.querySelector("[data-calendar-more]");
    const more = Number(/\\d+/.exec(link?.textContent ?? "")?.[0] ?? 0);
    started = performance.now();
    flushSync(() => link?.click());
    await frame();
    await frame();
    const open_day_ms = performance.now() - started;
    const inDay = host.querySelectorAll(".fc-event").length;
    done();
    // The page's own share of the drawing: the events mapped and limited, timed apart.
    const limited = performance.now();
    limitPerDay(records.flatMap((record) => eventOfRecord(record, "(untitled)") ?? []), DAY_MAX_EVENTS);
    const limit_ms = performance.now() - limited;
    return { records_ms: decrypted - fetched, empty_ms, limit_ms, render_ms: drawn - decrypted, next_ms, back_ms, open_day_ms, events: events.length, built, built_next_month: builtNext, more_links: links.length, hidden_behind_more: hidden, first_more: more, built_in_day: inDay };
  },

  /** The gallery page's grid over the records: from the fetch to every built tile's thumbnail drawn. */
  async gallery(url) {
    const started = performance.now();
    const records = await fetchOpen(url);
    const decrypted = performance.now();
    const photos = photosOf(records, "(untitled)");
    const { host, root, done } = mount();
    host.style.width = "";
    const client = new QueryClient();
    flushSync(() =>
      root.render(
        <MantineProvider>
          <QueryClientProvider client={client}>
            <GalleryGrid pageId={PAGE} photos={photos} readOnly={false} onOpen={() => {}} onEdit={() => {}} />
          </QueryClientProvider>
        </MantineProvider>,
      ),
    );
    for (;;) {
      await frame();
      const tiles = [...host.querySelectorAll('[role="listitem"]')];
      const images = tiles.map((tile) => tile.querySelector('img[data-thumb-state="thumb"]'));
      if (tiles.length > 0 && images.every((img) => img && img.complete && img.naturalWidth > 0)) break;
      if (performance.now() - started > 60000) throw new Error("the thumbnails were not drawn in 60 s");
    }
    const shown = performance.now();
    const tiles = host.querySelectorAll('[role="listitem"]').length;
    client.clear();
    done();
    return { records_ms: decrypted - started, open_ms: shown - started, tiles, photos: photos.length };
  },
};
`;

const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 1)) * 100) / 100;
type Row = Record<string, number>;
const median = (rows: Row[], field: string) => figures(rows.map((r) => r[field]!));

/** Serves GET /api/motes (the sealed listing) and, for the gallery, the thumbnails' links and their sealed text. */
async function serve(page: Page, listing: () => string, thumbs: () => Record<string, string>, served: { thumbs: number }) {
  await page.route("http://localhost/api/motes*", (route) => route.fulfill({ contentType: "application/json", headers: { "cache-control": "no-store" }, body: listing() }));
  await page.route("http://localhost/api/motes/files/*", (route) => {
    const fid = /files\/(\d+)/.exec(route.request().url())![1]!;
    return route.fulfill({ contentType: "application/json", headers: { "cache-control": "no-store" }, body: JSON.stringify({ url: `http://localhost/bench-thumbs/${fid}`, size: thumbs()[fid]!.length }) });
  });
  await page.route("http://localhost/bench-thumbs/*", (route) => {
    served.thumbs++;
    return route.fulfill({ contentType: "text/plain", headers: { "cache-control": "no-store" }, body: thumbs()[route.request().url().split("/").pop()!]! });
  });
}

export async function runCardPagesBench(): Promise<void> {
  const browser = await launchBrowser();
  try {
    const page = await benchPage(browser, "card-pages", ENTRY, spaBundle);
    page.on("pageerror", (error) => console.error("bench page:", error.message));
    await page.setViewportSize({ width: 1280, height: 720 });
    let listing = "";
    let thumbs: Record<string, string> = {};
    const served = { thumbs: 0 };
    await serve(page, () => listing, () => thumbs, served);
    const url = "http://localhost/api/motes?page=1";
    await page.evaluate("bench.key()");

    // 1. The calendar.
    listing = (await page.evaluate(`bench.events(${EVENTS}, ${YEAR}, ${MONTH})`)) as string;
    const month = `${YEAR}-${String(MONTH + 1).padStart(2, "0")}-01`;
    await page.evaluate(`bench.calendar(${JSON.stringify(url)}, "${month}")`);
    await page.evaluate(`bench.bare(${JSON.stringify(url)}, 0)`);
    const calendarRuns: Row[] = [];
    const calendarBare: Row[] = [];
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 === 0 ? ["draw", "bare"] : ["bare", "draw"];
      for (const way of order) {
        if (way === "draw") calendarRuns.push((await page.evaluate(`bench.calendar(${JSON.stringify(url)}, "${month}")`)) as Row);
        else calendarBare.push((await page.evaluate(`bench.bare(${JSON.stringify(url)}, 0)`)) as Row);
      }
    }
    const last = calendarRuns.at(-1)!;
    const bareCalendar = median(calendarBare, "ms");
    const render = median(calendarRuns, "render_ms");
    const calendar = {
      events: last.events,
      fetch_and_decrypt: bareCalendar,
      fetch_and_decrypt_in_the_drawing_run: median(calendarRuns, "records_ms"),
      render_after_decrypt: render,
      render_without_events: median(calendarRuns, "empty_ms"),
      events_mapped_and_limited: median(calendarRuns, "limit_ms"),
      switch_to_next_month: median(calendarRuns, "next_ms"),
      switch_back_to_full_month: median(calendarRuns, "back_ms"),
      open_more_as_the_day: median(calendarRuns, "open_day_ms"),
      render_to_fetch_and_decrypt: ratio(render.median_ms, bareCalendar.median_ms),
      event_elements_built: last.built,
      more_links: last.more_links,
      events_behind_more: last.hidden_behind_more,
      first_more_link_events: last.first_more,
      built_once_opened: last.built_in_day,
    };
    console.log(JSON.stringify({ calendar }));

    // 2. The gallery.
    const made = (await page.evaluate(`bench.images(${IMAGES}, ${JSON.stringify(png(200, 150).toString("base64url"))})`)) as { listing: string; thumbs: Record<string, string> };
    listing = made.listing;
    thumbs = made.thumbs;
    const warm = (await page.evaluate(`bench.gallery(${JSON.stringify(url)})`)) as Row;
    await page.evaluate(`bench.bare(${JSON.stringify(url)}, ${warm.tiles})`);
    const galleryRuns: Row[] = [];
    const galleryBare: Row[] = [];
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 === 0 ? ["draw", "bare"] : ["bare", "draw"];
      for (const way of order) {
        if (way === "draw") {
          const before = served.thumbs;
          const row = (await page.evaluate(`bench.gallery(${JSON.stringify(url)})`)) as Row;
          galleryRuns.push({ ...row, thumbs_fetched: served.thumbs - before });
        }
        else galleryBare.push((await page.evaluate(`bench.bare(${JSON.stringify(url)}, ${warm.tiles})`)) as Row);
      }
    }
    const open = median(galleryRuns, "open_ms");
    const bareGallery = median(galleryBare, "ms");
    const gallery = {
      images: IMAGES,
      tiles_built: galleryRuns.at(-1)!.tiles,
      thumbnails_fetched_and_decrypted: galleryRuns.at(-1)!.thumbs_fetched,
      open_to_thumbnails_drawn: open,
      records_fetch_and_decrypt_in_the_drawing_run: median(galleryRuns, "records_ms"),
      bare_records_fetch_and_decrypt: median(galleryBare, "records_ms"),
      bare_records_and_visible_thumbnails: bareGallery,
      open_to_bare: ratio(open.median_ms, bareGallery.median_ms),
    };
    console.log(JSON.stringify({ gallery }));

    const result = { measuredAt: new Date().toISOString(), node: process.version, browser: browser.version(), cpus: cpus().length, runs: RUNS, calendar, gallery };
    mkdirSync(join(ROOT, "bench"), { recursive: true });
    const file = join(ROOT, "bench", "results-card-pages.json");
    writeFileSync(file, JSON.stringify(result, null, 2));
    console.log(`written to ${file}`);
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runCardPagesBench();
