import { Button, Modal, NumberInput, Select, Stack, Switch, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import type { GroupView } from "../get-group";
import type { PageView } from "../get-page";
import { PAGE_ICONS } from "../menu/page-icons";
import { useUpdatePage, type PageChanges } from "../update-page";
import { FormFooter } from "./form-footer";
import { ns } from "../i18n";

/** Spec 001 §5, §9: the menu order is 0 to 255; higher sinks to the bottom. */
export const MENU_ORDER_MAX = 255;

/**
 * The menu item editor (spec 001 §2): internal page, starting page, page name (fixed for the
 * reserved pages), access permissions, menu name, page icon and menu order. Enter saves, Escape
 * closes.
 */
export function MenuItemEditor({ group, page, onClose, onPermissions }: { group: GroupView; page: PageView; onClose: () => void; onPermissions: () => void }) {
  const { t } = useTranslation([ns, "errors"]);
  const update = useUpdatePage(group.id, page.id);
  const [internal, setInternal] = useState(page.internal);
  const [startpage, setStartpage] = useState(page.startpage);
  const [name, setName] = useState(page.name);
  const [menuName, setMenuName] = useState(page.menu_name ?? "");
  const [icon, setIcon] = useState<string | null>(page.icon);
  const [order, setOrder] = useState<number | string>(page.menu_order);
  const [errors, setErrors] = useState<{ name?: string; order?: string; form?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!page.reserved && !name.trim()) found.name = t("errors:page_name_missing");
    if (typeof order !== "number" || !Number.isInteger(order) || order < 0 || order > MENU_ORDER_MAX) found.order = t("menuItem.orderInvalid", { max: MENU_ORDER_MAX });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const changes: PageChanges = {
      internal,
      startpage,
      menu_name: menuName.trim(),
      icon: icon ?? "",
      menu_order: order as number,
      ...(page.reserved ? {} : { name: name.trim() }),
    };
    update.mutate(changes, {
      onSuccess: onClose,
      onError: (cause) => setErrors({ form: errorText(cause, t("errors:page_menu_invalid")) }),
    });
  };

  return (
    <Modal opened onClose={onClose} title={t("settings.configureMenuItem")} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Switch label={t("menuItem.internal")} description={t("menuItem.internalHint")} checked={internal} onChange={(e) => setInternal(e.currentTarget.checked)} />
          <Switch label={t("menuItem.startpage")} checked={startpage} onChange={(e) => setStartpage(e.currentTarget.checked)} />
          <TextInput
            label={t("menuItem.name")}
            description={page.reserved ? t("menuItem.nameReserved") : undefined}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            disabled={page.reserved !== null}
            error={errors.name}
            data-autofocus
          />
          <div>
            <Button variant="light" onClick={onPermissions}>
              {t("menuItem.permissions")}
            </Button>
          </div>
          <TextInput label={t("menuItem.menuName")} description={t("menuItem.menuNameHint")} value={menuName} onChange={(e) => setMenuName(e.currentTarget.value)} />
          <Select
            label={t("menuItem.icon")}
            placeholder={t("menuItem.iconDefault")}
            data={PAGE_ICONS.map((value) => ({ value, label: t(`icons.${value as IconName}`) }))}
            value={icon && PAGE_ICONS.includes(icon) ? icon : null}
            onChange={setIcon}
            clearable
          />
          <NumberInput
            label={t("menuItem.order")}
            description={t("menuItem.orderHint", { max: MENU_ORDER_MAX })}
            value={order}
            onChange={setOrder}
            min={0}
            max={MENU_ORDER_MAX}
            allowDecimal={false}
            allowNegative={false}
            // Out of range is said, not silently changed.
            clampBehavior="none"
            error={errors.order}
          />
          <FormFooter error={errors.form} onCancel={onClose} busy={update.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

type IconName = "pin" | "blog" | "gallery" | "calendar" | "cards" | "form" | "folder" | "people" | "chat" | "star" | "book" | "flag";
