/** Spec 000 §9: at most 50 results at first, more in chunks of 500 (the contracts' SELECTOR_FIRST and SELECTOR_CHUNK). */
export const FIRST_CHUNK = 50;
export const MORE_CHUNK = 500;
/** Spec 000 §9: the search waits this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 500;

/** The offset and size of the chunk after `loaded` people: the first 50, then 500 at a time. */
export function nextChunk(loaded: number): { offset: number; limit: number } {
  return { offset: loaded, limit: loaded === 0 ? FIRST_CHUNK : MORE_CHUNK };
}
