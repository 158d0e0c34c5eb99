import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { isApiError } from "../../lib/api";
import { usePageTitle } from "../../lib/page-title";
import { useRequiredSession } from "../../lib/session";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { useShake } from "../../lib/ui/use-shake";
import { errorText, isRefusal } from "../../lib/error-text";
import { DisableStep } from "./disable-step";
import { EnableStep } from "./enable-step";
import { useDestroyTotp } from "./destroy-totp";
import { useTotpStatus } from "./get-totp-status";
import { RecoveryCodes } from "./recovery-codes";
import { useFinalizeTotpSetup, useStartTotpSetup } from "./setup-totp";
import { ns } from "./i18n";

/**
 * Spec 000 §4, TOTP: loading, then off or on (or error). Off: setup gives enabling, then
 * finalizing after 6 digits, then now-on (recovery codes shown); a 403 returns to enabling with a
 * shake. On: disable gives disabling, then destroying, then now-off; a 403 returns to disabling.
 */
type Step =
  | { kind: "status" }
  | { kind: "enabling" | "finalizing"; qr: string; secret: string }
  | { kind: "now-on"; recovery: string[] }
  | { kind: "disabling" | "destroying" }
  | { kind: "now-off" };

type Failure = { message: string; detail?: string };

export function TotpPage() {
  const { t } = useTranslation([ns, "common"]);
  const navigate = useNavigate();
  const session = useRequiredSession();
  const status = useTotpStatus(session.id);
  const start = useStartTotpSetup();
  const finalize = useFinalizeTotpSetup(session.id);
  const destroy = useDestroyTotp(session.id);
  const [step, setStep] = useState<Step>({ kind: "status" });
  const [code, setCode] = useState("");
  const [failure, setFailure] = useState<Failure | null>(null);
  const codeBox = useShake();
  const codeInput = useRef<HTMLInputElement>(null);
  usePageTitle(t("title"));

  const finish = () => void navigate("/settings/");
  const backToStatus = () => {
    setCode("");
    setStep({ kind: "status" });
  };

  /** A wrong code: clear it, shake the box, say so; anything else names the step that failed. */
  function codeFailure(error: unknown, otherwise: Failure["message"]) {
    setCode("");
    if (isApiError(error, 403)) {
      codeBox.shake();
      setFailure({ message: t("incorrect") });
    } else if (isApiError(error, 429)) {
      setFailure({ message: errorText(error) });
    } else {
      setFailure({ message: otherwise, detail: isRefusal(error) ? errorText(error) : undefined });
    }
  }

  function beginSetup() {
    start.mutate(undefined, {
      onSuccess: ({ qr, secret }) => setStep({ kind: "enabling", qr, secret }),
      onError: () => setFailure({ message: t("setupFailed") }),
    });
  }

  function submitSetupCode(typed: string) {
    if (step.kind !== "enabling") return;
    const { qr, secret } = step;
    setStep({ kind: "finalizing", qr, secret });
    finalize.mutate(
      { secret, code: typed },
      {
        onSuccess: (recovery) => {
          setCode("");
          setStep({ kind: "now-on", recovery });
        },
        onError: (error) => {
          // A setup replaced in another tab cannot be finalized here any more: start over.
          setStep(isApiError(error, 409) ? { kind: "status" } : { kind: "enabling", qr, secret });
          codeFailure(error, t("finalizeFailed"));
        },
      },
    );
  }

  function submitDisableCode(typed: string) {
    if (step.kind !== "disabling") return;
    setStep({ kind: "destroying" });
    destroy.mutate(typed, {
      onSuccess: () => {
        setCode("");
        setStep({ kind: "now-off" });
      },
      onError: (error) => {
        setStep(isApiError(error, 409) ? { kind: "status" } : { kind: "disabling" });
        codeFailure(error, t("disableFailed"));
      },
    });
  }

  const stepProps = { code, onCodeChange: setCode, onCancel: backToStatus, codeClassName: codeBox.className, codeRef: codeInput };

  return (
    <Container size="sm" px={0}>
      <Stack gap="lg">
        <Title order={1} size="h2">
          {t("title")}
        </Title>
        {step.kind === "status" ? (
          <StatusStep
            loading={status.isPending}
            failed={status.isError}
            enabled={status.data}
            starting={start.isPending}
            onSetup={beginSetup}
            onDisable={() => setStep({ kind: "disabling" })}
          />
        ) : step.kind === "enabling" || step.kind === "finalizing" ? (
          <EnableStep {...stepProps} qr={step.qr} secret={step.secret} onSubmit={submitSetupCode} finalizing={step.kind === "finalizing"} />
        ) : step.kind === "now-on" ? (
          <RecoveryCodes codes={step.recovery} onFinish={finish} />
        ) : step.kind === "disabling" || step.kind === "destroying" ? (
          <DisableStep {...stepProps} onSubmit={submitDisableCode} destroying={step.kind === "destroying"} />
        ) : (
          <Stack>
            <Alert color="green">{t("nowOff")}</Alert>
            <Group>
              <Button onClick={finish}>{t("finish")}</Button>
            </Group>
          </Stack>
        )}
      </Stack>
      <ErrorDialog
        message={failure?.message ?? null}
        detail={failure?.detail}
        onClose={() => {
          setFailure(null);
          codeInput.current?.focus();
        }}
      />
    </Container>
  );
}

interface StatusStepProps {
  loading: boolean;
  failed: boolean;
  enabled: boolean | undefined;
  starting: boolean;
  onSetup: () => void;
  onDisable: () => void;
}

function StatusStep({ loading, failed, enabled, starting, onSetup, onDisable }: StatusStepProps) {
  const { t } = useTranslation([ns, "common"]);
  if (loading) return <Loader aria-label={t("common:loading")} />;
  if (failed || enabled === undefined) return <Alert color="red">{t("statusFailed")}</Alert>;
  return (
    <Stack>
      <Text>{t(enabled ? "on" : "off")}</Text>
      {enabled ? null : <Text c="dimmed">{t("intro")}</Text>}
      <Group>
        {enabled ? (
          <Button color="red" variant="light" onClick={onDisable}>
            {t("disable")}
          </Button>
        ) : (
          <Button onClick={onSetup} loading={starting}>
            {t("setup")}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
