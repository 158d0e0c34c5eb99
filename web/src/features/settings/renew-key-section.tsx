import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { isCryptoError } from "@sealwork/crypto";
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/error-text";
import { queryKeys } from "../../lib/query-keys";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { CodeForm, NoticeAlert } from "../keys";
import { PinsLeftBehind, type RenewBlock, type RenewFrom, type RenewStep, renewAvailability, renewKey } from "./renew-key";
import { ns } from "./i18n";

type Step = { kind: "checking" } | { kind: "blocked"; reason: RenewBlock | "failed" } | { kind: "ready"; from: RenewFrom };

/**
 * Settings → Advanced, "Renew my key" (docs/protocol.md §14.3, rotation): the modal explains what
 * a new key changes, checks that the user's identity can be rotated here, and asks for the secure
 * code that protects the new key, as at key creation.
 */
export function RenewKeySection() {
  const { t } = useTranslation(ns);
  const unlocked = useUnlockedKeys();
  const [step, setStep] = useState<Step | null>(null);
  const opened = useRef(0);

  async function open() {
    if (!unlocked) return;
    const run = ++opened.current;
    setStep({ kind: "checking" });
    try {
      const answer = await renewAvailability(unlocked);
      if (run === opened.current) setStep(answer.ok ? { kind: "ready", from: answer.from } : { kind: "blocked", reason: answer.reason });
    } catch (error) {
      console.error("Checking your identity failed", error);
      if (run === opened.current) setStep({ kind: "blocked", reason: "failed" });
    }
  }

  function close() {
    opened.current++;
    setStep(null);
  }

  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" c="dimmed">
        {t("renew.hint")}
      </Text>
      <Button variant="default" onClick={() => void open()} disabled={!unlocked}>
        {t("renew.open")}
      </Button>
      {step ? <RenewModal step={step} onClose={close} /> : null}
    </Stack>
  );
}

function RenewModal({ step, onClose }: { step: Step; onClose: () => void }) {
  const { t } = useTranslation([ns, "common"]);
  const unlocked = useUnlockedKeys();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<RenewStep | null>(null);
  const [notice, setNotice] = useState<{ message: string; detail?: string } | null>(null);

  async function renew(from: RenewFrom, code: string) {
    if (!unlocked || busy) return;
    setBusy(true);
    setProgress(null);
    setNotice(null);
    try {
      // Let the progress paint before Argon2id takes the main thread.
      await new Promise((resolve) => window.setTimeout(resolve, 30));
      await renewKey(unlocked, from, code, setProgress);
      notifications.show({ color: "green", message: t("renew.done") });
      onClose();
    } catch (error) {
      if (error instanceof PinsLeftBehind) {
        console.error("The pins were not carried over", error.cause);
        notifications.show({ color: "yellow", message: t("renew.pinsLeft"), autoClose: false });
        return onClose();
      }
      console.error("Renewing the key failed", error);
      setNotice({ message: t("renew.failed"), detail: isCryptoError(error) ? undefined : errorText(error) });
    } finally {
      setBusy(false);
      // What was shown for the old key: its data, and contacts' trust read with its pins.
      void client.invalidateQueries({ queryKey: queryKeys.keypairs.own() });
      void client.invalidateQueries({ queryKey: queryKeys.identities.all() });
    }
  }

  return (
    <Modal opened onClose={onClose} title={t("renew.title")} centered size="lg" closeOnEscape={!busy} closeOnClickOutside={!busy} withCloseButton={!busy}>
      <Stack>
        <Text size="sm">{t("renew.intro")}</Text>
        <Text size="sm">{t("renew.contacts")}</Text>
        {step.kind === "ready" && step.from.kind === "legacy" ? <Text size="sm">{t("renew.legacy")}</Text> : null}
        <Text size="sm">{t("renew.access")}</Text>
        {step.kind === "checking" ? <Text size="sm">{t("common:loading")}</Text> : null}
        {step.kind === "blocked" ? (
          <>
            <Alert color="yellow" role="alert" title={t("renew.unavailable")}>
              {t(`renew.blocked.${step.reason}`)}
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t("common:close")}
              </Button>
            </Group>
          </>
        ) : null}
        {step.kind === "ready" ? (
          <>
            <Text size="sm">{t("renew.code")}</Text>
            <CodeForm
              choose
              submitLabel={t("renew.submit")}
              busy={busy}
              notice={null}
              onSubmit={(code) => void renew(step.from, code)}
              actions={
                <Button variant="default" onClick={onClose} disabled={busy}>
                  {t("common:cancel")}
                </Button>
              }
            />
            {busy ? (
              <Text size="sm" role="status">
                {progress && progress.total > 0 ? t(`renew.progress.${progress.what}`, { done: progress.done, total: progress.total }) : t("renew.busy")}
              </Text>
            ) : null}
            <NoticeAlert notice={notice} />
          </>
        ) : null}
      </Stack>
    </Modal>
  );
}
