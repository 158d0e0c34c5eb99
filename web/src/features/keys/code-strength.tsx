import { Progress, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../lib/session";
import type { CodeStrength } from "./code-strength-estimate";
import { ns } from "./i18n";

const LEVELS = ["veryWeak", "weak", "fair", "strong", "veryStrong"] as const;
const COLORS = ["red", "orange", "yellow", "teal", "green"] as const;
/** The offline rate of docs/protocol.md §9 for one well-equipped attacker: 10^3 Argon2id guesses a second. */
const GUESSES_PER_SECOND = 1e3;

const loadEstimate = () => import("./code-strength-estimate");

/**
 * The strength of the secure code being chosen (issue 11, item 9), from zxcvbn-ts, loaded with
 * this screen only, and what it means: how long someone with a copy of the server's data (the
 * backups) would need to guess it at the rate of docs/protocol.md §9.
 */
export function CodeStrengthMeter({ code }: { code: string }) {
  const { t, i18n } = useTranslation(ns);
  const session = useSession();
  const [strength, setStrength] = useState<CodeStrength | null>(null);
  const [failed, setFailed] = useState(false);

  const language = i18n.language === "de" ? "de" : "en";
  // Fetch the dictionaries as soon as the screen shows, not at the first keystroke.
  useEffect(() => {
    loadEstimate()
      .then(({ preloadEstimate }) => preloadEstimate(language))
      .catch(() => undefined);
  }, [language]);

  useEffect(() => {
    if (!code) return setStrength(null);
    let live = true;
    const timer = window.setTimeout(() => {
      loadEstimate()
        .then(({ estimateCodeStrength }) => estimateCodeStrength(code, language, [session?.name ?? "", session?.email ?? ""]))
        .then((estimate) => {
          if (live) setStrength(estimate);
        })
        .catch((error: unknown) => {
          // No estimate (the chunk did not load): the rule still holds, the meter stays away.
          console.warn("The strength estimate could not be loaded", error);
          if (live) setFailed(true);
        });
    }, 120);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [code, language, session?.name, session?.email]);

  // The meter keeps its place (hidden) while there is nothing to show, and keeps one line for a
  // warning: the form below it (the dialog is centred) must not move when an estimate arrives, or
  // a click aimed at "Create my key" lands beside it.
  const shown = code && !failed ? strength : null;
  const level = shown ? LEVELS[shown.score] : undefined;
  return (
    <Stack gap={4} data-code-strength={level} aria-live="polite" aria-hidden={shown ? undefined : true} style={shown ? undefined : { visibility: "hidden" }}>
      <Progress value={shown ? (shown.score + 1) * 20 : 0} color={shown ? COLORS[shown.score] : "gray"} size="sm" aria-label={t("strength.label")} />
      <Text size="sm">{level ? t("strength.summary", { level: t(`strength.levels.${level}`) }) : "\u00a0"}</Text>
      <Text size="xs" c="dimmed">
        {shown ? guessingTime(shown.guesses / GUESSES_PER_SECOND, t) : "\u00a0"}
      </Text>
      <Text size="xs" c="orange.8">
        {shown?.warning || "\u00a0"}
      </Text>
    </Stack>
  );
}

type T = ReturnType<typeof useTranslation<typeof ns>>["t"];

/** "… in about 3 hours", in the largest unit that fits. */
function guessingTime(seconds: number, t: T): string {
  if (seconds < 60) return t("strength.instant");
  const units = [
    ["years", 365.25 * 86400],
    ["days", 86400],
    ["hours", 3600],
    ["minutes", 60],
  ] as const;
  const [unit, size] = units.find(([, size]) => seconds >= size)!;
  const count = Math.round(seconds / size);
  if (unit === "years" && count >= 10_000) return t("strength.beyond");
  return t("strength.time", { time: t(`strength.${unit}`, { count }) });
}
