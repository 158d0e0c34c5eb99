import { Button, Checkbox, Group, Loader, Paper, Radio, Select, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { PICKUP_EXPIRY_DAYS, PICKUP_EXPIRY_DEFAULT } from "@sealwork/contracts";
import { formatPickupCode } from "@sealwork/crypto";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { instanceQuery, useInstance } from "../../../lib/instance";
import { usePageTitle } from "../../../lib/page-title";
import { queryKeys } from "../../../lib/query-keys";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { useFields } from "../../../lib/ui/use-fields";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { isValidEmail } from "../../../lib/validation";
import { useRequiredSession } from "../../../lib/session";
import { type CreatedPickup, type NewPickupInput, pickupMailto, preparePickup, sendPickup } from "./create-pickup";
import { TitleField, isTitleTooLong } from "../title-field";
import { Secret } from "./secret-value";
import { ns } from "../i18n";

/** Spec 000 §4: the pickup form's states; an error returns to creating. */
type FormState = { kind: "creating" } | { kind: "submitting" } | { kind: "forwarding" } | { kind: "created"; pickup: CreatedPickup };

/** /pickup/new: title, email, message, expiry and remember-security-code (spec 000 §2). */
export function NewPickupPage() {
  const { t } = useTranslation([ns, "common"]);
  usePageTitle(t("titles.newPickup"));
  const unlocked = useUnlockedKeys();
  if (!unlocked) return <Text>{t("errors.keysMissing")}</Text>;
  return <NewPickupForm unlocked={unlocked} />;
}

function NewPickupForm({ unlocked }: { unlocked: UnlockedKeys }) {
  const { t } = useTranslation([ns, "common"]);
  const queryClient = useQueryClient();
  const [state, setState] = useState<FormState>({ kind: "creating" });
  const [error, setError] = useState<string | null>(null);
  const { values, setErrors, bind } = useFields<"title" | "email">({ title: "", email: "" });
  const [message, setMessage] = useState("");
  const [expiredays, setExpiredays] = useState(String(PICKUP_EXPIRY_DEFAULT));
  const [remember, setRemember] = useState(true);
  const [codeOnly, setCodeOnly] = useState(false);
  const [delivery, setDelivery] = useState<"server" | "self">("server");

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (state.kind !== "creating") return;
    if (isTitleTooLong(values.title)) return;
    if (!isValidEmail(values.email.trim())) return setErrors({ email: t("common:validation.invalidEmail") });
    setErrors({});
    const input: NewPickupInput = { title: values.title, email: values.email, message, expiredays: Number(expiredays), remember, codeOnly, sendMyself: delivery === "self" };
    try {
      setState({ kind: "submitting" });
      // Let the progress line paint before Argon2id takes the main thread.
      await new Promise((resolve) => window.setTimeout(resolve, 30));
      const instance = await queryClient.fetchQuery(instanceQuery);
      const prepared = await preparePickup(unlocked, instance.name, input);
      setState({ kind: "forwarding" });
      const pickup = await sendPickup(unlocked, prepared, input);
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists() });
      setState({ kind: "created", pickup });
    } catch (cause) {
      console.error("Creating the pickup failed", cause);
      setState({ kind: "creating" });
      setError(t("pickups.new.failed"));
    }
  }

  if (state.kind === "created") return <CreatedView pickup={state.pickup} email={values.email} />;
  const busy = state.kind !== "creating";

  return (
    <Stack gap="md" maw={640} data-pickup-state={state.kind}>
      <Title order={1} size="h2">
        {t("pickups.new.heading")}
      </Title>
      <Text size="sm" c="dimmed">
        {t("pickups.new.intro")}
      </Text>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          <TitleField label={t("pickups.new.title")} disabled={busy} {...bind("title")} />
          <TextInput label={t("pickups.new.email")} type="email" required disabled={busy} {...bind("email")} />
          <Textarea label={t("pickups.new.message")} autosize minRows={4} value={message} disabled={busy} onChange={(e) => setMessage(e.currentTarget.value)} />
          <Select
            label={t("pickups.new.expiry")}
            data={PICKUP_EXPIRY_DAYS.map((days) => ({ value: String(days), label: t("pickups.new.days", { count: days }) }))}
            value={expiredays}
            onChange={(value) => setExpiredays(value ?? String(PICKUP_EXPIRY_DEFAULT))}
            allowDeselect={false}
            disabled={busy}
          />
          <Checkbox
            label={t("pickups.new.remember")}
            description={t("pickups.new.rememberHint")}
            checked={remember}
            disabled={busy}
            onChange={(e) => setRemember(e.currentTarget.checked)}
          />
          {/* What the server-mailed link costs is said here, before the choice (issue 11, item 5). */}
          <Radio.Group label={t("pickups.new.delivery")} value={delivery} onChange={(value) => setDelivery(value === "self" ? "self" : "server")}>
            <Stack gap="xs" mt="xs">
              <Radio value="server" label={t("pickups.new.deliveryServer")} description={t("pickups.new.deliveryServerHint")} disabled={busy} />
              <Radio value="self" label={t("pickups.new.deliverySelf")} description={t("pickups.new.deliverySelfHint")} disabled={busy} />
            </Stack>
          </Radio.Group>
          <Checkbox
            label={t("pickups.new.codeOnly")}
            description={t("pickups.new.codeOnlyHint")}
            checked={codeOnly}
            disabled={busy}
            onChange={(e) => setCodeOnly(e.currentTarget.checked)}
          />
          {busy ? (
            <Group gap="xs" role="status">
              <Loader size="sm" />
              <Text size="sm">{t(state.kind === "submitting" ? "pickups.new.submitting" : "pickups.new.forwarding")}</Text>
            </Group>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              {t("pickups.new.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Stack>
  );
}

/**
 * created: the link, the code and the security code, once; then on to the conversation. When the
 * creator sends the link, also their mail program with it (never the security code).
 */
function CreatedView({ pickup, email }: { pickup: CreatedPickup; email: string }) {
  const { t } = useTranslation([ns, "common"]);
  const session = useRequiredSession();
  const { title } = useInstance();
  const mailto = pickupMailto(
    email,
    t("pickups.new.mailSubject", { name: session.name }),
    t("pickups.new.mailBody", { title, link: pickup.link, name: session.name }),
  );
  return (
    <Stack gap="md" maw={640} data-pickup-state="created">
      <Title order={1} size="h2">
        {t("pickups.new.createdHeading")}
      </Title>
      <Paper withBorder p="lg">
        <Stack>
          <Text>{t(pickup.sendMyself ? "pickups.new.createdSelfText" : "pickups.new.createdText")}</Text>
          <Secret label={t("pickups.url")} value={pickup.link} testId="pickup-url" />
          {pickup.sendMyself ? (
            <Group>
              <Button component="a" href={mailto} variant="light" data-testid="pickup-mailto">
                {t("pickups.new.mailLink")}
              </Button>
            </Group>
          ) : null}
          <Secret label={t("pickups.code")} value={formatPickupCode(pickup.code)} testId="pickup-code" />
          <Secret label={t("pickups.securityCode")} value={pickup.securityCode} testId="pickup-security-code" />
          <Text size="sm" c="dimmed">
            {t("pickups.new.securityHint")}
          </Text>
          <Group>
            <Button component={Link} to={`/conversation/${pickup.conversationId}`}>
              {t("pickups.new.open")}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
