import { Alert, Button, Code, FileInput, Group, Loader, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { secureCodeSetting } from "../../lib/build-settings";
import { logoutAndReload } from "../../lib/logout";
import { useKeyMoved } from "../../lib/unlocked-keys";
import { CodeForm, NoticeAlert } from "./code-form";
import { LOCAL_KEY_CODES } from "./key-errors";
import { useKeyFlow, type KeyFlow, type KeyFlowNotice } from "./key-flow";
import { ns } from "./i18n";

/**
 * The secure-key popup (spec 000 §2, §4, §8): a modal over the app that only a loaded key or a
 * logout ends. Its state is in `data-key-state` for tests and styling.
 */
export function KeyPopup({ uid }: { uid: number }) {
  const { t } = useTranslation([ns, "common"]);
  const flow = useKeyFlow(uid);
  useDefaultCode(flow);
  const { state, busy } = flow;
  const moved = useKeyMoved();

  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      size="lg"
      title={t("title")}
    >
      <Stack data-key-state={state.kind} gap="md">
        {moved ? (
          <Alert color="yellow" data-key-moved>
            {t(state.kind === "temp" && state.reset ? "moved.reset" : "moved.renewed")}
          </Alert>
        ) : null}
        <StateView flow={flow} />
        {busy ? (
          <Group gap="sm" role="status">
            <Loader size="sm" />
            <Text size="sm">{t(`busy.${busy}`)}</Text>
          </Group>
        ) : null}
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {t("memoryOnly")}
          </Text>
          <Button variant="subtle" color="gray" onClick={() => void logoutAndReload("logout")} disabled={busy !== null}>
            {t("logout")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function StateView({ flow }: { flow: KeyFlow }) {
  const { t } = useTranslation([ns, "common"]);
  const { state, busy, notice } = flow;
  const working = busy !== null;

  switch (state.kind) {
    case "checking":
    case "loaded":
      return (
        <Group gap="sm">
          <Loader size="sm" />
          <Text>{t("checking")}</Text>
        </Group>
      );
    case "fresh":
      return (
        <StateSection heading={t(state.lastKey === null ? "fresh.heading" : "fresh.renewHeading")} intro={t("fresh.intro")}>
          {secureCodeSetting().disabled ? <Text size="sm">{t("fresh.auto")}</Text> : null}
          <CodeForm choose submitLabel={t("fresh.submit")} onSubmit={(code) => void flow.create(code)} busy={working} notice={notice}>
            <Text size="sm" c="dimmed">
              {t("fresh.hint")}
            </Text>
          </CodeForm>
        </StateSection>
      );
    case "unlock":
      return (
        <StateSection heading={t("unlock.heading")} intro={t("unlock.intro")}>
          <CodeForm submitLabel={t("unlock.submit")} onSubmit={(code) => void flow.unlock(code)} busy={working} notice={notice} />
        </StateSection>
      );
    case "missing":
      return (
        <StateSection heading={t("missing.heading")} intro={t(state.older ? "missing.older" : "missing.absent")}>
          {notice ? <Alert color="red">{notice.message}</Alert> : null}
          <Group>
            <Button onClick={flow.chooseRecovery} disabled={working}>
              {t("missing.recover")}
            </Button>
            <Button variant="default" onClick={flow.chooseImport} disabled={working}>
              {t("missing.import")}
            </Button>
          </Group>
        </StateSection>
      );
    case "recovery":
      return (
        <StateSection heading={t("recovery.heading")} intro={t("recovery.intro")}>
          <CodeForm submitLabel={t("recovery.submit")} onSubmit={(code) => void flow.recover(code)} busy={working} notice={notice} />
          <Group>
            <Button variant="subtle" onClick={flow.backToMissing} disabled={working}>
              {t("common:back")}
            </Button>
          </Group>
        </StateSection>
      );
    case "import":
      return (
        <StateSection heading={t("import.heading")} intro={t("import.intro")}>
          <CodeForm
            submitLabel={t("import.submit")}
            onSubmit={(code) => void flow.importKey(code)}
            busy={working}
            notice={notice}
            ready={state.envelope !== null}
          >
            <FileInput
              label={t("import.file")}
              accept="application/json,.json"
              clearable
              onChange={(file) => void flow.pickFile(file)}
              disabled={working}
            />
          </CodeForm>
          <Group>
            <Button variant="subtle" onClick={flow.backToMissing} disabled={working}>
              {t("common:back")}
            </Button>
          </Group>
        </StateSection>
      );
    case "temp":
      // An invitation's temporary key, or one an administrator's key reset made (its own texts).
      return state.keys ? (
        <StateSection heading={t("temp.chooseHeading")} intro={t(state.reset ? "reset.chooseIntro" : "temp.chooseIntro")}>
          <CodeForm choose submitLabel={t("temp.chooseSubmit")} onSubmit={(code) => void flow.takeOver(code)} busy={working} notice={notice}>
            <Text size="sm" c="dimmed">
              {t("fresh.hint")}
            </Text>
          </CodeForm>
        </StateSection>
      ) : (
        <StateSection heading={t(state.reset ? "reset.heading" : "temp.heading")} intro={t(state.reset ? "reset.intro" : "temp.intro")}>
          <InvitationCodeForm label={t(state.reset ? "reset.code" : "temp.code")} onSubmit={(code) => void flow.openInvitation(code)} busy={working} notice={notice} />
        </StateSection>
      );
    case "invalidated":
      return (
        <StateSection heading={t("invalidated.heading")} intro={t("invalidated.text")}>
          <Group>
            <Button onClick={flow.renew}>{t("invalidated.renew")}</Button>
          </Group>
        </StateSection>
      );
    case "error":
      return (
        <StateSection heading={t("error.heading")}>
          <Alert color="red" role="alert">
            <Text size="sm">{t(`codes.${state.code}`)}</Text>
            <Text size="sm" mt="xs">
              {t("error.code")} <Code>{state.code}</Code>
            </Text>
          </Alert>
          {notice ? <Alert color="red">{notice.message}</Alert> : null}
          <Group>
            <Button onClick={() => void flow.retry()}>{t("error.retry")}</Button>
            {LOCAL_KEY_CODES.includes(state.code) ? (
              <>
                <Button variant="default" onClick={() => void flow.saveLocal()}>
                  {t("error.save")}
                </Button>
                <Button variant="default" color="red" onClick={() => void flow.clearLocal()}>
                  {t("error.clear")}
                </Button>
              </>
            ) : null}
          </Group>
        </StateSection>
      );
  }
}

/** temp: the invitation (or reset) code, shown as typed but upper-cased (spaces go and look-alikes are read on submit: normalizeInvitationCode). */
function InvitationCodeForm({ label, onSubmit, busy, notice }: { label: string; onSubmit: (code: string) => void; busy: boolean; notice: KeyFlowNotice | null }) {
  const { t } = useTranslation([ns, "common"]);
  const [code, setCode] = useState("");
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy && code.trim()) onSubmit(code);
      }}
    >
      <Stack>
        <TextInput
          label={label}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value.toUpperCase())}
          autoComplete="off"
          spellCheck={false}
          disabled={busy}
          styles={{ input: { fontFamily: "monospace", letterSpacing: "0.1em" } }}
          data-autofocus
        />
        <NoticeAlert notice={notice} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {t("temp.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Each state's heading, its explanation, and what the user can do there. */
function StateSection({ heading, intro, children }: { heading: string; intro?: string; children: ReactNode }) {
  return (
    <Stack>
      <Title order={2} size="h4">
        {heading}
      </Title>
      {intro ? <Text size="sm">{intro}</Text> : null}
      {children}
    </Stack>
  );
}

/**
 * On an instance whose build switched secure codes off (web/build-settings.ts; never an API
 * answer) every account uses the build's default code: the popup submits it by itself, once per
 * state, and shows the form if it fails.
 */
function useDefaultCode(flow: KeyFlow) {
  const { state, busy } = flow;
  const tried = useRef(new Set<string>());
  const code = secureCodeSetting().defaultCode;
  useEffect(() => {
    // A retry starts over, default code included.
    if (state.kind === "checking") tried.current.clear();
    const step = state.kind === "temp" && state.keys ? "temp-own" : state.kind;
    if (!code || busy || tried.current.has(step)) return;
    if (state.kind === "fresh") void flow.create(code);
    else if (state.kind === "temp" && !state.keys) void flow.openInvitation(code);
    else if (state.kind === "temp") void flow.takeOver(code);
    else if (state.kind === "unlock") void flow.unlock(code);
    else if (state.kind === "missing") void flow.recover(code);
    else return;
    tried.current.add(step);
  }, [code, busy, state, flow]);
}
