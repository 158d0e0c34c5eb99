import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { HandoverCode, type HandoverCodeProps } from "../../lib/ui/handover-code";
import { ns } from "./i18n";

export interface HandoverModalProps {
  opened: boolean;
  title: string;
  /** The mutation that makes the code: while it runs the modal stays; closing forgets its result. */
  mutation: { isPending: boolean; reset: () => void };
  onClose: () => void;
  /** The code once it is made (then shown instead of `confirm`), with what says what it is for. */
  made: { code: string; intro: string; note?: ReactNode } | null;
  code: Omit<HandoverCodeProps, "code">;
  /** The attribute that marks the two states for tests ("data-key-reset": "confirm" | "made"). */
  marker: `data-${string}`;
  /** What the administrator confirms first (with `close`). */
  confirm: (close: () => void) => ReactNode;
}

/**
 * A modal that asks before making a code an administrator passes on by another channel (a key
 * reset's, a new invitation code), then shows it once: closing drops it for good.
 */
export function HandoverModal({ opened, title, mutation, onClose, made, code, marker, confirm }: HandoverModalProps) {
  const { t } = useTranslation([ns, "common"]);
  function close() {
    if (mutation.isPending) return;
    mutation.reset();
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={title} centered size="lg">
      {made ? (
        <Stack {...{ [marker]: "made" }}>
          <Text>{made.intro}</Text>
          <HandoverCode {...code} code={made.code} />
          {made.note}
          <Text size="sm" fw={500}>
            {t("reset.channel")}
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>{t("common:close")}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack {...{ [marker]: "confirm" }}>{confirm(close)}</Stack>
      )}
    </Modal>
  );
}
