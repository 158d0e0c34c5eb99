import { Alert, Anchor, Center, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { useInstance } from "../../lib/instance";
import { usePageTitle } from "../../lib/page-title";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { SetupForm } from "./setup-form";
import { ns } from "./i18n";

/** First-administrator setup: /setup#<one-time token>. */
export function SetupPage() {
  const { t } = useTranslation([ns, "common"]);
  const location = useLocation();
  const navigate = useNavigate();
  const { title, data: instance, isPending } = useInstance();
  const [error, setError] = useState<string | null>(null);
  // The token travels in the fragment so that it never reaches a server log.
  const token = readToken(location.hash);
  usePageTitle(t("titles.setup"));

  let content;
  if (isPending) {
    content = <Loader aria-label={t("common:loading")} />;
  } else if (instance && !instance.needsSetup) {
    content = (
      <Stack>
        <Text>{t("alreadySetUp")}</Text>
        <Anchor component={Link} to="/login">
          {t("goToLogin")}
        </Anchor>
      </Stack>
    );
  } else if (!token) {
    content = <Alert color="yellow">{t("missingToken")}</Alert>;
  } else {
    content = (
      <Stack>
        <Text c="dimmed">{t("intro")}</Text>
        <SetupForm token={token} onDone={() => navigate("/", { replace: true })} onError={setError} />
      </Stack>
    );
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2">
            {t("heading", { title })}
          </Title>
          {content}
        </Stack>
      </Paper>
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Center>
  );
}

function readToken(hash: string): string {
  const raw = hash.replace(/^#/, "");
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    // A malformed escape is not a token we issued; let the server judge it as it is.
    return raw.trim();
  }
}
