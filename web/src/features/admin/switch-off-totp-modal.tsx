import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { PublicUser } from "@sealwork/contracts";
import { notifications } from "@mantine/notifications";
import { useTranslation } from "react-i18next";
import { useSwitchOffTotp } from "./switch-off-totp";

export interface SwitchOffTotpModalProps {
  /** The user whose 2FA is to be switched off; the modal is open while it is set. */
  user: PublicUser | null;
  onClose: () => void;
  onError: (message: string) => void;
}

/** Asks before switching off another account's two-factor login (spec 000 §6). */
export function SwitchOffTotpModal({ user, onClose, onError }: SwitchOffTotpModalProps) {
  const { t } = useTranslation();
  const switchOff = useSwitchOffTotp();

  function confirm() {
    if (!user || switchOff.isPending) return;
    switchOff.mutate(user.id, {
      onSuccess: () => {
        notifications.show({ color: "green", message: t("totp.admin.switchedOff") });
        onClose();
      },
      onError: () => {
        onClose();
        onError(t("totp.admin.failed"));
      },
    });
  }

  return (
    <Modal opened={user !== null} onClose={onClose} title={t("totp.admin.confirmTitle")} centered>
      <Stack>
        <Text>{t("totp.admin.confirm", { name: user?.name ?? "" })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t("common.cancel")}
          </Button>
          <Button color="red" onClick={confirm} loading={switchOff.isPending}>
            {t("totp.admin.switchOff")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
