import type { Attribution, ParticipantView } from "@sealwork/contracts";
import type { Key } from "@sealwork/crypto";
import { ActionIcon, Box, Button, Divider, Group, Modal, Stack, Text, Title, Tooltip, UnstyledButton } from "@mantine/core";
import { memo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { isGuest } from "../../lib/guest";
import { isInstanceAdmin, useSession } from "../../lib/session";
import { useArchiveConversation } from "./archive-conversation";
import { AttachmentList } from "./attachments/attachment-list";
import { RemoveIcon, StarIcon } from "./conversation-icons";
import { actionErrorText } from "./conversation-errors";
import { useAddParticipant, useSetParticipantAdmin } from "./participate";
import { PersonPicker } from "./person-picker";
import { TitleField, isTitleTooLong } from "./title-field";
import { PickupDetails } from "./pickups/pickup-details";
import { useRenameConversation } from "./rename-conversation";
import { useRemoveParticipant } from "./unparticipate";
import { ns } from "./i18n";

export interface ConversationPanelProps {
  conversationId: number;
  conversationKey: Key;
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
 * The right panel (spec 000 §2): title, people with the admin star and removal, adding people,
 * archive, attachments. Memoised: a page of older messages leaves it as it is.
 */
export const ConversationPanel = memo(function ConversationPanel(props: ConversationPanelProps) {
  const { t } = useTranslation(ns);
  const { conversationId, conversationKey, recipientId, authorId, participants, attrib, onParticipants, onError } = props;
  const session = useSession();
  // A pickup's guest reads, answers and downloads; the conversation's settings are not theirs.
  const guest = isGuest(session);
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const add = useAddParticipant(conversationId, conversationKey);
  const admin = useSetParticipantAdmin(conversationId);
  const remove = useRemoveParticipant(conversationId);
  const archive = useArchiveConversation(conversationId);
  const nameOf = (uid: number) => attrib[String(uid)]?.name ?? `#${uid}`;
  // Who may change the people (access/can.ts, "manage"): the author, a conversation admin, an
  // instance admin taking part; never a guest. A pickup's people are its creator and its guest,
  // neither of whom anyone may remove or make an admin.
  const me = session?.id;
  const myEntry = participants.find((p) => p.user_id === me);
  const canManage = !guest && recipientId !== 0 && (authorId === me || myEntry?.admin === true || isInstanceAdmin(session));
  // Nobody changes themself, and the author is neither removed nor demoted.
  const manageablePerson = (uid: number) => uid !== me && uid !== authorId;

  const pick = async (uid: number) => {
    try {
      onParticipants(await add.mutateAsync(uid));
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
              <Text size="sm" truncate flex={1} title={name}>
                {name}
              </Text>
              {manageable ? (
                <>
                  <Tooltip label={label}>
                    <ActionIcon
                      variant="subtle"
                      color={p.admin ? "yellow" : "gray"}
                      aria-label={label}
                      aria-pressed={p.admin}
                      onClick={() => admin.mutate({ uid: p.user_id, admin: !p.admin }, { onSuccess: onParticipants, onError: (cause) => onError(actionErrorText(cause, "adminFailed")) })}
                    >
                      <StarIcon size={16} filled={p.admin} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t("panel.remove", { name })}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t("panel.remove", { name })}
                      onClick={() => remove.mutate(p.user_id, { onSuccess: onParticipants, onError: (cause) => onError(actionErrorText(cause, "removeFailed")) })}
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
          <Button
            variant="default"
            loading={archive.isPending}
            onClick={() => archive.mutate(undefined, { onSuccess: () => void navigate("/conversation/list"), onError: (cause) => onError(actionErrorText(cause, "archiveFailed")) })}
          >
            {t("panel.archive")}
          </Button>
        </>
      )}
      <Divider />
      <AttachmentList conversationId={conversationId} conversationKey={conversationKey} />
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
function TitleEditor({ conversationId, conversationKey, title, onTitle, onError }: ConversationPanelProps) {
  const { t } = useTranslation(ns);
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useRenameConversation(conversationId, conversationKey);
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
