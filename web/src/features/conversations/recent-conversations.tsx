import type { Attribution, ConversationView } from "@sealwork/contracts";
import { NavLink, Stack } from "@mantine/core";
import { type ReactNode, useSyncExternalStore } from "react";
import { Link, useLocation } from "react-router";
import { isGuest } from "../../lib/guest";
import { useSession } from "../../lib/session";
import { STORAGE_PREFIX } from "../../lib/storage";
import { ChatIcon, PickupIcon } from "./conversation-icons";
import { useConversationLabel } from "./conversation-label";
import { useConversations } from "./list-conversations";
import { MAX_RECENT, withVisit } from "./recent-visits";

/**
 * The left panel's Recently list (spec 000 §2): the conversations this user opened last on this
 * device, newest first. Kept in localStorage per user (a plain logout clears it with the rest of
 * the app's data; preferences stay), ids only: the labels come from the conversation list.
 */
const storageKey = (uid: number) => `${STORAGE_PREFIX}recent.${uid}`;

const listeners = new Set<() => void>();
// Cached per user so useSyncExternalStore sees a stable snapshot between changes.
const snapshots = new Map<number, number[]>();

function read(uid: number): number[] {
  const cached = snapshots.get(uid);
  if (cached) return cached;
  let ids: number[] = [];
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(uid)) ?? "[]");
    if (Array.isArray(parsed)) ids = parsed.filter((id): id is number => Number.isSafeInteger(id) && id > 0).slice(0, MAX_RECENT);
  } catch (error) {
    console.warn("Discarding an unreadable list of recent conversations", error);
  }
  snapshots.set(uid, ids);
  return ids;
}

/** Records that `uid` opened conversation `id` (moves it to the top). */
export function recordVisit(uid: number, id: number): void {
  const current = read(uid);
  if (current[0] === id) return;
  const next = withVisit(current, id);
  localStorage.setItem(storageKey(uid), JSON.stringify(next));
  snapshots.set(uid, next);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The ids of the conversations `uid` opened last, newest first (none for a guest). */
export function useRecentIds(): number[] {
  const session = useSession();
  const uid = session && !isGuest(session) ? session.id : null;
  return useSyncExternalStore(subscribe, () => (uid === null ? NONE : read(uid)));
}
const NONE: number[] = [];

/** The Recently links; `empty` when there are none (yet, or any more: archived ones drop out). */
export function RecentConversations({ empty }: { empty: ReactNode }) {
  const ids = useRecentIds();
  const { data } = useConversations();
  const shown = ids.flatMap((id) => data?.conversations.find((c) => c.id === id) ?? []);
  if (!data || shown.length === 0) return empty;
  return (
    <Stack gap={2}>
      {shown.map((c) => (
        <RecentLink key={c.id} conversation={c} attribution={data.attribution} />
      ))}
    </Stack>
  );
}

function RecentLink({ conversation, attribution }: { conversation: ConversationView; attribution: Attribution }) {
  const label = useConversationLabel(conversation, attribution);
  const { pathname } = useLocation();
  const to = `/conversation/${conversation.id}`;
  const Icon = conversation.recipient_id === 0 ? PickupIcon : ChatIcon;
  return (
    <NavLink
      component={Link}
      to={to}
      label={label}
      title={label}
      leftSection={<Icon size={14} />}
      active={pathname === to}
      styles={{ root: { paddingInline: 4, paddingBlock: 2 }, label: { fontSize: 12 } }}
      data-recent={conversation.id}
    />
  );
}
