import { Button, Group, Radio, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { PAGE_TYPES, type PageType } from "@sealwork/contracts";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText } from "../../../lib/error-text";
import { usePageTitle } from "../../../lib/page-title";
import { ErrorDialog } from "../../../lib/ui/error-dialog";
import { useCreatePage } from "../create-page";
import { useFrameGroup } from "../frame/group-frame";
import { StateText } from "../frame/load-state";
import { pagePath } from "../menu/menu-entries";
import { ns } from "../i18n";

/** /group/{g}/newpage (spec 001 §2): a name and a type (Pinboard, Blog, Gallery, Calendar, Card Deck, Form); group administrators only. */
export function NewPageScreen() {
  const { t } = useTranslation([ns, "errors"]);
  const group = useFrameGroup();
  const navigate = useNavigate();
  const create = useCreatePage(group.id);
  const [name, setName] = useState("");
  const [type, setType] = useState<PageType>("pinboard");
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  usePageTitle(t("newPage.title"));

  if (!group.am_admin) return <StateText text={t("errors:page_forbidden")} alert />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Spec 000 §5 (newPage.missingName).
    if (!name.trim()) {
      setNameError(t("errors:page_name_missing"));
      return;
    }
    setNameError(null);
    create.mutate(
      { name: name.trim(), type },
      {
        onSuccess: (page) => void navigate(pagePath(group.id, page)),
        onError: (cause) => setError(errorText(cause, t("newPage.failed"))),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={560}>
        <Title order={1} size="h2">
          {t("newPage.title")}
        </Title>
        <TextInput label={t("newPage.name")} value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} required autoFocus />
        <Radio.Group label={t("newPage.type")} value={type} onChange={(value) => setType(value as PageType)}>
          <SimpleGrid cols={{ base: 2, sm: 3 }} mt="xs">
            {PAGE_TYPES.map((value) => (
              <Radio key={value} value={value} label={t(`types.${value}`)} />
            ))}
          </SimpleGrid>
        </Radio.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {t("newPage.create")}
          </Button>
        </Group>
      </Stack>
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </form>
  );
}
