import { Alert, Button, Group, List, Text } from "@mantine/core";
import { KEY_RESET_DAYS, type PublicUser } from "@sealwork/contracts";
import { useTranslation } from "react-i18next";
import { formatDateTime, fromSeconds } from "../../lib/format";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { HandoverModal } from "./handover-modal";
import { useResetKey } from "./reset-key";
import { ns } from "./i18n";

export interface ResetKeyModalProps {
  /** The user whose key to reset; the modal is open while it is set. */
  user: PublicUser | null;
  onClose: () => void;
}

/**
 * Asks before an administrator resets the key of a user who lost their secure code, says what it
 * does, then shows the reset code to pass on by another channel (it is shown once).
 */
export function ResetKeyModal({ user, onClose }: ResetKeyModalProps) {
  const { t } = useTranslation([ns, "common"]);
  const reset = useResetKey(useUnlockedKeys());
  const name = user?.name ?? "";

  return (
    <HandoverModal
      opened={user !== null}
      title={t("reset.title", { name })}
      mutation={reset}
      onClose={onClose}
      made={
        reset.data
          ? {
              code: reset.data.code,
              intro: t("reset.made", { name }),
              note: <Text size="sm">{t("reset.valid", { count: KEY_RESET_DAYS, date: formatDateTime(fromSeconds(reset.data.expires)) })}</Text>,
            }
          : null
      }
      code={{ label: t("reset.codeLabel"), attributes: { "data-reset-code": true } }}
      marker="data-key-reset"
      confirm={(close) => (
        <>
          <Text>{t("reset.intro", { name })}</Text>
          <List size="sm" spacing={4}>
            <List.Item>{t("reset.stops")}</List.Item>
            <List.Item>{t("reset.newCode")}</List.Item>
            <List.Item>{t("reset.othersSee")}</List.Item>
            <List.Item>{t("reset.access")}</List.Item>
          </List>
          {reset.error ? (
            <Alert color="red" role="alert" title={t("common:error")}>
              {reset.error.message}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={reset.isPending} data-autofocus>
              {t("common:cancel")}
            </Button>
            <Button color="red" onClick={() => user && reset.mutate(user)} loading={reset.isPending}>
              {t("reset.confirm")}
            </Button>
          </Group>
        </>
      )}
    />
  );
}
