import { describe, expect, it } from "vitest";
import { type ChainStep, type ChainPage, PAGES_AHEAD, chainPages, changeBudget, nextAhead } from "./page-chain";

/** A server of `total` messages (ids 1…total) in pages of 50 below a cursor. */
function server(total: number, fail?: number) {
  const asked: number[] = [];
  const fetchPage = async (before: number): Promise<ChainPage> => {
    asked.push(before);
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (before === fail) throw new Error("502");
    const first = Math.max(1, before - 50);
    const motes = Array.from({ length: before - first }, (_, i) => ({ id: first + i }));
    return { motes, more: first > 1 } as unknown as ChainPage;
  };
  return { asked, fetchPage, total };
}

/** Runs a chain to its end; `reported` sees each step as the caller would (and may change the budget then). */
async function run(s: ReturnType<typeof server>, start: Parameters<typeof chainPages>[1], reported?: (step: ChainStep) => void) {
  const steps: ChainStep[] = [];
  const askedWhenReported: number[] = [];
  await chainPages(s.fetchPage, start, (step) => {
    steps.push(step);
    askedWhenReported.push(s.asked.length);
    reported?.(step);
  });
  return { steps, askedWhenReported };
}

describe("the chain of older pages (issue 9)", () => {
  it("fetches PAGES_AHEAD pages at least, each from the answer before, and names the next before it reports a page", async () => {
    const s = server(1000);
    const { steps, askedWhenReported } = await run(s, { before: 801, ahead: 0, messages: 0, held: 0 });
    expect(s.asked).toEqual([801, 751]);
    expect(PAGES_AHEAD).toBe(2);
    expect(steps.map((x) => [x.before, x.next])).toEqual([
      [801, 751],
      [751, null],
    ]);
    // The page after 801 was asked for before 801 was reported.
    expect(askedWhenReported).toEqual([2, 2]);
  });

  it("goes on while it has fetched fewer messages than the history holds; the page asked for counts as held", async () => {
    const s = server(1000);
    await run(s, { before: 801, ahead: 0, messages: 0, held: 150, asked: true });
    // 801 is the list's own page (held 200 then); ahead: 751, 701, 651, 601 (200 messages).
    expect(s.asked).toEqual([801, 751, 701, 651, 601]);
  });

  it("runs on when the history takes more while it runs (held raised), instead of ending", async () => {
    const s = server(1000);
    const budget = { before: 801, ahead: 0, messages: 0, held: 0 };
    await run(s, budget, (step) => {
      // The list took the first page ahead: its history now holds 200 messages.
      if (step.before === 801) budget.held = 200;
    });
    expect(s.asked).toEqual([801, 751, 701, 651]);
    expect(budget).toMatchObject({ ahead: 4, messages: 200, held: 200 });
  });

  it("asks for nothing further once stopped, its page on the way reported as the last; a raise after that changes nothing", async () => {
    const s = server(1000);
    const budget = { before: 801, ahead: 0, messages: 0, held: 500 };
    const { steps } = await run(s, budget, (step) => {
      // The screen closed while 751 was on its way (asked for before 801 was reported).
      if (step.before === 801) {
        changeBudget(budget, { stop: true });
        changeBudget(budget, { held: 2000 });
      }
    });
    expect(s.asked).toEqual([801, 751]);
    expect(steps.map((x) => [x.before, x.next])).toEqual([
      [801, 751],
      [751, null],
    ]);
  });

  it("takes the larger of two raises", () => {
    const budget = { before: 801, ahead: 0, messages: 0, held: 300 };
    changeBudget(budget, { held: 200 });
    expect(budget.held).toBe(300);
    changeBudget(budget, { held: 400 });
    expect(budget.held).toBe(400);
  });

  it("continues the count of a chain that walked through pages in already", () => {
    expect(nextAhead({ ahead: 2, messages: 100, held: 100 }, { before: 51, more: true, count: 50 })).toBeNull();
    expect(nextAhead({ ahead: 2, messages: 100, held: 101 }, { before: 51, more: true, count: 50 })).toBe(51);
    expect(nextAhead({ ahead: 0, messages: 0, held: 0 }, { before: 51, more: false, count: 50 })).toBeNull();
  });

  it("ends at the oldest page", async () => {
    const s = server(1000);
    const { steps } = await run(s, { before: 101, ahead: 0, messages: 0, held: 1000 });
    expect(s.asked).toEqual([101, 51]);
    expect(steps.at(-1)).toMatchObject({ before: 51, next: null });
  });

  it("ends at a page that fails, reporting it", async () => {
    const s = server(1000, 751);
    const { steps } = await run(s, { before: 801, ahead: 0, messages: 0, held: 500 });
    expect(s.asked).toEqual([801, 751]);
    expect(steps.at(-1)).toMatchObject({ before: 751, next: null, error: expect.any(Error) });
  });
});
