import { Stack, Text } from "@mantine/core";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { MembershipFingerprint, isDistributionError, logFingerprint } from "../../conversations";
import { GroupKeyWaitingError, forgetGroupRing, openGroupRing } from "./group-ring";
import { GroupKeyRefusal } from "./key-refusal";
import { ns } from "./i18n";

/**
 * The group's ring, verified afresh whenever the page asks: after a change of its members here,
 * when the tab comes to the front again, and when the server names another head of the log (the
 * members page's poll, GroupKeyStatus `serverHead`), so the fingerprint follows the log.
 */
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
        // The verified log's head (its last entry's seq), which the server's word is compared with.
        head: ring.log.head.seq,
        // Of the log verified here: what members compare to catch a fork (docs/protocol.md §14.7).
        fingerprint: await logFingerprint(ring.log),
      };
    },
    retry: false,
    refetchOnWindowFocus: true,
    // Waiting for one's wrap (an admin's browser hands it out): loaded again once the shell's one look finds it (wrap-wait.ts).
  });
}

/**
 * Whether this member's key of the group verifies (docs/protocol.md §8, what a client checks): the
 * refusal's warning (data-trust-warning, as conversations show theirs; one's own key moved: it opens
 * again by itself once renewed), the wait for one's wrap, or the verified epoch and the older
 * epochs reached through the chain, with the membership fingerprint of the verified log. A
 * `serverHead` (the log's head as a poll of the page says it, e.g. GET …/wraps/status) beyond
 * the verified one loads and verifies the ring again (one behind it is an answer older than the
 * ring; a rollback is what verifying refuses): a member added or removed by another
 * administrator changes the fingerprint shown without a reload (what is shown is still only what
 * verified here; the server's number only says when to look).
 */
export function GroupKeyStatus({ groupId, holder, serverHead }: { groupId: number; holder: UnlockedKeys; serverHead?: number | undefined }) {
  const { t } = useTranslation(ns);
  const ring = useQuery(groupRingQuery(groupId, holder));
  const verifiedHead = ring.data?.head;
  const { refetch } = ring;
  useEffect(() => {
    if (serverHead !== undefined && verifiedHead !== undefined && serverHead > verifiedHead) void refetch();
  }, [serverHead, verifiedHead, refetch]);
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
