import { Alert, Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { PasswordField } from "../../lib/ui/password-field";
import { useFields } from "../../lib/ui/use-fields";
import type { PublicUser } from "@sealwork/contracts";
import { notifications } from "@mantine/notifications";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { isValidEmail, isValidName, isValidPassword, PASSWORD_MIN } from "../../lib/validation";
import { errorText } from "../../lib/error-text";
import { useUpdateUser, type UserChanges } from "./update-user";
import { ns } from "./i18n";

type Field = "name" | "email" | "password";

export interface EditUserModalProps {
  /** The user being edited; the modal is open while it is set. */
  user: PublicUser | null;
  onClose: () => void;
}

export function EditUserModal({ user, onClose }: EditUserModalProps) {
  const { t } = useTranslation([ns, "common"]);
  return (
    <Modal opened={user !== null} onClose={onClose} title={t("editTitle")} centered>
      {user ? <EditUserForm key={user.id} user={user} onDone={onClose} /> : null}
    </Modal>
  );
}

/** Save failures show inside the modal, so the edits stay for another try. */
function EditUserForm({ user, onDone }: { user: PublicUser; onDone: () => void }) {
  const { t } = useTranslation([ns, "common"]);
  const { values, setErrors, bind } = useFields<Field>({ name: user.name, email: user.email ?? "", password: "" });
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateUser();

  const changes: UserChanges = {};
  if (values.name.trim() !== user.name) changes.name = values.name.trim();
  if (values.email.trim().toLowerCase() !== (user.email ?? "")) changes.email = values.email.trim().toLowerCase();
  if (values.password) changes.password = { new: values.password };
  const changed = Object.keys(changes).length > 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!changed || update.isPending) return;
    const found: Partial<Record<Field, string>> = {};
    if (changes.name !== undefined && !isValidName(changes.name)) found.name = t("common:validation.nameRequired");
    if (changes.email !== undefined && !isValidEmail(changes.email)) found.email = t("common:validation.invalidEmail");
    if (changes.password && !isValidPassword(values.password)) found.password = t("common:validation.passwordTooShort", { min: PASSWORD_MIN });
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    update.mutate(
      { id: user.id, body: changes },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: t("saved") });
          onDone();
        },
        onError: (error) => setFailure(errorText(error, t("saveFailed"))),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {failure ? (
          <Alert color="red" title={t("common:error")} role="alert">
            {failure}
          </Alert>
        ) : null}
        <TextInput label={t("name")} autoComplete="off" data-autofocus {...bind("name")} />
        <TextInput label={t("email")} type="email" autoComplete="off" {...bind("email")} />
        <PasswordField
          label={t("newPassword")}
          description={t("newPasswordHint")}
          autoComplete="new-password"
          {...bind("password")}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t("common:cancel")}
          </Button>
          <Button type="submit" disabled={!changed} loading={update.isPending}>
            {t("common:save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
