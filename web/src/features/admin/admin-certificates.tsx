import { Alert, Button, Group, Stack, Text, Title } from "@mantine/core";
import type { PublicUser } from "@sealwork/contracts";
import { grantAdmin, identityKeys } from "@sealwork/crypto";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { call } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { queryKeys } from "../../lib/query-keys";
import { contactKey, fetchBundle, ownIdentity } from "../../lib/trust";
import { type UnlockedKeys, useUnlockedKeys } from "../../lib/unlocked-keys";
import { ns } from "./i18n";

/**
 * Administrators whose identity has no admin certificate yet (docs/protocol.md §14.3, §14.14):
 * invited as administrators, they sign invitations that verify only once an administrator
 * certifies them. Offered to an administrator whose own identity verifies as one; the
 * certificate names the key this client verified and pinned for them.
 */
export function AdminCertificates({ users }: { users: PublicUser[] }) {
  const { t } = useTranslation(ns);
  const unlocked = useUnlockedKeys();
  const client = useQueryClient();
  const admins = users.filter((user) => user.hasAdminRole || user.hasSuperAdminRole).map((user) => user.id);
  const pending = useQuery({
    queryKey: [...queryKeys.admin.certificates(), admins],
    queryFn: () => uncertified(unlocked!, admins),
    enabled: unlocked !== null,
  });
  const certify = useMutation({
    mutationFn: (user: PublicUser) => certifyAdmin(unlocked!, user.id),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.admin.certificates() }),
  });
  const waiting = users.filter((user) => pending.data?.includes(user.id));
  if (waiting.length === 0) return null;
  return (
    <Stack gap="xs" data-admin-certificates>
      <Title order={2} size="h3">
        {t("certificates.heading")}
      </Title>
      <Text size="sm">{t("certificates.intro")}</Text>
      {certify.error ? <Alert color="red">{errorText(certify.error, certify.error.message)}</Alert> : null}
      {waiting.map((user) => (
        <Group key={user.id} gap="sm">
          <Text size="sm">{user.name}</Text>
          <Button size="xs" loading={certify.isPending && certify.variables?.id === user.id} onClick={() => certify.mutate(user)}>
            {t("certificates.certify", { name: user.name })}
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

/** The administrators with an identity but no certificate, when this administrator can certify (else none). */
async function uncertified(me: UnlockedKeys, admins: number[]): Promise<number[]> {
  const mine = await ownIdentity(me);
  if (!mine?.admin) return [];
  const bundles = await Promise.all(admins.filter((uid) => uid !== me.uid).map(async (uid) => ({ uid, bundle: await fetchBundle(uid, true) })));
  return bundles.filter(({ uid, bundle }) => bundle.chain && !bundle.chain.admins.some((admin) => (admin as { record?: { userId?: number } }).record?.userId === uid)).map(({ uid }) => uid);
}

/** Verifies their identity (and pins it), then signs and stores the certificate for that key. */
async function certifyAdmin(me: UnlockedKeys, uid: number): Promise<void> {
  const contact = await contactKey(me, uid);
  const certificate = await grantAdmin({ userId: uid, keyId: contact.keyId, granted: Date.now() }, await identityKeys(me.uid, me.keys));
  await call("POST /api/identities/{id}/admin", { params: { id: uid }, body: { certificate: { ...certificate } } });
}
