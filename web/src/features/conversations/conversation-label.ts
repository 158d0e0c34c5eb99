import type { Attribution, ConversationView } from "@sealwork/contracts";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../lib/query-keys";
import { useSession } from "../../lib/session";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { decryptTitle, openConversationKey } from "./conversation-crypto";
import { ns } from "./i18n";

type Labelled = Pick<ConversationView, "id" | "title" | "sealed" | "participants"> & Partial<Pick<ConversationView, "epoch">>;

/** The names of the other participants, for conversations without a (readable) title. */
export function participantNames(conversation: Pick<ConversationView, "participants">, attribution: Attribution, me: number): string {
  return conversation.participants
    .filter((p) => p.user_id !== me)
    .map((p) => attribution[String(p.user_id)]?.name ?? `#${p.user_id}`)
    .join(", ");
}

/**
 * A conversation's name in lists and menus: its decrypted title once the keys are unlocked,
 * else the other participants' names. The key comes from the list's copy without the checks of
 * the conversation screen (protocol v2's log and signatures: one request per conversation would
 * be needed); it only names the conversation here, nothing is written under it.
 */
export function useConversationLabel(conversation: Labelled, attribution: Attribution): string {
  const { t } = useTranslation(ns);
  const session = useSession();
  const unlocked = useUnlockedKeys();
  const { id, title, sealed } = conversation;
  const epoch = conversation.epoch ?? 0;
  const { data } = useQuery({
    queryKey: queryKeys.conversations.title(unlocked?.uid, id, title),
    queryFn: async () => decryptTitle(await openConversationKey(id, sealed!, unlocked!, epoch), title!),
    enabled: unlocked !== null && title !== null && sealed !== null,
    staleTime: Infinity,
    retry: false,
  });
  if (data) return data;
  return participantNames(conversation, attribution, session?.id ?? 0) || t("onlyYou");
}
