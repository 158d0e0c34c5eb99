import { ActionIcon, Button, Group, Menu, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText } from "../../../lib/error-text";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { useDeletePage } from "../delete-page";
import type { GroupView } from "../get-group";
import type { PageView } from "../get-page";
import { GearIcon } from "../menu/page-icons";
import { GroupEditor } from "./group-editor";
import { MenuItemEditor } from "./menu-item-editor";
import { PermissionEditor } from "./permission-editor";
import { ns } from "../i18n";

type Open = "group" | "menuItem" | "page" | "permissions" | "delete" | null;

/**
 * The group administrator's settings popover on a page (spec 001 §2): Configure group, Configure
 * menu item, Configure page, Graphing demo (not built) and Delete page.
 */
export function PageSettings({ group, page }: { group: GroupView; page: PageView }) {
  const { t } = useTranslation([ns, "errors"]);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => setOpen(null);

  const configurePage = () => {
    // Spec 001 §8: reserved pages keep no options of their own.
    if (page.reserved) setError(t("errors:page_no_options"));
    else setOpen("page");
  };
  const deletePage = () => {
    // Spec 001 §4: drive, members and the conversation page are never deleted.
    if (page.reserved) setError(t("errors:page_internal"));
    else setOpen("delete");
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={t("settings.label")}>
            <GearIcon />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setOpen("group")}>{t("settings.configureGroup")}</Menu.Item>
          <Menu.Item onClick={() => setOpen("menuItem")}>{t("settings.configureMenuItem")}</Menu.Item>
          <Menu.Item onClick={configurePage}>{t("settings.configurePage")}</Menu.Item>
          <Menu.Item disabled>{t("settings.graphingDemo")}</Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" onClick={deletePage}>
            {t("settings.deletePage")}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {open === "group" ? <GroupEditor group={group} onClose={close} /> : null}
      {open === "menuItem" ? <MenuItemEditor group={group} page={page} onClose={close} onPermissions={() => setOpen("permissions")} /> : null}
      {open === "permissions" ? <PermissionEditor groupId={group.id} page={page} onClose={() => setOpen("menuItem")} /> : null}
      <Modal opened={open === "page"} onClose={close} title={t("settings.configurePage")} centered>
        <Text>{t("settings.pageOptionsSoon")}</Text>
      </Modal>
      {open === "delete" ? <DeletePage group={group} page={page} onClose={close} /> : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </>
  );
}

function DeletePage({ group, page, onClose }: { group: GroupView; page: PageView; onClose: () => void }) {
  const { t } = useTranslation(ns);
  const navigate = useNavigate();
  const remove = useDeletePage(group.id);
  const [error, setError] = useState<string | null>(null);

  const confirm = () =>
    remove.mutate(page.id, {
      onSuccess: () => {
        onClose();
        void navigate(`/group/${group.id}`, { replace: true });
      },
      onError: (cause) => setError(errorText(cause, t("settings.deleteFailed"))),
    });

  return (
    <>
      <Modal opened onClose={onClose} title={t("settings.deletePage")} centered>
        <Stack>
          <Text>{t("settings.deleteConfirm", { name: page.name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("settings.cancel")}
            </Button>
            <Button color="red" onClick={confirm} loading={remove.isPending} data-autofocus>
              {t("settings.delete")}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </>
  );
}
