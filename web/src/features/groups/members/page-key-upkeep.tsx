import { Alert, CloseButton, Group, Loader, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { keepRestrictedKeys } from "../keys/keep-restricted";
import { ns } from "./i18n";

type Upkeep = { state: "idle" } | { state: "busy"; done: number; total: number } | { state: "failed"; reason: string };

/**
 * The keys of the group's restricted pages after a change of who reads them, made on the members
 * page (docs/protocol.md, "Restricted pages"): `run` after the change has succeeded; it never undoes
 * or blocks the change. Runs one after another (a second change waits for the first's upkeep, so
 * two never race for the same generation).
 */
export function usePageKeyUpkeep(groupId: number, holder: UnlockedKeys) {
  const client = useQueryClient();
  const [upkeep, setUpkeep] = useState<Upkeep>({ state: "idle" });
  const keep = useMutation({
    scope: { id: `page-key-upkeep:${groupId}` },
    // The pages' keys, then the drive's restricted items; both tried, the first failure said.
    mutationFn: () => keepRestrictedKeys(groupId, holder, (done, total) => setUpkeep({ state: "busy", done, total })),
    onSuccess: () => setUpkeep({ state: "idle" }),
    onError: (cause) => setUpkeep({ state: "failed", reason: errorText(cause) }),
    // Cards are opened with the page keys as they are now.
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.groups.records(groupId) }), client.invalidateQueries({ queryKey: queryKeys.groups.drive(groupId) })]),
  });
  return { upkeep, run: () => keep.mutate(), dismiss: () => setUpkeep({ state: "idle" }) };
}

/** What the upkeep is doing: its progress, or why it stopped (the keys then follow on the pages' next visit). */
export function PageKeyUpkeepStatus({ upkeep, onDismiss }: { upkeep: Upkeep; onDismiss: () => void }) {
  const { t } = useTranslation(ns);
  if (upkeep.state === "busy" && upkeep.total > 0) {
    return (
      <Group gap="xs" role="status" data-page-key-upkeep="busy">
        <Loader size="xs" />
        <Text size="sm">{t("pageKeys.progress", { done: upkeep.done, total: upkeep.total })}</Text>
      </Group>
    );
  }
  if (upkeep.state === "failed") {
    return (
      <Alert color="yellow" role="alert" data-page-key-upkeep="failed">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm">{t("pageKeys.failed", { reason: upkeep.reason })}</Text>
          <CloseButton size="sm" aria-label={t("pageKeys.dismiss")} onClick={onDismiss} />
        </Group>
      </Alert>
    );
  }
  return null;
}
