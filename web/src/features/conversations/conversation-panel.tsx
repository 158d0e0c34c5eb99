import type { Attribution, ParticipantView } from "@sealwork/contracts";
import { ActionIcon, Box, Button, Divider, Group, Modal, Stack, Text, Title, Tooltip, UnstyledButton } from "@mantine/core";
import type { VerifiedLog } from "@sealwork/crypto";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { memo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { isGuest } from "../../lib/guest";
import { queryKeys } from "../../lib/query-keys";
import { isInstanceAdmin, useSession } from "../../lib/session";
import { useUnlockedKeys } from "../../lib/unlocked-keys";
import { useArchiveConversation } from "./archive-conversation";
import { AttachmentList } from "./attachments/attachment-list";
import { RemoveIcon, ShieldIcon, StarIcon } from "./conversation-icons";
import { actionErrorText } from "./conversation-errors";
import { useLeaveConversation } from "./leave-conversation";
import type { ConversationKeys } from "./load-conversation";
import { useAddParticipant, useSetParticipantAdmin } from "./participate";
import { PersonPicker } from "./person-picker";
import { TitleField, isTitleTooLong } from "./title-field";
import { PickupDetails } from "./pickups/pickup-details";
import { useRenameConversation } from "./rename-conversation";
import { useRemoveParticipant } from "./unparticipate";
import { useContactsTrust } from "./contact-trust";
import { SafetyNumberModal, TrustBadge } from "./safety-number";
import { MembershipFingerprint, logFingerprintQuery } from "./membership-fingerprint";
import { ns } from "./i18n";

export interface ConversationPanelProps {
  conversationId: number;
  conversationKeys: ConversationKeys;
  title: string | null;
  /** 0 for a pickup, which cannot take more people. */
  recipientId: number;
  authorId: number;
  participants: ParticipantView[];
  attrib: Attribution;
  onParticipants: (result: { participants: ParticipantView[]; attrib: Attribution }) => void;
  onTitle: (title: string) => void;
  onError: (text: string) => void;
}

/**
 * The right panel (spec 000 §2): title, people with the admin star and removal, each person's key
 * (verified, not certified, changed) and safety number, the membership fingerprint of a signed
 * conversation, adding people, archive, attachments.
 * Memoised: a page of older messages leaves it as it is.
 */
export const ConversationPanel = memo(function ConversationPanel(props: ConversationPanelProps) {
  const { t } = useTranslation(ns);
  const { conversationId, conversationKeys, recipientId, authorId, participants, attrib, onParticipants, onError } = props;
  const session = useSession();
  // A pickup's guest reads, answers and downloads; the conversation's settings are not theirs.
  const guest = isGuest(session);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const add = useAddParticipant(conversationId, conversationKeys);
  const admin = useSetParticipantAdmin(conversationId, conversationKeys);
  const remove = useRemoveParticipant(conversationId, conversationKeys, props.title);
  const leave = useLeaveConversation(conversationId);
  const signed = conversationKeys.protocol === 2;
  // After a signed change of the people the conversation is read afresh: its log, its keys (a new
  // epoch after a removal), its messages.
  const changed = (result: Parameters<typeof onParticipants>[0]) => {
    onParticipants(result);
    if (signed) void queryClient.resetQueries({ queryKey: queryKeys.conversations.messages(conversationId) });
  };
  const archive = useArchiveConversation(conversationId);
  const unlocked = useUnlockedKeys();
  const trust = useContactsTrust(guest ? null : unlocked, participants.map((p) => p.user_id));
  const [comparing, setComparing] = useState<{ uid: number; name: string } | null>(null);
  const nameOf = (uid: number) => attrib[String(uid)]?.name ?? `#${uid}`;
  // Who may change the people (access/can.ts, "manage"): the author, a conversation admin, an
  // instance admin taking part (not with a membership log, whose admins alone sign changes);
  // never a guest. A pickup's people are its creator and its guest, neither of whom anyone may
  // remove or make an admin.
  const me = session?.id;
  const myEntry = participants.find((p) => p.user_id === me);
  const canManage = !guest && recipientId !== 0 && (authorId === me || myEntry?.admin === true || (!signed && isInstanceAdmin(session)));
  // Nobody changes themself, and the author is neither removed nor demoted.
  const manageablePerson = (uid: number) => uid !== me && uid !== authorId;

  const pick = async (uid: number) => {
    try {
      changed(await add.mutateAsync(uid));
      setAdding(false);
    } catch (cause) {
      onError(actionErrorText(cause, "addFailed"));
    }
  };

  return (
    <Stack gap="sm" p="sm" component="aside" aria-label={t("panel.heading")}>
      {guest ? <PlainTitle title={props.title} /> : <TitleEditor {...props} />}
      <Divider />
      <Text fw={600} size="sm">
        {t("panel.people")}
      </Text>
      <Stack gap={2} role="list" aria-label={t("panel.people")}>
        {participants.map((p) => {
          const name = nameOf(p.user_id);
          const label = p.admin ? t("panel.removeAdmin", { name }) : t("panel.makeAdmin", { name });
          // Only what this user may do to this person is offered (spec 000 §4, §6).
          const manageable = canManage && manageablePerson(p.user_id);
          return (
            <Group key={p.user_id} gap={4} wrap="nowrap" role="listitem" data-participant={p.user_id} data-admin={p.admin}>
              <Stack gap={0} flex={1} miw={0}>
                <Text size="sm" truncate title={name} data-participant-name>
                  {name}
                </Text>
                <TrustBadge entry={trust.contacts.get(p.user_id)} />
              </Stack>
              {trust.contacts.has(p.user_id) ? (
                <Tooltip label={t("trust.safetyNumberOf", { name })}>
                  <ActionIcon variant="subtle" color="gray" aria-label={t("trust.safetyNumberOf", { name })} onClick={() => setComparing({ uid: p.user_id, name })}>
                    <ShieldIcon size={16} />
                  </ActionIcon>
                </Tooltip>
              ) : null}
              {manageable ? (
                <>
                  <Tooltip label={label}>
                    <ActionIcon
                      variant="subtle"
                      color={p.admin ? "yellow" : "gray"}
                      aria-label={label}
                      aria-pressed={p.admin}
                      onClick={() => admin.mutate({ uid: p.user_id, admin: !p.admin }, { onSuccess: changed, onError: (cause) => onError(actionErrorText(cause, "adminFailed")) })}
                    >
                      <StarIcon size={16} filled={p.admin} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t("panel.remove", { name })}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t("panel.remove", { name })}
                      loading={remove.isPending && remove.variables === p.user_id}
                      onClick={() => remove.mutate(p.user_id, { onSuccess: changed, onError: (cause) => onError(actionErrorText(cause, "removeFailed")) })}
                    >
                      <RemoveIcon size={16} />
                    </ActionIcon>
                  </Tooltip>
                </>
              ) : p.admin ? (
                <Box component="span" role="img" aria-label={t("panel.isAdmin", { name })} c="yellow.7" display="inline-flex" px={6}>
                  <StarIcon size={16} filled />
                </Box>
              ) : null}
            </Group>
          );
        })}
      </Stack>
      {guest ? null : recipientId === 0 ? (
        <PickupDetails conversationId={conversationId} isAuthor={authorId === session?.id} onError={onError} />
      ) : (
        <>
          {canManage ? (
            <Button variant="light" onClick={() => setAdding(true)}>
              {t("panel.addPeople")}
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              {t("panel.cannotAdd")}
            </Text>
          )}
          {signed && me !== authorId ? (
            <Button
              variant="default"
              color="red"
              loading={leave.isPending}
              onClick={() => leave.mutate(undefined, { onSuccess: () => void navigate("/conversation/list"), onError: (cause) => onError(actionErrorText(cause, "leaveFailed")) })}
            >
              {t("distribution.leave")}
            </Button>
          ) : null}
          <Button
            variant="default"
            loading={archive.isPending}
            onClick={() => archive.mutate(undefined, { onSuccess: () => void navigate("/conversation/list"), onError: (cause) => onError(actionErrorText(cause, "archiveFailed")) })}
          >
            {t("panel.archive")}
          </Button>
        </>
      )}
      {signed ? (
        <Text size="xs" c="dimmed" data-protocol="2" data-key-epoch={conversationKeys.epoch}>
          {t("distribution.signed")} {conversationKeys.epoch > 0 ? t("distribution.epoch", { count: conversationKeys.epoch }) : null}
        </Text>
      ) : null}
      {conversationKeys.ring ? <LogFingerprint log={conversationKeys.ring.log} /> : null}
      <Divider />
      <AttachmentList conversationId={conversationId} conversationKeys={conversationKeys} />
      {unlocked && !guest ? <SafetyNumberModal me={unlocked} person={comparing} onClose={() => setComparing(null)} /> : null}
      <Modal opened={adding} onClose={() => setAdding(false)} title={t("panel.addTitle")} centered>
        <PersonPicker
          busy={add.isPending}
          check={(person) => (participants.some((p) => p.user_id === person.id) ? t("new.already") : null)}
          onPick={(person) => pick(person.id)}
        />
      </Modal>
    </Stack>
  );
});

