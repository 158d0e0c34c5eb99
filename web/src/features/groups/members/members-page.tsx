import { Badge, Button, Card, Group, Modal, SegmentedControl, SimpleGrid, Stack, Table, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { Response } from "@sealwork/contracts";
import { call, isApiError } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import { errorText, isRefusal } from "../../../lib/error-text";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { addGroupMember, leaveGroup, promoteGroupMember, removeGroupMember } from "../keys/group-changes";
import { groupMembersQuery } from "../get-members";
import { GroupKeyStatus } from "../keys/key-status";
import { PersonSelector } from "../../people";
import { useSession } from "../../../lib/session";
import { ns } from "./i18n";
import { MoteAnalysis } from "./mote-analysis";
import { PageKeyUpkeepStatus, usePageKeyUpkeep } from "./page-key-upkeep";
import { AddRoleMenu, RoleBadge, RoleCards } from "./roles";

type MembersReply = Response<"GET /api/groups/{id}/members">;
type Member = MembersReply["members"][number];
type RoleFilter = "none" | "group" | "all";
type View = "cards" | "list";

/**
 * The members page (spec 001, Members page): the group's members with the roles the filter shows
 * (none, the group's, all), as cards or a list; group admins add members (the person selector),
 * promote one to group admin (confirmed, for good) and remove one (a new group key for those who
 * stay); anyone leaves (home afterwards). Each change is signed in this browser (keys/group-changes.ts).
 * After an administrator's change of who is in the group or holds a role, the keys of the group's
 * restricted pages follow it here (page-key-upkeep.tsx).
 */
export function MembersPage({ groupId }: { groupId: number }) {
  const holder = useUnlockedKeys();
  if (!holder) return null;
  return <Members groupId={groupId} holder={holder} />;
}

function Members({ groupId, holder }: { groupId: number; holder: UnlockedKeys }) {
  const { t } = useTranslation(ns);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<RoleFilter>("group");
  const [view, setView] = useState<View>("cards");
  const [adding, setAdding] = useState(false);
  const [analysing, setAnalysing] = useState(false);
  const superAdmin = useSession()?.hasSuperAdminRole === true;
  const [confirm, setConfirm] = useState<{ kind: "promote" | "remove"; member: Member } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const page = useQuery(groupMembersQuery(groupId));
  const pending = useQuery({
    queryKey: queryKeys.groups.wrapsStatus(groupId),
    queryFn: () => call("GET /api/groups/{id}/wraps/status", { params: { id: groupId } }),
    enabled: page.data?.attrib.am_admin === true,
    refetchInterval: 5_000,
  });
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.groups.members(groupId) }), client.invalidateQueries({ queryKey: queryKeys.groups.ring(groupId, holder.uid) })]);
  // Who reads a restricted page may have changed: its key follows (never blocking the change itself).
  const keys = usePageKeyUpkeep(groupId, holder);
  const readersChanged = () => keys.run();

  const add = useMutation({ mutationFn: (uid: number) => addGroupMember(groupId, holder, uid), onSuccess: readersChanged, onSettled: refresh });
  const promote = useMutation({ mutationFn: (uid: number) => promoteGroupMember(groupId, holder, uid), onSuccess: readersChanged, onSettled: refresh });
  const remove = useMutation({
    mutationFn: (uid: number) => (uid === holder.uid ? leaveGroup(groupId, holder) : removeGroupMember(groupId, holder, uid)),
    // One who leaves makes no key of the group any more (the next administrator's browser does).
    onSuccess: (_, uid) => (uid === holder.uid ? undefined : readersChanged()),
    onSettled: refresh,
  });

  if (page.isPending) return <Text>{t("loading")}</Text>;
  if (page.error) return <Text c="red">{errorText(page.error)}</Text>;
  const { attrib, members, roles, member_roles: held } = page.data;
  const admin = attrib.am_admin;
  const waiting = new Set(pending.data?.missing_keys ?? []);
  const shownRoles = (m: Member) =>
    filter === "none"
      ? []
      : roles.filter((r) => held.some((h) => h.user_id === m.id && h.role_id === r.id) && !r.admin && (filter === "all" || r.group_id === groupId));

  const onConfirm = () => {
    if (!confirm) return;
    const { kind, member } = confirm;
    setConfirm(null);
    if (kind === "promote") promote.mutate(member.id, { onError: (cause) => setError(isRefusal(cause) ? errorText(cause) : t("promoteFailed")) });
    else
      remove.mutate(member.id, {
        onSuccess: () => {
          if (member.id === holder.uid) void navigate("/");
        },
        onError: (cause) => setError(isRefusal(cause) ? errorText(cause) : t("removeFailed")),
      });
  };

  const actions = (m: Member) => (
    <Group gap="xs">
      {admin && !m.group_admin ? (
        <Button size="xs" variant="light" onClick={() => setConfirm({ kind: "promote", member: m })} loading={promote.isPending && promote.variables === m.id}>
          {t("promote")}
        </Button>
      ) : null}
      {admin || m.id === holder.uid ? (
        <Button size="xs" variant="light" color="red" onClick={() => setConfirm({ kind: "remove", member: m })} loading={remove.isPending && remove.variables === m.id}>
          {m.id === holder.uid ? t("leave") : t("remove")}
        </Button>
      ) : null}
    </Group>
  );
  const badges = (m: Member) => (
    <Group gap={4}>
      {m.group_admin ? <Badge size="sm">{t("admin")}</Badge> : null}
      {m.creator ? (
        <Badge size="sm" variant="outline">
          {t("creator")}
        </Badge>
      ) : null}
      {waiting.has(m.id) ? (
        <Badge size="sm" color="yellow" data-pending-member={m.id}>
          {t("pending")}
        </Badge>
      ) : null}
      {shownRoles(m).map((r) => (
        <RoleBadge key={r.id} role={r} memberId={m.id} admin={admin} onChanged={refresh} onHolders={readersChanged} onError={setError} />
      ))}
      {admin ? <AddRoleMenu groupId={groupId} page={page.data} memberId={m.id} onChanged={refresh} onHolders={readersChanged} onError={setError} onAdmin={() => setConfirm({ kind: "promote", member: m })} /> : null}
    </Group>
  );
  const nameOf = (m: Member) => (m.id === holder.uid ? `${m.name} ${t("you")}` : m.name);

  return (
    <Stack gap="md">
      {admin || superAdmin ? (
        <Group justify="flex-end">
          {superAdmin ? (
            <Button variant="default" onClick={() => setAnalysing(true)}>
              {t("analysis.open")}
            </Button>
          ) : null}
          {admin ? <Button onClick={() => setAdding(true)}>{t("add")}</Button> : null}
        </Group>
      ) : null}
      <GroupKeyStatus groupId={groupId} holder={holder} serverHead={pending.data?.log_head} />
      <PageKeyUpkeepStatus upkeep={keys.upkeep} onDismiss={keys.dismiss} />
      <Group gap="md">
        <SegmentedControl
          aria-label={t("roleFilter")}
          value={filter}
          onChange={(v) => setFilter(v as RoleFilter)}
          data={(["none", "group", "all"] as const).map((value) => ({ value, label: t(`roles.${value}`) }))}
        />
        <SegmentedControl aria-label={t("view")} value={view} onChange={(v) => setView(v as View)} data={(["cards", "list"] as const).map((value) => ({ value, label: t(`views.${value}`) }))} />
      </Group>
      {filter !== "none" ? <RoleCards groupId={groupId} page={page.data} admin={admin} onChanged={refresh} onHolders={readersChanged} onError={setError} /> : null}
      {view === "cards" ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} role="list" aria-label={t("title")}>
          {members.map((m) => (
            <Card key={m.id} withBorder role="listitem" data-member={m.id} aria-label={m.name}>
              <Stack gap="xs">
                <Text fw={600}>{nameOf(m)}</Text>
                {badges(m)}
                {actions(m)}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      ) : (
        <Table aria-label={t("title")}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("name")}</Table.Th>
              <Table.Th>{t("role")}</Table.Th>
              <Table.Th>{t("actions")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => (
              <Table.Tr key={m.id} data-member={m.id}>
                <Table.Td>{nameOf(m)}</Table.Td>
                <Table.Td>{badges(m)}</Table.Td>
                <Table.Td>{actions(m)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={adding} onClose={() => setAdding(false)} title={t("addTitle")} centered>
        <PersonSelector
          autoFocus
          disabled={add.isPending}
          exclude={members.map((m) => m.id)}
          onPick={(person) =>
            add.mutate(person.id, {
              onSuccess: () => setAdding(false),
              onError: (cause) => setError(isApiError(cause, 409) && cause.code === "member_exists" ? t("already") : isRefusal(cause) ? errorText(cause) : t("addFailed")),
            })
          }
        />
      </Modal>
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        centered
        title={
          confirm?.kind === "promote" ? t("promoteTitle", { name: confirm.member.name }) : confirm?.member.id === holder.uid ? t("leaveTitle") : t("removeTitle", { name: confirm?.member.name ?? "" })
        }
      >
        <Stack>
          <Text size="sm">{confirm?.kind === "promote" ? t("promoteText") : confirm?.member.id === holder.uid ? t("leaveText") : t("removeText", { name: confirm?.member.name ?? "" })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t("cancel")}
            </Button>
            <Button color={confirm?.kind === "promote" ? undefined : "red"} onClick={onConfirm}>
              {confirm?.kind === "promote" ? t("promoteConfirm") : confirm?.member.id === holder.uid ? t("leaveConfirm") : t("removeConfirm")}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {analysing ? <MoteAnalysis groupId={groupId} holder={holder} names={new Map(members.map((m) => [m.id, m.name]))} groupAdmin={admin} onClose={() => setAnalysing(false)} /> : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Stack>
  );
}
