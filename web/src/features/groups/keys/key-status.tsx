import { Stack, Text } from "@mantine/core";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { MembershipFingerprint, isDistributionError, logFingerprint } from "../../conversations";
import { GroupKeyWaitingError, forgetGroupRing, openGroupRing } from "./group-ring";
import { GroupKeyRefusal } from "./key-refusal";
import { ns } from "./i18n";

/** The group's ring, verified afresh whenever the page asks (after a change of its members, or a poll). */
export function groupRingQuery(groupId: number, holder: UnlockedKeys) {
  return queryOptions({
    queryKey: queryKeys.groups.ring(groupId, holder.uid),
    queryFn: async () => {
      forgetGroupRing(groupId);
      const ring = await openGroupRing(groupId, holder);
      // Every epoch this member reaches, through the chain (each checked against its record).
      const reached: number[] = [];
      for (let epoch = ring.epoch; epoch >= 0; epoch--) {
        if (!(await ring.keyFor(epoch).then(() => true, () => false))) break;
        reached.push(epoch);
      }
      return {
        epoch: ring.epoch,
        reached: reached.sort((a, b) => a - b),
        admins: ring.log.admins,
        members: ring.log.members.map((m) => m.userId),
        // Of the log verified here: what members compare to catch a fork (docs/protocol.md §14.7).
        fingerprint: await logFingerprint(ring.log),
      };
    },
    retry: false,
    // Waiting for one's wrap: looked for again every few seconds (an admin's browser hands it out).
    refetchInterval: (query) => (query.state.error instanceof GroupKeyWaitingError ? 3_000 : false),
  });
}

/**
 * Whether this member's key of the group verifies (docs/protocol.md §8, what a client checks): the
 * refusal's warning (data-trust-warning, as conversations show theirs; one's own key moved: it opens
 * again by itself once renewed), the wait for one's wrap, or the verified epoch and the older
 * epochs reached through the chain, with the membership fingerprint of the verified log.
 */
export function GroupKeyStatus({ groupId, holder }: { groupId: number; holder: UnlockedKeys }) {
  const { t } = useTranslation(ns);
  const ring = useQuery(groupRingQuery(groupId, holder));
  if (ring.error && isDistributionError(ring.error)) return <GroupKeyRefusal groupId={groupId} error={ring.error} onArrived={() => void ring.refetch()} />;
  if (ring.error instanceof GroupKeyWaitingError) {
    return (
      <Text size="sm" c="dimmed" data-group-key="waiting">
        {t("distribution.waiting")}
      </Text>
    );
  }
  if (ring.error) {
    return (
      <Text size="sm" c="red" data-group-key="error">
        {ring.error.message}
      </Text>
    );
  }
  if (!ring.data) return null;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" data-group-key="ready" data-group-key-epoch={ring.data.epoch} data-group-key-reached={ring.data.reached.join(",")}>
        {t("status.ready", { epoch: ring.data.epoch })}
      </Text>
      <MembershipFingerprint value={ring.data.fingerprint} kind="group" />
    </Stack>
  );
}
