import { Button, Group, Loader, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { isValidPickupSecurityCode } from "@sealwork/crypto";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../lib/api";
import type { GuestPickup } from "../../lib/guest";
import { useShake } from "../../lib/ui/use-shake";
import { NoticeAlert } from "./code-form";
import { collectErrorText, collectPickup } from "./collect-pickup";
import { ns } from "./i18n";

export interface PickupPopupProps {
  /** The pickup the login screen looked up, or this tab's after a reload (null: none here). */
  pickup: GuestPickup | null;
  onCancel: () => void;
  /** Back by default (the login screen); Logout inside the app. */
  cancelLabel?: string;
}

/**
 * The secure-code popup in its pickup state (spec 000 §2, §4, §5): the 6-digit security code
 * the creator passed on separately. A wrong one shakes the box (as for 2FA codes); the server
 * counts it and locks the pickup after ten.
 */
export function PickupPopup({ pickup, onCancel, cancelLabel }: PickupPopupProps) {
  const { t } = useTranslation([ns, "common"]);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const box = useShake();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !pickup) return;
    if (!isValidPickupSecurityCode(code)) return setNotice(t("pickup.rule"));
    setBusy(true);
    setNotice(null);
    try {
      // Let the progress line paint before Argon2id takes the main thread.
      await new Promise((resolve) => window.setTimeout(resolve, 30));
      // The session that this sets leads on to the conversation.
      await collectPickup(pickup, code);
    } catch (error) {
      if (!isApiError(error)) console.error("Collecting the pickup failed", error);
      setNotice(collectErrorText(error));
      setCode("");
      if (isApiError(error, 403)) box.shake();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={() => undefined} withCloseButton={false} closeOnEscape={false} closeOnClickOutside={false} centered title={t("pickup.title")}>
      <Stack data-key-state="pickup" gap="md">
        <Title order={2} size="h4">
          {t("pickup.heading")}
        </Title>
        {pickup ? (
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack>
              <Text size="sm">{t("pickup.intro")}</Text>
              <div className={box.className}>
                <TextInput
                  label={t("pickup.securityCode")}
                  inputMode="numeric"
                  name="pickup-security-code"
                  autoComplete="off"
                  value={code}
                  onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, "").slice(0, 6))}
                  disabled={busy}
                  autoFocus
                  data-autofocus
                />
              </div>
              <NoticeAlert notice={notice ? { message: notice } : null} />
              {busy ? (
                <Group gap="sm" role="status">
                  <Loader size="sm" />
                  <Text size="sm">{t("pickup.busy")}</Text>
                </Group>
              ) : null}
              <Group justify="space-between">
                <Button variant="subtle" color="gray" onClick={onCancel} disabled={busy}>
                  {cancelLabel ?? t("common:back")}
                </Button>
                <Button type="submit" loading={busy}>
                  {t("pickup.submit")}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Stack>
            <Text size="sm">{t("pickup.missing")}</Text>
            <Group justify="flex-end">
              <Button variant="subtle" color="gray" onClick={onCancel}>
                {cancelLabel ?? t("common:back")}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
