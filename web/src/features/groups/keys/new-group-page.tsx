import { Button, CloseButton, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText } from "../../../lib/error-text";
import { queryKeys } from "../../../lib/query-keys";
import { usePageTitle } from "../../../lib/page-title";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { createGroup } from "./create-group";
import { type Person, PersonSelector } from "../../people";
import { ns } from "./i18n";

/** /group/new (super administrators): a name (required) and the initial members, picked with the person selector. */
export function NewGroupPage() {
  const { t } = useTranslation(ns);
  usePageTitle(t("create.title"));
  const unlocked = useUnlockedKeys();
  if (!unlocked) return null;
  return <NewGroupForm unlocked={unlocked} />;
}

export function NewGroupForm({ unlocked, onDone }: { unlocked: UnlockedKeys; onDone?: () => void }) {
  const { t } = useTranslation(ns);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [members, setMembers] = useState<Person[]>([]);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({ mutationFn: () => createGroup(unlocked, { name, members: members.map((m) => m.id) }) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t("create.nameMissing"));
      return;
    }
    create.mutate(undefined, {
      onSuccess: ({ group }) => {
        void client.invalidateQueries({ queryKey: queryKeys.groups.lists() });
        onDone?.();
        void navigate(`/group/${group.id}/page/members`);
      },
      onError: (cause) => setError(errorText(cause, t("create.failed"))),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={640}>
        <Title order={1} size="h2">
          {t("create.title")}
        </Title>
        <TextInput
          label={t("create.name")}
          value={name}
          maxLength={80}
          required
          error={nameError}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setNameError(null);
          }}
        />
        <Paper withBorder p="sm" radius="md" component="section" aria-label={t("create.members")}>
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {t("create.members")}
            </Text>
            {members.map((person) => (
              <Group key={person.id} justify="space-between" wrap="nowrap" data-picked={person.id}>
                <Text size="sm">{person.name}</Text>
                <CloseButton aria-label={t("people.remove", { name: person.name })} onClick={() => setMembers((current) => current.filter((p) => p.id !== person.id))} />
              </Group>
            ))}
          </Stack>
        </Paper>
        <PersonSelector exclude={[unlocked.uid, ...members.map((m) => m.id)]} onPick={(person) => setMembers((current) => [...current, person])} />
        <Group>
          <Button type="submit" loading={create.isPending}>
            {t("create.submit")}
          </Button>
        </Group>
        <ErrorDialog message={error} onClose={() => setError(null)} />
      </Stack>
    </form>
  );
}
