import { Anchor, Loader, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { usePageTitle } from "../../lib/page-title";
import { useRequiredSession } from "../../lib/session";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import type { KeyHolder } from "./conversation-crypto";
import { PanelOf, conversationHeading, useConversationKeys } from "./conversation-page";
import { useRecentIds } from "./recent-conversations";
import { useConversation } from "./use-conversation";
import { ns } from "./i18n";

/**
 * /panel-right/ (spec 000 §2, the side panels as routes): the right panel on a page of its own,
 * for the conversation opened last (the head of the Recently list), as a phone shows it.
 */
export function ConversationDetailsPage() {
  const { t } = useTranslation(ns);
  usePageTitle(t("panel.heading"));
  const [last] = useRecentIds();
  const unlocked = useConversationKeys(last ?? 0);
  if (last === undefined) {
    return (
      <Stack gap="sm" maw={PANEL_MAX}>
        <Title order={1} size="h3">
          {t("panel.heading")}
        </Title>
        <Text>{t("panel.noneOpen")}</Text>
        <Anchor component={Link} to="/conversation/list">
          {t("allConversations")}
        </Anchor>
      </Stack>
    );
  }
  if (!unlocked) return <Text>{t("errors.keysMissing")}</Text>;
  return <DetailsOf key={last} id={last} unlocked={unlocked} />;
}

const PANEL_MAX = 420;

function DetailsOf({ id, unlocked }: { id: number; unlocked: KeyHolder }) {
  const { t } = useTranslation([ns, "common"]);
  const session = useRequiredSession();
  const [error, setError] = useState<string | null>(null);
  const state = useConversation(id, unlocked, setError);
  return (
    <Stack gap="sm" maw={PANEL_MAX}>
      <Title order={1} size="h3">
        {t("panel.heading")}
      </Title>
      {state.status === "loading" ? <Loader aria-label={t("common:loading")} /> : null}
      {state.status === "error" && error === null ? <Text c="red">{state.error}</Text> : null}
      {state.status === "ready" ? (
        <Anchor component={Link} to={`/conversation/${id}`} style={{ overflowWrap: "anywhere" }}>
          {t("panel.openConversation", { name: conversationHeading(state, session.id, t("onlyYou")) })}
        </Anchor>
      ) : null}
      <PanelOf id={id} state={state} onError={setError} />
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Stack>
  );
}
