import type { Attribution, ConversationView } from "@sealwork/contracts";
import { Indicator, Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { ChatIcon, ListIcon, PickupIcon, PlusIcon } from "../../features/conversations/conversation-icons";
import { useConversationLabel } from "../../features/conversations/conversation-label";
import { useConversations } from "../../features/conversations/list-conversations";
import { guestPath, isGuest } from "../../lib/guest";
import { useRequiredSession } from "../../lib/session";
import { NavLinkItem } from "./nav-item";
import { ns } from "../i18n";

/** Spec 000 §2, the left menu without a group: All Conversations, New Conversation, each conversation. */
export function ConversationMenu({ maximised }: { maximised: boolean }) {
  const { t } = useTranslation(ns);
  const { data } = useConversations();
  const guest = isGuest(useRequiredSession());
  const pickupPath = guest ? guestPath() : null;
  // Spec 000 §2: a guest's list is that one pickup.
  if (guest) {
    return (
      <Stack gap={4} align={maximised ? "stretch" : "center"} component="section" aria-label={t("conversations.popover.label")}>
        {pickupPath ? <NavLinkItem to={pickupPath} label={t("pickups.guest.menuItem")} icon={<PickupIcon />} maximised={maximised} /> : null}
      </Stack>
    );
  }
  return (
    <Stack gap={4} align={maximised ? "stretch" : "center"} component="section" aria-label={t("conversations.popover.label")}>
      <NavLinkItem to="/conversation/list" label={t("conversations.allConversations")} icon={<ListIcon />} maximised={maximised} />
      <NavLinkItem to="/conversation/new" label={t("conversations.newConversationMenu")} icon={<PlusIcon />} maximised={maximised} />
      {data?.conversations.map((c) => <ConversationItem key={c.id} conversation={c} attribution={data.attribution} maximised={maximised} />)}
    </Stack>
  );
}

function ConversationItem({ conversation, attribution, maximised }: { conversation: ConversationView; attribution: Attribution; maximised: boolean }) {
  const { t } = useTranslation(ns);
  const label = useConversationLabel(conversation, attribution);
  // A pickup (recipient 0) has its own icon.
  const Icon = conversation.recipient_id === 0 ? PickupIcon : ChatIcon;
  const icon = (
    <Indicator disabled={!conversation.unread} size={8} color="red" offset={2}>
      <Icon />
    </Indicator>
  );
  return <NavLinkItem to={`/conversation/${conversation.id}`} label={conversation.unread ? `${label} (${t("conversations.unread")})` : label} icon={icon} maximised={maximised} />;
}
