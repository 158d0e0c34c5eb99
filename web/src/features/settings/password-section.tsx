import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { PasswordField } from "../../lib/ui/password-field";
import { useFields } from "../../lib/ui/use-fields";
import { notifications } from "@mantine/notifications";
import { type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isValidPassword, PASSWORD_MIN } from "../../lib/validation";
import { useUpdateOwnUser } from "./update-own-user";
import { ns } from "./i18n";

type Field = "old" | "new" | "confirmation";

export interface PasswordSectionProps {
  userId: number;
  onError: (error: unknown) => void;
}

/**
 * Spec 000 §5: the new password has at least 8 characters and matches its confirmation, and the
 * old one is given; until then Save stays disabled and Enter does nothing.
 */
export function PasswordSection({ userId, onError }: PasswordSectionProps) {
  const { t } = useTranslation([ns, "common"]);
  const empty = { old: "", new: "", confirmation: "" };
  const { values, setValues, bind } = useFields<Field>(empty);
  const update = useUpdateOwnUser(userId);
  const ready = values.old.length > 0 && isValidPassword(values.new) && values.new === values.confirmation;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || update.isPending) return;
    update.mutate(
      { password: { old: values.old, new: values.new } },
      {
        onSuccess: ({ reset }) => {
          // With reset the session is gone and the login screen says why.
          if (reset) return;
          setValues(empty);
          notifications.show({ color: "green", message: t("common:saved") });
        },
        onError,
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={2} size="h3">
          {t("password")}
        </Title>
        <PasswordField label={t("oldPassword")} autoComplete="current-password" {...bind("old")} />
        <PasswordField label={t("newPassword")} autoComplete="new-password" {...bind("new")} />
        <PasswordField label={t("confirmPassword")} autoComplete="new-password" {...bind("confirmation")} />
        <Text size="sm" c="dimmed">
          {t("passwordRules", { min: PASSWORD_MIN })}
        </Text>
        <Group>
          <Button type="submit" disabled={!ready} loading={update.isPending}>
            {t("savePassword")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
