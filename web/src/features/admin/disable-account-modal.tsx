import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { PublicUser } from "@sealwork/contracts";
import { notifications } from "@mantine/notifications";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/error-text";
import { useSetAccountDisabled } from "./disable-account";
import { ns } from "./i18n";

export interface DisableAccountModalProps {
  /** The account to disable, or to enable again when it is disabled; the modal is open while it is set. */
  user: PublicUser | null;
  onClose: () => void;
  onError: (message: string) => void;
}

/** Asks before an administrator disables an account, or enables a disabled one again. */
export function DisableAccountModal({ user, onClose, onError }: DisableAccountModalProps) {
  const { t } = useTranslation([ns, "common"]);
  const change = useSetAccountDisabled();
  const enabling = user?.disabled ?? false;
  const key = enabling ? "enable" : "disable";

  function confirm() {
    if (!user || change.isPending) return;
    change.mutate(
      { id: user.id, disabled: !enabling },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: t(`account.${key}d`, { name: user.name }) });
          onClose();
        },
        onError: (error) => {
          onClose();
          onError(errorText(error, t("account.failed")));
        },
      },
    );
  }

  return (
    <Modal opened={user !== null} onClose={onClose} title={t(`account.${key}Title`)} centered>
      <Stack>
        <Text>{t(`account.${key}Confirm`, { name: user?.name ?? "" })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t("common:cancel")}
          </Button>
          <Button color={enabling ? "blue" : "red"} onClick={confirm} loading={change.isPending}>
            {t(`account.${key}`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
