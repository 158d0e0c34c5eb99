import { Alert, Button, FileButton, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type SecureCodeWrapEnvelope, isCryptoError, lockAccountKeys, parseEnvelope, unwrapAccountKeys } from "@sealwork/crypto";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { downloadBlob } from "../../lib/download";
import { envelopeMatches, fetchBackup, keyFileBlob, keyFileName, keyStateQuery, readKeyFile } from "../../lib/keypairs";
import { useRequiredSession } from "../../lib/session";
import { fetchAnchors } from "../../lib/trust";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { PasswordField } from "../../lib/ui/password-field";
import { setUnlockedKeys, useUnlockedKeys } from "../../lib/unlocked-keys";
import { loadLocalKey, saveLocalKey } from "../../lib/vault";
import { KeypairData } from "./keypair-data";
import { RenewKeySection } from "./renew-key-section";
import { ns } from "./i18n";

/**
 * Settings → Advanced, account key (spec 000 §2): export the encrypted backup as a file, import
 * such a file (then unlock it with the secure code), and show the key's data and fingerprints.
 */
export function KeySection() {
  const { t } = useTranslation([ns, "common"]);
  const session = useRequiredSession();
  const unlocked = useUnlockedKeys();
  const keyState = useQuery(keyStateQuery);
  const [showData, setShowData] = useState(false);
  const [failure, setFailure] = useState<{ message: string; detail?: string } | null>(null);
  const [imported, setImported] = useState<SecureCodeWrapEnvelope | null>(null);
  const keypair = keyState.data?.keypair ?? null;

  async function exportKey() {
    if (!unlocked) return;
    try {
      // This device's copy when it is the unlocked key, else the server's backup: the same bytes.
      const local = await loadLocalKey(session.id);
      const envelope =
        local.status === "ok" && local.key.keyId === unlocked.keyId
          ? local.key.envelope
          : parseEnvelope(await fetchBackup(unlocked.keyId), "secure-code-wrap");
      downloadBlob(keyFileName(session.id, unlocked.keyId), keyFileBlob(envelope));
    } catch (error) {
      console.error("Export failed", error);
      setFailure({ message: t("key.exportFailed") });
    }
  }

  async function pickFile(file: File | null) {
    if (!file) return;
    try {
      const envelope = await readKeyFile(file);
      if (!keypair || !envelopeMatches(envelope, keypair)) {
        return setFailure({ message: t("keys.import.failed"), detail: t("keys.import.otherKey") });
      }
      setImported(envelope);
    } catch (error) {
      console.warn("Not a key file", error);
      setFailure({ message: t("keys.import.failed") });
    }
  }

  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {t("key.heading")}
      </Title>
      <Text size="sm" c="dimmed">
        {t("key.exportHint")}
      </Text>
      <Group>
        <Button variant="default" onClick={() => void exportKey()} disabled={!unlocked}>
          {t("key.export")}
        </Button>
        <FileButton onChange={(file) => void pickFile(file)} accept="application/json,.json">
          {(props) => (
            <Button variant="default" {...props} disabled={!keypair}>
              {t("key.import")}
            </Button>
          )}
        </FileButton>
        <Button variant="subtle" onClick={() => setShowData((shown) => !shown)} aria-expanded={showData}>
          {t(showData ? "key.hide" : "key.show")}
        </Button>
      </Group>
      {showData ? (
        keyState.isError ? (
          <Alert color="red">{t("key.loadFailed")}</Alert>
        ) : keypair ? (
          <KeypairData keypair={keypair} />
        ) : (
          <Text size="sm">{t("common:loading")}</Text>
        )
      ) : null}
      <RenewKeySection />
      {imported && keypair ? (
        <ImportUnlock
          envelope={imported}
          onCancel={() => setImported(null)}
          onUnlocked={async (keys) => {
            await saveLocalKey(session.id, keypair.id, imported);
            setUnlockedKeys({ uid: session.id, keyId: keypair.id, keys, publicKeys: { encryptPublic: imported.encryptPublic, signPublic: imported.signPublic } });
            setImported(null);
            notifications.show({ color: "green", message: t("key.imported") });
          }}
        />
      ) : null}
      <ErrorDialog message={failure?.message ?? null} detail={failure?.detail} onClose={() => setFailure(null)} />
    </Stack>
  );
}

type Keys = Awaited<ReturnType<typeof unwrapAccountKeys>>;

/** Asks for the secure code of an imported key file and opens it. */
function ImportUnlock({ envelope, onCancel, onUnlocked }: { envelope: SecureCodeWrapEnvelope; onCancel: () => void; onUnlocked: (keys: Keys) => Promise<void> }) {
  const { t } = useTranslation([ns, "common"]);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!code || busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await new Promise((resolve) => window.setTimeout(resolve, 30));
      // A key with an identity has its backup bound to a root the server shows.
      await onUnlocked(await lockAccountKeys(await unwrapAccountKeys(envelope, code, await fetchAnchors())));
    } catch (error) {
      if (!isCryptoError(error, "decrypt_failed")) console.error("Import failed", error);
      setProblem(t(isCryptoError(error, "decrypt_failed") ? "keys.wrongCode" : "keys.import.failed"));
      setCode("");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onCancel} title={t("key.importTitle")} centered>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <PasswordField label={t("keys.secureCode")} name="secure-code" autoComplete="off" value={code} onChange={(event) => setCode(event.currentTarget.value)} disabled={busy} data-autofocus />
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          {busy ? <Text size="sm">{t("keys.busy.unlocking")}</Text> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={busy}>
              {t("common:cancel")}
            </Button>
            <Button type="submit" loading={busy}>
              {t("keys.unlock.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
