import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

export interface ErrorDialogProps {
  /** The text to show; the dialog is open while it is set. */
  message: string | null;
  /** A second line, for example the server's own explanation. */
  detail?: string | null;
  onClose: () => void;
}

/** Errors are shown in alert dialogs titled "Error" (spec 000 §8). Escape or OK closes it. */
export function ErrorDialog({ message, detail, onClose }: ErrorDialogProps) {
  const { t } = useTranslation("common");
  return (
    <Modal opened={message !== null} onClose={onClose} title={t("error")} centered>
      <Stack>
        <Text>{message}</Text>
        {detail && detail !== message ? (
          <Text size="sm" c="dimmed">
            {detail}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            {t("ok")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
