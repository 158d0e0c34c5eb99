import { Button, Group, Stack, TextInput, Title } from "@mantine/core";
import type { PublicUser } from "@sealwork/contracts";
import { notifications } from "@mantine/notifications";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isValidName } from "../../lib/validation";
import { useUpdateOwnUser } from "./update-own-user";
import { ns } from "./i18n";

export interface ProfileSectionProps {
  user: Pick<PublicUser, "id" | "name" | "email" | "phone">;
  onError: (error: unknown) => void;
}

/** Name (editable), email and phone (read only: they identify the account at login). */
export function ProfileSection({ user, onError }: ProfileSectionProps) {
  const { t } = useTranslation([ns, "common"]);
  const [name, setName] = useState(user.name);
  // A name saved here or elsewhere replaces what the field shows.
  useEffect(() => setName(user.name), [user.name]);
  const update = useUpdateOwnUser(user.id);
  const changed = name.trim() !== user.name;
  const valid = isValidName(name);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!changed || !valid || update.isPending) return;
    update.mutate(
      { name: name.trim() },
      { onSuccess: () => notifications.show({ color: "green", message: t("common:saved") }), onError },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={2} size="h3">
          {t("profile")}
        </Title>
        <TextInput
          label={t("name")}
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={valid ? null : t("common:validation.nameRequired")}
        />
        <TextInput label={t("email")} value={user.email ?? ""} placeholder={t("common:notSet")} variant="filled" readOnly />
        <TextInput label={t("phone")} value={user.phone ?? ""} placeholder={t("common:notSet")} variant="filled" readOnly />
        <Group>
          <Button type="submit" disabled={!changed || !valid} loading={update.isPending}>
            {t("saveName")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
