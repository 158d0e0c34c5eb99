import { type VerifiedLog, membershipFingerprint } from "@sealwork/crypto";
import { Code, Stack, Text } from "@mantine/core";
import { queryOptions } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { TEST_CHECKS, checkOff } from "../../lib/build-settings";
import { queryKeys } from "../../lib/query-keys";
import { ns } from "./i18n";

/**
 * The membership fingerprint of a conversation's or a group's log (docs/protocol.md §14.7,
 * "Membership fingerprints"): 12 digits of the head this client verified itself, never of what
 * the server says, which members compare out of band to catch a fork nobody wrote into.
 */
export function logFingerprint(log: VerifiedLog): Promise<string> {
  // Test build only (test/malicious): the log's first entry, which both sides of a fork share.
  if (TEST_CHECKS && checkOff("fingerprint-of-head")) return membershipFingerprint({ container: log.container, head: log.history[0]!.head });
  return membershipFingerprint(log);
}

/** The fingerprint of a verified log, kept for its head (a new head is a new entry). */
export function logFingerprintQuery(log: VerifiedLog) {
  return queryOptions({
    queryKey: queryKeys.membershipFingerprint(log.container, log.head.seq, log.head.hash),
    queryFn: () => logFingerprint(log),
    staleTime: Infinity,
  });
}

/** The fingerprint with its label and what comparing it tells, for a conversation or a group. */
export function MembershipFingerprint({ value, kind }: { value: string; kind: "conversation" | "group" }) {
  const { t } = useTranslation(ns);
  return (
    <Stack gap={2} data-membership-fingerprint={value}>
      <Text size="xs" fw={600}>
        {t("fingerprint.label")}
      </Text>
      <Code fz="sm" w="fit-content">
        {value}
      </Code>
      <Text size="xs" c="dimmed">
        {t(kind === "group" ? "fingerprint.groupText" : "fingerprint.conversationText")}
      </Text>
    </Stack>
  );
}
