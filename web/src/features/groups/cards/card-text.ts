/**
 * Pure helpers for showing cards: previews cut by characters (not UTF-16 units, so an emoji is
 * never split) and the photo browser's and swiper's movement.
 */

/** The first `count` characters of `text` (spec 002 §9: pinboard 100, blog teaser 255, long previews 400). */
export function firstCharacters(text: string, count: number): string {
  return [...text].slice(0, count).join("");
}

/** Whether `text` holds more than `count` characters, so a preview of it is cut. */
export function isCut(text: string, count: number): boolean {
  return [...text].length > count;
}

/** `index` moved by `step` in a ring of `total` items: past the last comes the first, before the first the last. */
export function wrapIndex(index: number, step: number, total: number): number {
  if (total <= 0) return 0;
  return (((index + step) % total) + total) % total;
}

/** The item shown and its neighbours (at most three indexes, each once): what the photo browser fetches. */
export function nearIndexes(index: number, total: number): number[] {
  if (total <= 0) return [];
  return [...new Set([index, wrapIndex(index, 1, total), wrapIndex(index, -1, total)])];
}

/** A horizontal drag of at least this many pixels moves to the neighbour. */
export const SWIPE_PIXELS = 50;

/** The step of a drag `dx` pixels wide: leftwards shows the next (1), rightwards the previous (-1), a short one stays (0). */
export function swipeStep(dx: number): -1 | 0 | 1 {
  if (dx <= -SWIPE_PIXELS) return 1;
  if (dx >= SWIPE_PIXELS) return -1;
  return 0;
}
