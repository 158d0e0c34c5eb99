import { Alert, Button, Group, List, Modal, Stack, Text } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { call } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { ns } from "./i18n";

/** Spec 001 §9: analysis percentages to 2 decimals. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100).toFixed(2);

/**
 * The Mote Analysis popup (spec 001, Members page; super administrators): on the group-key
 * design, who lacks a wrap of the current epoch and who has no account key yet
 * (GET …/wraps/status), and forcing the distribution now (what the keeper of an administrator's
 * browser would do at its next round: completeGroupKeys). Only a group administrator holds the key
 * to hand out; anyone else sees the figures.
 */
export function MoteAnalysis({ groupId, holder, names, groupAdmin, onClose }: { groupId: number; holder: UnlockedKeys; names: Map<number, string>; groupAdmin: boolean; onClose: () => void }) {
  const { t } = useTranslation(ns);
  const status = useQuery({ queryKey: queryKeys.groups.wrapsStatus(groupId), queryFn: () => call("GET /api/groups/{id}/wraps/status", { params: { id: groupId } }) });
  const force = useMutation({
    mutationFn: async (missing: number[]) => (await import("../keys/group-changes")).completeGroupKeys(groupId, holder, missing),
    onSettled: () => status.refetch(),
  });
  const who = (ids: number[]) => (ids.length === 0 ? <Text size="sm">{t("analysis.nobody")}</Text> : <List size="sm">{ids.map((id) => <List.Item key={id}>{names.get(id) ?? `#${id}`}</List.Item>)}</List>);

  return (
    <Modal opened onClose={onClose} title={t("analysis.title")} centered size="lg">
      {status.isPending ? (
        <Text>{t("loading")}</Text>
      ) : status.isError ? (
        <Alert color="red">{t("analysis.failed")}</Alert>
      ) : (
        <Stack gap="sm" data-analysis-epoch={status.data.epoch}>
          <Text size="sm">{t("analysis.epoch", { epoch: status.data.epoch, members: status.data.members })}</Text>
          <Text fw={600} size="sm" data-missing-wraps={status.data.missing_wraps.length}>
            {t("analysis.missingWraps", { count: status.data.missing_wraps.length, percent: percent(status.data.missing_wraps.length, status.data.members) })}
          </Text>
          {who(status.data.missing_wraps)}
          <Text fw={600} size="sm" data-missing-keys={status.data.missing_keys.length}>
            {t("analysis.missingKeys", { count: status.data.missing_keys.length, percent: percent(status.data.missing_keys.length, status.data.members) })}
          </Text>
          {who(status.data.missing_keys)}
          {status.data.needs_rekey ? <Text size="sm">{t("analysis.rekeyDue")}</Text> : null}
          {force.isError ? <Alert color="red">{t("analysis.forceFailed")}</Alert> : null}
          {force.isSuccess ? <Text size="sm">{t("analysis.forced", { count: force.data.length })}</Text> : null}
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {groupAdmin ? t("analysis.forceHint") : t("analysis.onlyAdmins")}
            </Text>
            <Button
              onClick={() => force.mutate(status.data.missing_wraps)}
              loading={force.isPending}
              disabled={!groupAdmin || (status.data.missing_wraps.length === 0 && !status.data.needs_rekey)}
            >
              {t("analysis.force")}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
