import { Button, CloseButton, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { usePageTitle } from "../../lib/page-title";
import { useRequiredSession } from "../../lib/session";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { PersonSelector } from "../people";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { actionErrorText } from "./conversation-errors";
import { useCreateConversation } from "./create-conversation";
import type { FoundPerson } from "./lookup-person";
import { PersonPicker } from "./person-picker";
import { TitleField, isTitleTooLong } from "./title-field";
import { ns } from "./i18n";

/** /conversation/new: one or several people and an optional title (spec 000 §2). */
export function NewConversationPage() {
  const { t } = useTranslation(ns);
  usePageTitle(t("titles.newConversation"));
  const unlocked = useUnlockedKeys();
  if (!unlocked) return <Text>{t("errors.keysMissing")}</Text>;
  return <NewConversationForm unlocked={unlocked} />;
}

function NewConversationForm({ unlocked }: { unlocked: NonNullable<ReturnType<typeof useUnlockedKeys>> }) {
  const { t } = useTranslation(ns);
  const session = useRequiredSession();
  const navigate = useNavigate();
  const [people, setPeople] = useState<FoundPerson[]>([]);
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useCreateConversation(unlocked);

  const check = (person: FoundPerson) => {
    if (person.id === session.id) return t("new.self");
    if (people.some((p) => p.id === person.id)) return t("new.already");
    return null;
  };
  const start = () =>
    create.mutate(
      { recipients: people.map((p) => p.id), title },
      {
        onSuccess: (conversation) => void navigate(`/conversation/${conversation.id}`),
        onError: (cause) => setError(actionErrorText(cause, "createFailed")),
      },
    );

  return (
    <Stack gap="md" maw={640}>
      <Title order={1} size="h2">
        {t("new.heading")}
      </Title>
      <PersonPicker check={check} onPick={(person) => setPeople((current) => [...current, person])} />
      {/* Spec 000 §9: the person selector offers the people who share a group with the user (everyone to administrators). */}
      <PersonSelector
        label={t("new.fromGroups")}
        exclude={[session.id, ...people.map((p) => p.id)]}
        onPick={(person) => setPeople((current) => [...current, { id: person.id, contact: person.name }])}
      />
      <Paper withBorder p="sm" radius="md" component="section" aria-label={t("new.people")}>
        <Stack gap={4}>
          <Text fw={600} size="sm">
            {t("new.people")}
          </Text>
          {people.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t("new.noPeople")}
            </Text>
          ) : (
            people.map((person) => (
              <Group key={person.id} justify="space-between" wrap="nowrap">
                <Text size="sm">{person.contact}</Text>
                <CloseButton aria-label={t("new.remove", { name: person.contact })} onClick={() => setPeople((current) => current.filter((p) => p.id !== person.id))} />
              </Group>
            ))
          )}
        </Stack>
      </Paper>
      <TitleField label={t("new.title")} value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
      <Group>
        <Button onClick={start} disabled={people.length === 0 || isTitleTooLong(title)} loading={create.isPending}>
          {t("new.start")}
        </Button>
      </Group>
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Stack>
  );
}
