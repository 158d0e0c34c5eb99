import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { PublicUser } from "@sealwork/contracts";
import { notifications } from "@mantine/notifications";
import { useTranslation } from "react-i18next";
import { useSwitchOffTotp } from "./switch-off-totp";
import { ns } from "./i18n";

export interface SwitchOffTotpModalProps {
  /** The user whose 2FA is to be switched off; the modal is open while it is set. */
  user: PublicUser | null;
  onClose: () => void;
  onError: (message: string) => void;
}

/** Asks before switching off another account's two-factor login (spec 000 §6). */
export function SwitchOffTotpModal({ user, onClose, onError }: SwitchOffTotpModalProps) {
  const { t } = useTranslation([ns, "common"]);
  const switchOff = useSwitchOffTotp();

  function confirm() {
    if (!user || switchOff.isPending) return;
    switchOff.mutate(user.id, {
      onSuccess: () => {
        notifications.show({ color: "green", message: t("twoFactor.switchedOff") });
        onClose();
      },
      onError: () => {
        onClose();
        onError(t("twoFactor.failed"));
      },
    });
  }

  return (
    <Modal opened={user !== null} onClose={onClose} title={t("twoFactor.confirmTitle")} centered>
      <Stack>
        <Text>{t("twoFactor.confirm", { name: user?.name ?? "" })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t("common:cancel")}
          </Button>
          <Button color="red" onClick={confirm} loading={switchOff.isPending}>
            {t("twoFactor.switchOff")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
