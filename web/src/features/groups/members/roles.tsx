import { ActionIcon, Badge, Button, Card, Group, Menu, Modal, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Response } from "@sealwork/contracts";
import { call, isApiError } from "../../../lib/api";
import { errorText, isRefusal } from "../../../lib/error-text";
import { ns } from "./i18n";

type MembersReply = Response<"GET /api/groups/{id}/members">;
type Role = MembersReply["roles"][number];

/**
 * Group roles on the members page (spec 001, Members page; §8 texts): the role cards with who
 * holds each and 'Create new group role...' (group admins), and the Add Role popover per member.
 * Roles hand out no group key (docs/protocol.md §8), but a restricted page's key goes to the
 * holders of the roles its lists name: each change of holders calls `onHolders` once it has
 * succeeded (the members page keeps those keys then).
 */

/** What the role parts tell the members page: a change to show (`onChanged`), and one of who holds a role (`onHolders`). */
interface RoleChanges {
  onChanged: () => unknown;
  onHolders: () => void;
  onError: (text: string) => void;
}

/** The role cards, and the button that creates a role. */
export function RoleCards({ groupId, page, admin, onChanged, onHolders, onError }: { groupId: number; page: MembersReply; admin: boolean } & RoleChanges) {
  const { t } = useTranslation(ns);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState("");
  const create = useMutation({ mutationFn: () => call("POST /api/roles", { body: { name: name.trim(), group_id: groupId } }), onSettled: onChanged });
  const remove = useMutation({ mutationFn: (id: number) => call("DELETE /api/roles/{id}", { params: { id } }), onSuccess: onHolders, onSettled: onChanged });
  // The group's admin role first: it carries a warning and is never deleted (spec 001 §5).
  const groupRoles = page.roles.filter((r) => r.group_id === groupId).sort((a, b) => Number(b.admin) - Number(a.admin));
  const holders = (role: Role) => page.members.filter((m) => page.member_roles.some((h) => h.role_id === role.id && h.user_id === m.id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(undefined, {
      onSuccess: () => {
        setCreating(false);
        setName("");
      },
      onError: (cause) => onError(isRefusal(cause) ? errorText(cause) : t("rolesUi.createFailed")),
    });
  };

  return (
    <Stack gap="xs" component="section" aria-label={t("rolesUi.heading")}>
      <Title order={2} size="h4">
        {t("rolesUi.heading")}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {groupRoles.map((role) => (
          <Card key={role.id} withBorder data-role={role.id}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{role.name}</Text>
              {admin && !role.admin ? (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t("rolesUi.delete", { name: role.name })}
                  onClick={() => remove.mutate(role.id, { onError: (cause) => onError(isRefusal(cause) ? errorText(cause) : t("rolesUi.deleteFailed")) })}
                >
                  ×
                </ActionIcon>
              ) : null}
            </Group>
            {role.admin ? (
              <Text size="xs" fw={600} data-admin-role-warning>
                {t("rolesUi.adminWarning")}
              </Text>
            ) : null}
            <Text size="sm" c="dimmed">
              {holders(role)
                .map((m) => m.name)
                .join(", ") || t("rolesUi.nobody")}
            </Text>
          </Card>
        ))}
        {admin ? (
          <Button variant="light" onClick={() => setCreating(true)}>
            {t("rolesUi.create")}
          </Button>
        ) : null}
      </SimpleGrid>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t("rolesUi.createTitle")} centered>
        <form onSubmit={submit}>
          <Stack>
            <TextInput label={t("rolesUi.name")} value={name} maxLength={80} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
            <Group justify="flex-end">
              <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
                {t("rolesUi.createConfirm")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

/**
 * The Add Role popover of one member: the group's roles they do not hold (a 422 is ignored
 * silently, spec 001 §8). The admin role is there too: choosing it asks for confirmation
 * (`onAdmin`: the signed promotion of the members page), as making a group admin always does.
 */
export function AddRoleMenu({
  groupId,
  page,
  memberId,
  onChanged,
  onHolders,
  onError,
  onAdmin,
}: {
  groupId: number;
  page: MembersReply;
  memberId: number;
  onAdmin: () => void;
} & RoleChanges) {
  const { t } = useTranslation(ns);
  const assign = useMutation({ mutationFn: (id: number) => call("POST /api/roles/{id}/assign", { params: { id }, body: { user_id: memberId } }), onSuccess: onHolders, onSettled: onChanged });
  const isAdmin = page.members.some((m) => m.id === memberId && m.group_admin);
  const open = page.roles.filter((r) => r.group_id === groupId && (r.admin ? !isAdmin : !page.member_roles.some((h) => h.role_id === r.id && h.user_id === memberId)));
  if (open.length === 0) return null;
  return (
    <Menu withinPortal position="bottom-start">
      <Menu.Target>
        <Button size="xs" variant="subtle">
          {t("rolesUi.add")}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {open.map((role) => (
          <Menu.Item
            key={role.id}
            onClick={() => (role.admin ? onAdmin() : assign.mutate(role.id, { onError: (cause) => (isApiError(cause, 422) ? undefined : onError(t("rolesUi.assignFailed"))) }))}
          >
            {role.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** A role a member holds, as a badge; group admins take it away with its button. */
export function RoleBadge({ role, memberId, admin, onChanged, onHolders, onError }: { role: Role; memberId: number; admin: boolean } & RoleChanges) {
  const { t } = useTranslation(ns);
  const unassign = useMutation({ mutationFn: () => call("POST /api/roles/{id}/unassign", { params: { id: role.id }, body: { user_id: memberId } }), onSuccess: onHolders, onSettled: onChanged });
  return (
    <Badge
      size="sm"
      variant="light"
      color="gray"
      rightSection={
        admin && role.group_id !== 0 ? (
          <ActionIcon size="xs" variant="transparent" aria-label={t("rolesUi.unassign", { name: role.name })} onClick={() => unassign.mutate(undefined, { onError: () => onError(t("rolesUi.unassignFailed")) })}>
            ×
          </ActionIcon>
        ) : null
      }
    >
      {role.name}
    </Badge>
  );
}
