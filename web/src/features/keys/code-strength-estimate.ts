import { ZxcvbnFactory } from "@zxcvbn-ts/core";

/**
 * The secure code's strength, estimated by zxcvbn-ts (a maintained TypeScript port of Dropbox's
 * zxcvbn): common passwords, names and words of English and German, keyboard patterns, dates,
 * repeats and l33t. This module is loaded only on the code screen (code-strength.tsx imports it
 * lazily), and its dictionaries in chunks of their own: common passwords and English (about
 * 850 kB gzipped), German only for a German interface (about 370 kB more). The first page
 * carries none of it.
 */
export interface CodeStrength {
  /** 0 (guessed at once) to 4 (very hard to guess). */
  score: 0 | 1 | 2 | 3 | 4;
  /** The estimated number of guesses an attacker needs. */
  guesses: number;
  /** zxcvbn's warning in the interface's language, if any. */
  warning: string | null;
}

export type StrengthLanguage = "en" | "de";

const estimators = new Map<StrengthLanguage, Promise<ZxcvbnFactory>>();

async function makeEstimator(language: StrengthLanguage): Promise<ZxcvbnFactory> {
  const [common, en] = await Promise.all([import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]);
  const de = language === "de" ? await import("@zxcvbn-ts/language-de") : null;
  // English words are in every code; German ones in a German speaker's. Levenshtein matching is
  // off: it costs about half a second per check.
  const german = de ? Object.fromEntries(Object.entries(de.dictionary).map(([name, words]) => [`${name}-de`, words])) : {};
  return new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary, ...german },
    graphs: common.adjacencyGraphs,
    translations: (de ? de.translations : en.translations) as typeof en.translations,
  });
}

function estimator(language: StrengthLanguage): Promise<ZxcvbnFactory> {
  let found = estimators.get(language);
  if (!found) {
    found = makeEstimator(language);
    // A chunk that failed to load may load on the next try.
    found.catch(() => estimators.delete(language));
    estimators.set(language, found);
  }
  return found;
}

/** `userInputs`: what the code should not contain (the user's name and email), penalised like dictionary words. */
export async function estimateCodeStrength(code: string, language: StrengthLanguage, userInputs: string[] = []): Promise<CodeStrength> {
  const result = (await estimator(language)).check(code.normalize("NFC"), userInputs.filter(Boolean));
  return { score: result.score, guesses: result.guesses, warning: result.feedback.warning || null };
}

/** Starts loading what `language` needs, so the first keystroke does not wait for it. */
export function preloadEstimate(language: StrengthLanguage): void {
  void estimator(language).catch(() => undefined);
}
