import { Alert, Button, Code, Group, Loader, Stack, Table, Text, Title } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { errorText } from "../../lib/error-text";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { useCertifyLegacy, useLegacyState, usePublishLegacyRule } from "./certify-legacy";
import { ns } from "./i18n";

/**
 * Administration → version 1 keys (docs/protocol.md §14.14): the accounts whose key is from
 * version 1 and not certified, each with its account fingerprint to compare with the person, and
 * Certify / Certify all; for the root, the rule that version 1 keys need a certificate, published
 * when the last one is certified (or with its button once none is left). It looks up the key of
 * every account the server lists, so only when the administrator asks (or follows the setup
 * offer's link); certifying needs an administrator whose own identity verifies as one.
 */
export function LegacyKeys() {
  const { t } = useTranslation(ns);
  const unlocked = useUnlockedKeys();
  // Opened at once when a link asks for it (?certify=1: the setup administrator's offer after publishing the root).
  const [params] = useSearchParams();
  const asked = params.get("certify") === "1";
  const [wanted, setWanted] = useState(asked);
  const section = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (asked) section.current?.scrollIntoView({ block: "start" });
  }, [asked]);
  const state = useLegacyState(unlocked, wanted);
  const certify = useCertifyLegacy(unlocked);
  const publish = usePublishLegacyRule(unlocked);
  const data = state.data;
  const heading = (
    <Title order={2} size="h3">
      {t("legacy.heading")}
    </Title>
  );
  if (!wanted || !unlocked) {
    return (
      <Stack gap="xs" data-legacy-keys ref={section}>
        {heading}
        <Group>
          <Button variant="light" disabled={!unlocked} onClick={() => setWanted(true)}>
            {t("legacy.look")}
          </Button>
        </Group>
      </Stack>
    );
  }
  if (!data) {
    return (
      <Stack gap="xs" data-legacy-keys ref={section}>
        {heading}
        {state.isError ? <Alert color="red">{errorText(state.error, state.error.message)}</Alert> : <Loader size="sm" aria-label={t("legacy.looking")} />}
      </Stack>
    );
  }
  const offerRule = data.isRoot && !data.rulePublished && data.accounts.length === 0;
  const busy = certify.isPending || publish.isPending;
  const failure = certify.error ?? publish.error;
  return (
    <Stack gap="xs" data-legacy-keys ref={section} data-legacy-state={data.canCertify ? (data.accounts.length > 0 ? "to-certify" : "done") : "not-admin"}>
      {heading}
      {failure ? <Alert color="red">{errorText(failure, failure.message)}</Alert> : null}
      {!data.canCertify ? <Text size="sm">{t("legacy.notAdmin")}</Text> : null}
      {data.canCertify && data.accounts.length === 0 && !offerRule ? <Text size="sm">{t(data.rulePublished ? "legacy.noneRequired" : "legacy.none")}</Text> : null}
      {data.accounts.length > 0 ? (
        <>
          <Text size="sm">{t("legacy.intro")}</Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("legacy.name")}</Table.Th>
                <Table.Th>{t("legacy.fingerprint")}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.accounts.map((account) => (
                <Table.Tr key={account.user.id} data-legacy-account={account.user.id}>
                  <Table.Td>{account.user.name}</Table.Td>
                  <Table.Td>
                    <Code data-fingerprint>{account.fingerprint}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      disabled={busy}
                      loading={certify.isPending && certify.variables?.accounts.length === 1 && certify.variables.accounts[0] === account}
                      onClick={() => certify.mutate({ state: data, accounts: [account] })}
                    >
                      {t("legacy.certify", { name: account.user.name })}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" c="dimmed">
            {t("legacy.allNote")}
          </Text>
          {data.isRoot && !data.rulePublished ? (
            <Text size="sm" c="dimmed">
              {t("legacy.ruleAfter")}
            </Text>
          ) : null}
          <Group>
            <Button variant="light" disabled={busy} loading={certify.isPending && (certify.variables?.accounts.length ?? 0) > 1} onClick={() => certify.mutate({ state: data, accounts: data.accounts })}>
              {t("legacy.certifyAll", { count: data.accounts.length })}
            </Button>
          </Group>
        </>
      ) : null}
      {offerRule ? (
        <>
          <Text size="sm">{t("legacy.ruleIntro")}</Text>
          <Group>
            <Button variant="light" disabled={busy} loading={publish.isPending} onClick={() => publish.mutate()}>
              {t("legacy.publishRule")}
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
