import { Alert, Button, Card, Group, Modal, Pill, Select, Stack, Text, Title } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { useUnlockedKeys } from "../../../lib/unlocked-keys";
import { useGroupMembers } from "../get-members";
import type { PageView } from "../get-page";
import { LockIcon } from "../menu/page-icons";
import { type Grant, type PagePermissions, usePagePermissions, usePermitPage } from "../page-permissions";
import type { ReactNode } from "react";
import { TalkingToServer } from "../frame/load-state";
import { TextError } from "./form-footer";
import { grantKey, type Lists, permissionHint, type PermissionList, withGrant, withoutGrant } from "./permission-hints";
import { ns } from "../i18n";

/** Pages have read and use lists (spec 001 §6); `write` is kept as it is (drive items have it). */
const LISTS: PermissionList[] = ["read", "use"];

/**
 * The permission editor for a page (spec 001 §2): a card per list with its role and user chips.
 * Only group administrators change them (`is_editable`); everyone else sees the lists with a lock
 * notice. Hints say what an empty list means while the other is set.
 */
export function PermissionEditor({ groupId, page, onClose }: { groupId: number; page: PageView; onClose: () => void }) {
  const { t } = useTranslation(ns);
  const permissions = usePagePermissions(groupId, page.id);
  return (
    <Modal opened onClose={onClose} title={t("permissions.title", { name: page.name })} centered size="lg">
      {permissions.isPending ? (
        <TalkingToServer />
      ) : permissions.isError ? (
        <TextError text={errorText(permissions.error, t("permissions.fetchFailed"))} />
      ) : (
        <PagePermissionLists groupId={groupId} pageId={page.id} permissions={permissions.data} onClose={onClose} />
      )}
    </Modal>
  );
}

function PagePermissionLists({ groupId, pageId, permissions, onClose }: { groupId: number; pageId: number; permissions: PagePermissions; onClose: () => void }) {
  const { t } = useTranslation(ns);
  const holder = useUnlockedKeys();
  const [progress, setProgress] = useState<{ done: number; total: number } | null | undefined>(undefined);
  const permit = usePermitPage(groupId, pageId, holder, setProgress);
  const sealing = permit.isPending && progress !== undefined;
  return (
    <Stack>
      <PermissionLists groupId={groupId} permissions={permissions} lists={LISTS} saving={permit.isPending} onSave={(lists) => permit.mutateAsync(lists)} onClose={onClose} />
      {sealing ? (
        <Text size="sm" role="status" data-page-sealing={progress ? `${progress.done}/${progress.total}` : "key"}>
          {progress ? t("permissions.sealing", { done: progress.done, total: progress.total }) : t("permissions.sealingKey")}
        </Text>
      ) : null}
    </Stack>
  );
}

/** What the cards say of a list, and the hint's text (a page's wording unless given). */
export interface PermissionTexts {
  listHint?: (list: PermissionList) => string;
  hint?: (hint: "readEmpty" | "useEmpty") => ReactNode;
}

/**
 * The cards of the permission editor (spec 001 §2) for any object's lists: a card per list with
 * its role and user chips, the lock notice when not `is_editable`, the hints, Save and Cancel.
 * `onSave` errors show as the spec's texts: 403 'You do not have access to edit this object.',
 * anything else 'Error editing this object - please refresh the page and try again.'
 */
export function PermissionLists({
  groupId,
  permissions,
  lists: shown,
  saving,
  onSave,
  onClose,
  texts = {},
}: {
  groupId: number;
  permissions: PagePermissions;
  lists: PermissionList[];
  saving: boolean;
  onSave: (lists: Lists) => Promise<unknown>;
  onClose: () => void;
  texts?: PermissionTexts;
}) {
  const { t } = useTranslation([ns, "errors"]);
  const editable = permissions.is_editable;
  const members = useGroupMembers(groupId, editable);
  const [lists, setLists] = useState<Lists>({ read: permissions.read, write: permissions.write, use: permissions.use });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setLists({ read: permissions.read, write: permissions.write, use: permissions.use }), [permissions]);

  const names: Record<string, string> = { ...permissions._attrib };
  for (const member of members.data?.members ?? []) names[`u${member.id}`] = member.name;
  for (const role of members.data?.roles ?? []) names[`r${role.id}`] = role.group_id === 0 ? t("permissions.instanceRole", { name: role.name }) : role.name;
  const nameOf = (grant: Grant) => names[grantKey(grant)] ?? `#${grant.id}`;

  const options = [
    { group: t("permissions.roles"), items: (members.data?.roles ?? []).map((role) => ({ value: `r${role.id}`, label: names[`r${role.id}`]! })) },
    { group: t("permissions.people"), items: (members.data?.members ?? []).map((member) => ({ value: `u${member.id}`, label: member.name })) },
  ];
  const change = (list: PermissionList, next: Grant[]) => setLists((current) => ({ ...current, [list]: next }));
  const hint = permissionHint(lists);

  const save = () => {
    setError(null);
    onSave(lists).then(onClose, (cause: unknown) => setError(errorText(cause, t("errors:permit_invalid"))));
  };

  return (
    <Stack>
      {editable ? null : (
        <Alert icon={<LockIcon size={18} />} color="gray" title={t("permissions.locked")}>
          {t("permissions.contactAuthor")}
        </Alert>
      )}
      {shown.map((list) => (
        <Card key={list} withBorder component="section" aria-label={t(`permissions.${list}`)}>
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t(`permissions.${list}`)}
            </Title>
            <Text size="xs" c="dimmed">
              {texts.listHint ? texts.listHint(list) : t(`permissions.${list}Hint`)}
            </Text>
            <Group gap={6}>
              {lists[list].length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t("permissions.nobody")}
                </Text>
              ) : (
                lists[list].map((grant) => (
                  <Pill
                    key={grantKey(grant)}
                    withRemoveButton={editable}
                    onRemove={() => change(list, withoutGrant(lists[list], grant))}
                    removeButtonProps={{ "aria-label": t("permissions.remove", { name: nameOf(grant) }) }}
                    data-grant={grant.role ? "role" : "user"}
                  >
                    {grant.role ? `${t("permissions.role")}: ${nameOf(grant)}` : nameOf(grant)}
                  </Pill>
                ))
              )}
            </Group>
            {editable ? (
              <Select
                aria-label={t("permissions.add", { list: t(`permissions.${list}`) })}
                placeholder={t("permissions.addPlaceholder")}
                data={options}
                value={null}
                searchable
                onChange={(value) => {
                  if (!value) return;
                  change(list, withGrant(lists[list], { role: value.startsWith("r"), id: Number(value.slice(1)) }));
                }}
              />
            ) : null}
          </Stack>
        </Card>
      ))}
      {hint ? (
        <Alert color="yellow" data-permission-hint={hint}>
          {texts.hint ? texts.hint(hint) : t(`permissions.hints.${hint}`)}
        </Alert>
      ) : null}
      {error ? <TextError text={error} /> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {editable ? t("settings.cancel") : t("permissions.close")}
        </Button>
        {editable ? (
          <Button onClick={save} loading={saving}>
            {t("settings.save")}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
