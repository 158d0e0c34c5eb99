import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { acceptServerPins, useRefusedPins } from "../../lib/pins";

/**
 * The warning of a pin book this browser refuses (lib/pins.ts: the server answered an older book
 * than one seen here, or none): shown above every page while it lasts, with the way out for a
 * server that really was restored from a backup (docs/protocol.md §14.10).
 */
export function PinsWarning() {
  const { t } = useTranslation("common");
  const client = useQueryClient();
  const refused = useRefusedPins();
  const [confirming, setConfirming] = useState(false);
  if (!refused) return null;
  const accept = () => {
    acceptServerPins();
    setConfirming(false);
    // Everything that failed for want of pins tries again.
    void client.invalidateQueries();
  };
  return (
    <Alert color="red" role="alert" mb="md" data-trust-warning={refused.reason}>
      <Stack gap="xs">
        <Text size="sm">{refused.message}</Text>
        <Text size="sm">{t("trust.pinsAdvice")}</Text>
        {confirming ? (
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {t("trust.pinsConfirm")}
            </Text>
            <Button size="xs" color="red" onClick={accept}>
              {t("trust.pinsConfirmYes")}
            </Button>
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              {t("trust.pinsCancel")}
            </Button>
          </Group>
        ) : (
          <Group>
            <Button size="xs" variant="default" onClick={() => setConfirming(true)}>
              {t("trust.pinsAccept")}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
