import { Alert, Button, Checkbox, Group, Loader, Paper, Stack, Switch, Text, TextInput, Textarea, Title } from "@mantine/core";
import { INVITE_GROUPS_DISABLED, INVITE_MESSAGE_MAX } from "@sealwork/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "../../lib/page-title";
import { queryKeys } from "../../lib/query-keys";
import { useRequiredSession } from "../../lib/session";
import { HandoverCode } from "../../lib/ui/handover-code";
import { useLengthLimit } from "../../lib/ui/use-length-limit";
import { isValidEmail, isValidPhone } from "../../lib/validation";
import { InviteError, prepareInvite, sendInvite, type CreatedInvite, type InviteDetails } from "./create-invite";
import { ns } from "./i18n";

/** Spec 000 §4: the invite form's states. */
type InviteState =
  | { kind: "creating" }
  | { kind: "submitting" }
  | { kind: "forwarding" }
  | { kind: "created"; code: string; invite: CreatedInvite }
  | { kind: "error"; message: string }
  | { kind: "error-resubmit"; message: string };

interface Values {
  email: string;
  phone: string;
  admin: boolean;
  superAdmin: boolean;
  sendEmail: boolean;
  message: string;
}

const EMPTY: Values = { email: "", phone: "", admin: false, superAdmin: false, sendEmail: true, message: "" };

/** /invite/: an administrator invites someone; their browser makes the invitee's temporary keys. */
export function InvitePage() {
  const { t } = useTranslation([ns, "common"]);
  const session = useRequiredSession();
  const queryClient = useQueryClient();
  const [state, setState] = useState<InviteState>({ kind: "creating" });
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<"email" | "phone", string>>>({});
  const messageLimit = useLengthLimit(values.message, INVITE_MESSAGE_MAX);
  usePageTitle(t("titles.invite"));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (messageLimit.over) return;
    const found: typeof errors = {};
    if (!isValidEmail(values.email)) found.email = t("common:validation.invalidEmail");
    if (values.phone.trim() && !isValidPhone(values.phone)) found.phone = t("common:validation.invalidPhone");
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const details: InviteDetails = {
      email: values.email.trim(),
      ...(values.phone.trim() ? { phone: values.phone.trim() } : {}),
      groups: [],
      roles: { admin: values.admin || values.superAdmin, superAdmin: values.superAdmin },
      sendEmail: values.sendEmail,
      ...(values.message.trim() ? { message: values.message } : {}),
    };
    try {
      setState({ kind: "submitting" });
      // Let the progress line paint before Argon2id takes the main thread.
      await new Promise((resolve) => window.setTimeout(resolve, 30));
      const prepared = await prepareInvite();
      setState({ kind: "forwarding" });
      const invite = await sendInvite(details, prepared);
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.invites() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.users() });
      setState({ kind: "created", code: prepared.code, invite });
    } catch (error) {
      console.error("Invite failed", error);
      if (error instanceof InviteError) setState({ kind: error.resubmit ? "error-resubmit" : "error", message: error.message });
      else setState({ kind: "error", message: t("errors.corrupt") });
    }
  }

  function again() {
    setValues(EMPTY);
    setState({ kind: "creating" });
  }

  const busy = state.kind === "submitting" || state.kind === "forwarding";
  const editable = state.kind === "creating" || state.kind === "error-resubmit" || busy;

  return (
    <Stack gap="lg" maw={640} data-invite-state={state.kind}>
      <Title order={1} size="h2">
        {t("heading")}
      </Title>
      {state.kind === "created" ? (
        <Paper withBorder p="lg">
          <Stack>
            <Text>{t("created.text", { email: state.invite.account.email ?? "" })}</Text>
            <Text size="sm" c="dimmed">
              {t("created.hint")}
            </Text>
            <HandoverCode code={state.code} label={t("created.codeLabel")} attributes={{ "data-invitation-code": true }} />
            <Group>
              <Button onClick={again}>{t("created.another")}</Button>
            </Group>
          </Stack>
        </Paper>
      ) : null}
      {state.kind === "error" ? (
        <Alert color="red" role="alert" title={t("common:error")}>
          <Stack>
            <Text size="sm">{state.message}</Text>
            <Group>
              <Button variant="light" onClick={again}>
                {t("startOver")}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {editable ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            {state.kind === "error-resubmit" ? (
              <Alert color="red" role="alert" title={t("common:error")} style={{ whiteSpace: "pre-line" }}>
                {state.message}
              </Alert>
            ) : null}
            <TextInput
              label={t("email")}
              type="email"
              required
              value={values.email}
              error={errors.email}
              disabled={busy}
              onChange={(e) => setValues({ ...values, email: e.currentTarget.value })}
            />
            <TextInput
              label={t("phone")}
              placeholder={t("login.phonePlaceholder")}
              value={values.phone}
              error={errors.phone}
              disabled={busy}
              onChange={(e) => setValues({ ...values, phone: e.currentTarget.value })}
            />
            <TextInput label={t("groups")} disabled description={INVITE_GROUPS_DISABLED} value="" readOnly />
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                {t("roles")}
              </Text>
              <Checkbox
                label={t("roleAdmin")}
                checked={values.admin || values.superAdmin}
                disabled={busy || values.superAdmin}
                onChange={(e) => setValues({ ...values, admin: e.currentTarget.checked })}
              />
              {session.hasSuperAdminRole ? (
                <Checkbox
                  label={t("roleSuper")}
                  checked={values.superAdmin}
                  disabled={busy}
                  onChange={(e) => setValues({ ...values, superAdmin: e.currentTarget.checked })}
                />
              ) : null}
            </Stack>
            <Switch
              label={t("sendEmail")}
              checked={values.sendEmail}
              disabled={busy}
              onChange={(e) => setValues({ ...values, sendEmail: e.currentTarget.checked })}
            />
            <Textarea
              label={t("message")}
              autosize
              minRows={3}
              description={messageLimit.description}
              error={messageLimit.error}
              value={values.message}
              disabled={busy}
              onChange={(e) => setValues({ ...values, message: e.currentTarget.value })}
            />
            {busy ? (
              <Group gap="xs" role="status">
                <Loader size="sm" />
                <Text size="sm">{t(state.kind === "submitting" ? "submitting" : "forwarding")}</Text>
              </Group>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={busy} disabled={messageLimit.over}>
                {t("submit")}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Stack>
  );
}
