import { Alert } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../../lib/query-keys";
import { type DistributionError, useKeyWait } from "../../conversations";
import { fetchMyWraps } from "./group-ring";
import { ns } from "./i18n";

/**
 * A group page whose key was refused (docs/protocol.md §8, what a client checks): the warning, by
 * its stable code (data-trust-warning). One's own key moved (`key_moved`, §14.3) is no attack: the
 * page says that the group waits for its key and looks at one's wraps with the message poll's
 * back-off until one of a later epoch is there (an administrator's browser renewed the group key),
 * then `onArrived` opens the page again, with nobody clicking.
 */
export function GroupKeyRefusal({ groupId, error, onArrived }: { groupId: number; error: DistributionError; onArrived: () => void }) {
  const { t } = useTranslation(ns);
  const moved = error.reason === "key_moved" ? (error.epoch ?? null) : null;
  useKeyWait(
    queryKeys.groups.keyWait(groupId, moved ?? -1),
    moved !== null,
    async (signal) => (await fetchMyWraps(groupId, signal)).wraps.some((w) => w.epoch > (moved ?? Infinity)),
    onArrived,
  );
  return (
    <Alert
      color={moved !== null ? "yellow" : "red"}
      role="alert"
      title={t(moved !== null ? "distribution.movedHeading" : "distribution.heading")}
      data-trust-warning={error.reason}
    >
      {error.message}
    </Alert>
  );
}
