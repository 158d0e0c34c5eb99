import { pickupView } from "@sealwork/contracts";
import { formatPickupCode, pickupLink } from "@sealwork/crypto";
import { Button, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { formatDateTime, fromSeconds } from "../../../lib/format";
import { useConversations } from "../list-conversations";
import { deleteErrorText, useDeletePickup } from "./delete-pickup";
import { readSecrets } from "./kept-secrets";
import { Secret } from "./secret-value";
import { ns } from "../i18n";

export interface PickupDetailsProps {
  conversationId: number;
  /** Only the author may delete a pickup (spec 000 §6). */
  isAuthor: boolean;
  onError: (text: string) => void;
}

/**
 * The creator's view of a pickup in the right panel (spec 000 §2): the pickup URL and security
 * code as kept by this browser, redemption and expiry from the list's `pickups`, and Delete.
 */
export function PickupDetails({ conversationId, isAuthor, onError }: PickupDetailsProps) {
  const { t } = useTranslation(ns);
  const navigate = useNavigate();
  const { data } = useConversations();
  const [secrets] = useState(() => readSecrets(conversationId));
  const remove = useDeletePickup(conversationId);
  const parsed = pickupView.safeParse(data?.pickups[String(conversationId)]);
  const pickup = parsed.success ? parsed.data : null;

  return (
    <Stack gap="xs" data-testid="pickup-details">
      {secrets ? (
        <>
          <Secret label={t("pickups.url")} value={pickupLink(window.location.origin, secrets.code, secrets.linkSecret)} testId="pickup-url" />
          <Secret label={t("pickups.code")} value={formatPickupCode(secrets.code)} testId="pickup-code" />
          <Secret label={t("pickups.securityCode")} value={secrets.securityCode} testId="pickup-security-code" />
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t("pickups.panel.notStored")}
        </Text>
      )}
      {pickup ? (
        <>
          <Text size="sm" data-testid="pickup-redemption">
            {pickup.redeem_timestamp < 0
              ? t("pickups.panel.notCollected")
              : t("pickups.panel.collected", { time: formatDateTime(fromSeconds(pickup.redeem_timestamp)) })}
          </Text>
          <Text size="sm" data-testid="pickup-expiry">
            {pickup.expire_timestamp < 0 ? t("pickups.panel.neverExpires") : t("pickups.panel.expires", { time: formatDateTime(fromSeconds(pickup.expire_timestamp)) })}
          </Text>
          {pickup.locked ? (
            <Text size="sm" c="red">
              {t("pickups.panel.locked")}
            </Text>
          ) : null}
        </>
      ) : null}
      <Text size="sm" c="dimmed">
        {t("panel.cannotAdd")}
      </Text>
      {isAuthor ? (
        <Button
          variant="light"
          color="red"
          loading={remove.isPending}
          onClick={() => remove.mutate(undefined, { onSuccess: () => void navigate("/conversation/list"), onError: (cause) => onError(deleteErrorText(cause)) })}
        >
          {t("pickups.panel.delete")}
        </Button>
      ) : null}
    </Stack>
  );
}