/** The membership fingerprint of the log this client verified (the ring's), not of the people the server lists. */
function LogFingerprint({ log }: { log: VerifiedLog }) {
  const fingerprint = useQuery(logFingerprintQuery(log));
  return fingerprint.data ? <MembershipFingerprint value={fingerprint.data} kind="conversation" /> : null;
}

/** A title of 200 characters may be one long word: it wraps inside the panel rather than overflowing it. */
const WRAP = { overflowWrap: "anywhere" } as const;

/** The title as text, for the guest (renaming is for members). */
function PlainTitle({ title }: { title: string | null }) {
  return title ? (
    <Title order={2} size="h4" style={WRAP} data-conversation-title>
      {title}
    </Title>
  ) : null;
}

/** Click the title to set or edit it (a rename). */
function TitleEditor({ conversationId, conversationKeys, title, onTitle, onError }: ConversationPanelProps) {
  const { t } = useTranslation(ns);
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useRenameConversation(conversationId, conversationKeys.key);
  const save = (event: FormEvent) => {
    event.preventDefault();
    const next = draft?.trim();
    if (!next) return setDraft(null);
    if (isTitleTooLong(next)) return;
    rename.mutate(next, {
      onSuccess: () => {
        onTitle(next);
        setDraft(null);
      },
      onError: (cause) => onError(actionErrorText(cause, "renameFailed")),
    });
  };
  if (draft !== null) {
    return (
      <form onSubmit={save} noValidate>
        <Stack gap="xs">
          <TitleField label={t("panel.title")} value={draft} onChange={(e) => setDraft(e.currentTarget.value)} data-autofocus autoFocus />
          <Group justify="flex-end">
            <Button type="submit" loading={rename.isPending} disabled={isTitleTooLong(draft)}>
              {t("panel.saveTitle")}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }
  return (
    // The name holds the title it shows (axe: label-content-name-mismatch).
    <UnstyledButton onClick={() => setDraft(title ?? "")} aria-label={title ? t("panel.editTitle", { title }) : t("panel.setTitle")}>
      <Title order={2} size="h4" c={title ? undefined : "dimmed"} style={WRAP} data-conversation-title>
        {title ?? t("panel.setTitle")}
      </Title>
    </UnstyledButton>
  );
}
