import { ActionIcon, Group, Modal, Text, Title, Tooltip } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { usePageTitle } from "../../../lib/page-title";
import { useFrameGroup } from "../frame/group-frame";
import { LoadFailed, StateText, TalkingToServer } from "../frame/load-state";
import { type PageView, usePage } from "../get-page";
import { findEntry, pageIdParam } from "../menu/menu-entries";
import { LockIcon, PlusIcon } from "../menu/page-icons";
import { PageSettings } from "../settings/page-settings";
import { PermissionEditor } from "../settings/permission-editor";
import { ShieldIcon } from "../../../lib/ui/icons";
import { ReservedSlot } from "./reserved-slot";
import { TypeSlot, hasContent } from "./type-slot";
import { PagePlaceholder } from "./page-placeholder";
import { ns } from "../i18n";

/**
 * /group/{g}/page/{p} (and /view/{v}): one page of the group. {p} is a page id or the reserved
 * word drive or members (spec 001 §2). The menu says which page it is; the page's own answer
 * says the caller's level, and a page missing from the menu is asked for anyway, so a 403 and a
 * 404 each get their own text.
 */
export function PageScreen() {
  const { t } = useTranslation([ns, "errors"]);
  const group = useFrameGroup();
  const { pageId: param } = useParams();
  const entry = findEntry(group.menu, param);
  const pageId = entry ? entry.id : entry === null ? pageIdParam(param) : null;
  const page = usePage(group.id, pageId);

  if (entry === undefined) return <StateText text={t("errors:not_found")} />;
  // drive or members that the menu does not show: the caller's level there is 0.
  if (pageId === null) return <StateText text={t("errors:page_forbidden")} alert />;
  if (page.isPending) return <TalkingToServer />;
  if (page.isError) return <LoadFailed error={page.error} what="page" />;
  // A page of another group under this group's address does not exist here.
  if (page.data.group_id !== group.id) return <StateText text={t("errors:not_found")} />;
  return <PageContent key={page.data.id} page={page.data} />;
}

function PageContent({ page }: { page: PageView }) {
  const { t } = useTranslation(ns);
  const group = useFrameGroup();
  const [adding, add] = useDisclosure(false);
  const [viewing, permissions] = useDisclosure(false);
  usePageTitle(`${group.name} - ${page.name}`);

  return (
    <>
      <Group justify="space-between" wrap="nowrap" component="header" aria-label={t("page.navbar")}>
        <Group gap="xs" wrap="nowrap" miw={0}>
          <Title order={1} size="h2" style={{ overflowWrap: "anywhere" }}>
            {page.name}
          </Title>
          {/* Spec 001 §2: the lock marks a read-only page (level 1 or below). */}
          {page.read_only ? (
            <Tooltip label={t("page.readOnly")}>
              <span role="img" aria-label={t("page.readOnly")} data-read-only>
                <LockIcon size={18} />
              </span>
            </Tooltip>
          ) : null}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {page.can_create ? (
            <ActionIcon variant="light" size="lg" onClick={add.open} aria-label={t("page.add")}>
              <PlusIcon />
            </ActionIcon>
          ) : null}
          {group.am_admin ? (
            <PageSettings group={group} page={page} />
          ) : (
            // Members see who may read and use the page (the editor locked: is_editable is false).
            <ActionIcon variant="subtle" size="lg" onClick={permissions.open} aria-label={t("page.permissions")}>
              <ShieldIcon />
            </ActionIcon>
          )}
        </Group>
      </Group>
      {page.reserved ? (
        <ReservedSlot groupId={group.id} reserved={page.reserved} readOnly={page.read_only} />
      ) : hasContent(page.type) ? (
        <TypeSlot groupId={group.id} page={page} creating={adding} onCreatingDone={add.close} />
      ) : (
        <>
          <PagePlaceholder page={page} />
          <Modal opened={adding} onClose={add.close} title={t("page.add")} centered>
            <Text>{t("page.addSoon")}</Text>
          </Modal>
        </>
      )}
      {viewing ? <PermissionEditor groupId={group.id} page={page} onClose={permissions.close} /> : null}
    </>
  );
}
