import { Modal, Stack, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../lib/error-text";
import { groupOptions, type GroupView } from "../get-group";
import { useUpdateGroup } from "../update-group";
import { CURRENCY_CODES_MAX, DEFAULT_CURRENCY, parseCurrencyCodes } from "./currency-codes";
import { FormFooter } from "./form-footer";
import { ns } from "../i18n";

/**
 * The group editor (spec 001 §2): the group's currency codes (ISO 4217, upper-cased, the first
 * is the default, USD when none) and the tag colours entry, not built yet.
 */
export function GroupEditor({ group, onClose }: { group: GroupView; onClose: () => void }) {
  const { t } = useTranslation([ns, "errors"]);
  const update = useUpdateGroup(group.id);
  const [codes, setCodes] = useState(groupOptions(group).currencyCodes || DEFAULT_CURRENCY);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseCurrencyCodes(codes);
    setFormError(null);
    if (!parsed.ok) {
      setFieldError("unknown" in parsed ? t("groupEditor.currencyUnknown", { codes: parsed.unknown.join(", ") }) : t("groupEditor.currencyTooMany", { max: CURRENCY_CODES_MAX }));
      return;
    }
    setFieldError(null);
    setCodes(parsed.codes.join(", "));
    update.mutate(
      { currencyCodes: parsed.codes },
      { onSuccess: onClose, onError: (cause) => setFormError(errorText(cause, t("errors:group_options_invalid"))) },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t("settings.configureGroup")} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t("groupEditor.currencies")}
            description={t("groupEditor.currenciesHint", { default: DEFAULT_CURRENCY })}
            value={codes}
            onChange={(e) => setCodes(e.currentTarget.value)}
            onBlur={() => setCodes((current) => current.toUpperCase())}
            error={fieldError}
            autoComplete="off"
            data-autofocus
          />
          <TextInput label={t("groupEditor.tagColors")} description={t("groupEditor.notYet")} disabled value="" readOnly />
          <FormFooter error={formError} onCancel={onClose} busy={update.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
