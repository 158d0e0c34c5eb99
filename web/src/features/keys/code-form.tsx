import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { isValidSecureCode } from "@sealwork/crypto";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isLoginPassword } from "../../lib/login-password";
import { PasswordField } from "../../lib/ui/password-field";
import { useShake } from "../../lib/ui/use-shake";
import { CodeStrengthMeter } from "./code-strength";
import type { KeyFlowNotice } from "./key-flow";
import { ns } from "./i18n";

export interface CodeFormProps {
  submitLabel: string;
  onSubmit: (code: string) => void;
  busy: boolean;
  notice: KeyFlowNotice | null;
  /** fresh: a second field, and the spec's rule for the code (spec 000 §5). */
  choose?: boolean;
  /** Something to choose before the code can be entered (the key file). */
  ready?: boolean;
  children?: ReactNode;
  /** Buttons before the submit button (a Cancel). */
  actions?: ReactNode;
}

/**
 * The secure-code box of the popup: unlock, recovery and import ask once; fresh (and an
 * invitation's takeover) asks twice, shows the code's strength, and refuses a code that breaks
 * the rule, does not match, or is the login password (issue 11, item 9). The fields are named
 * and marked so password managers keep the secure code apart from the login password: `off`
 * where an existing code is typed, `new-password` where one is chosen.
 */
export function CodeForm({ submitLabel, onSubmit, busy, notice, choose = false, ready = true, children, actions }: CodeFormProps) {
  const { t } = useTranslation(ns);
  const [code, setCode] = useState("");
  const [repeat, setRepeat] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const box = useShake();
  const { shake } = box;

  // A wrong code shakes the box and empties it for the next try.
  useEffect(() => {
    if (!notice) return;
    shake();
    if (!choose) setCode("");
  }, [notice, shake, choose]);

  const [checking, setChecking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !ready || checking) return;
    if (choose && !isValidSecureCode(code)) return setProblem(t("rule"));
    if (choose && code !== repeat) return setProblem(t("mismatch"));
    if (!code) return;
    if (choose) {
      setChecking(true);
      const same = await isLoginPassword(code).finally(() => setChecking(false));
      if (same) return setProblem(t("equalsPassword"));
    }
    setProblem(null);
    onSubmit(code);
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        {children}
        <div className={box.className}>
          <PasswordField
            label={t("secureCode")}
            name={choose ? "new-secure-code" : "secure-code"}
            autoComplete={choose ? "new-password" : "off"}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            disabled={busy || !ready}
            // The popup opens in "checking"; the modal's own initial focus is spent by the time
            // this field mounts, so it takes the focus itself (type the code, press Enter).
            autoFocus
            data-autofocus
          />
        </div>
        {choose ? (
          <>
            <CodeStrengthMeter code={code} />
            <PasswordField
              label={t("secureCodeRepeat")}
              name="new-secure-code-repeat"
              autoComplete="new-password"
              value={repeat}
              onChange={(event) => setRepeat(event.currentTarget.value)}
              disabled={busy}
            />
            <Text size="sm" c="dimmed">
              {t("rule")}
            </Text>
          </>
        ) : null}
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        <NoticeAlert notice={notice} />
        <Group justify="flex-end">
          {actions}
          <Button type="submit" loading={busy || checking} disabled={!ready}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A failure reported by the key flow: its message and, where there is one, the detail. */
export function NoticeAlert({ notice }: { notice: { message: string; detail?: string | null } | null | undefined }) {
  if (!notice) return null;
  return (
    <Alert color="red" role="alert">
      <Text size="sm">{notice.message}</Text>
      {notice.detail ? <Text size="sm">{notice.detail}</Text> : null}
    </Alert>
  );
}
