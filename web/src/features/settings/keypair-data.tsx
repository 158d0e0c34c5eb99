import { Alert, Code, Table, Text } from "@mantine/core";
import { accountFingerprint, fingerprint, importAccountPublicKeys } from "@sealwork/crypto";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime, fromSeconds } from "../../lib/format";
import { lookupUserKey, type KeypairView } from "../../lib/keypairs";
import { queryKeys } from "../../lib/query-keys";
import { ns } from "./i18n";

/**
 * The key's record as the server has it, with fingerprints to compare out of band, and the
 * result of the same check any other member makes before sealing to this key.
 */
export function KeypairData({ keypair }: { keypair: KeypairView }) {
  const { t } = useTranslation(ns);
  const prints = useQuery({
    queryKey: queryKeys.keypairs.fingerprints(keypair.id),
    queryFn: async () => {
      const pub = { encryptPublic: keypair.encrypt_public, signPublic: keypair.sign_public };
      const keys = await importAccountPublicKeys(pub);
      return { encrypt: await fingerprint(keys.encrypt), sign: await fingerprint(keys.sign), account: await accountFingerprint(pub) };
    },
    staleTime: Infinity,
  });
  const check = useQuery({
    queryKey: queryKeys.keypairs.lookup(keypair.uid, keypair.id),
    queryFn: () => lookupUserKey(keypair.uid),
    retry: false,
  });

  const rows: [string, ReactNode][] = [
    [t("key.id"), String(keypair.id)],
    [t("key.type"), keypair.type],
    [t("key.created"), formatDateTime(fromSeconds(keypair.timestamp))],
    [t("key.registered"), formatDateTime(fromSeconds(keypair.sentinel))],
    [t("key.valid"), t(keypair.valid ? "key.yes" : "key.no")],
    [t("key.encryptFingerprint"), <Code key="e">{prints.data?.encrypt ?? "…"}</Code>],
    [t("key.signFingerprint"), <Code key="s">{prints.data?.sign ?? "…"}</Code>],
    [t("key.accountFingerprint"), <Code key="a">{prints.data?.account ?? "…"}</Code>],
    [
      t("key.signature"),
      check.isError ? (
        <Text key="c" c="red" size="sm">
          {check.error.message}
        </Text>
      ) : check.isSuccess ? (
        t("key.verified")
      ) : (
        "…"
      ),
    ],
  ];

  return (
    <>
      {prints.isError ? <Alert color="red">{t("key.loadFailed")}</Alert> : null}
      <Table variant="vertical" layout="fixed" withTableBorder aria-label={t("key.heading")}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={220}>{label}</Table.Th>
              <Table.Td style={{ wordBreak: "break-word" }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
