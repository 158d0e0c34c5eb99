import { Alert, Center, Loader, Paper, SegmentedControl, Stack, Title } from "@mantine/core";
import { type PickupFragment, isDamagedPickupLink, parsePickupFragment } from "@sealwork/crypto";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useNavigate } from "react-router";
import { type GuestPickup, guestPath, isGuest } from "../../lib/guest";
import { useFeature, useInstance } from "../../lib/instance";
import { clearLoginNotice, loginTarget, peekLoginNotice, readLoginState } from "../../lib/login-state";
import { usePageTitle } from "../../lib/page-title";
import { useSession } from "../../lib/session";
import { ErrorDialog } from "../../lib/ui/error-dialog";
import { ContactForm } from "./contact-form";
import type { Account } from "./lookup-contact";
import { PasswordForm } from "./password-form";
import { PickupForm } from "./pickup-form";
import { RegisterForm } from "./register-form";
import { ResetForm } from "./reset-form";
import { ns } from "./i18n";

type Mode = "phone" | "email" | "pickup";
type Step = { kind: "contact" } | { kind: "password" | "register" | "reset"; account: Account; contact: string };
/** What the address's fragment held: a pickup link, a damaged one, or nothing for pickups. */
type Link = { kind: "pickup"; fragment: PickupFragment } | { kind: "damaged" } | null;

/**
 * The pickup link that led here: this page's own fragment (…/login#<fragment>), or one kept
 * across a redirect to login. Only this page's fragment can be a damaged link: a fragment of
 * another page that led here (for example a section of a page) is simply not a pickup link.
 */
function linkOf(hash: string, fromHash: string | undefined): Link {
  if (hash && hash !== "#") {
    const fragment = parsePickupFragment(hash);
    if (fragment) return { kind: "pickup", fragment };
    return isDamagedPickupLink(hash) ? { kind: "damaged" } : null;
  }
  const fragment = fromHash ? parsePickupFragment(fromHash) : null;
  return fragment ? { kind: "pickup", fragment } : null;
}

export interface LoginPageProps {
  /** The key popup in its pickup state, for a pickup that was found (the router passes it in). */
  pickupPopup?: (pickup: GuestPickup, close: () => void) => ReactNode;
}

/** Spec 000 §2 and §4: contact, then register (no password yet) or password (plus 2FA); or a pickup. */
export function LoginPage({ pickupPopup }: LoginPageProps) {
  const { t } = useTranslation([ns, "common"]);
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const { title, data: instance } = useInstance();
  const state = readLoginState(location.state);
  // A pickup link (…/login#<fragment>) that led here opens the pickup mode with its code; a
  // damaged one opens it too and says so, before anything is looked up.
  const [link] = useState(() => linkOf(location.hash, state.from?.hash));
  const linkedCode = link?.kind === "pickup" ? link.fragment : null;
  // Pickups are conversations: an instance without them has no pickup mode (spec 000 §1).
  const pickups = useFeature("convo");
  const [pickup, setPickup] = useState<GuestPickup | null>(null);
  const [mode, setMode] = useState<Mode>(link ? "pickup" : "email");
  const [step, setStep] = useState<Step>({ kind: "contact" });
  const [error, setError] = useState<string | null>(null);
  const [notice] = useState(() => peekLoginNotice() ?? state.notice);
  useEffect(clearLoginNotice, []);
  // The link's code is used once; a reload of the login screen starts afresh.
  useEffect(() => {
    if (!link) return;
    const from = state.from && { ...state.from, hash: "" };
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: { ...state, from } });
  }, []);
  usePageTitle(t("titles.login"));

  // A guest goes to the pickup's conversation, the only page there is for them.
  if (session) return <Navigate to={isGuest(session) ? (guestPath() ?? "/") : loginTarget(state)} replace />;

  function changeMode(value: string) {
    setMode(value as Mode);
    setStep({ kind: "contact" });
  }

  function found(account: Account, contact: string) {
    setStep({ kind: account.password_empty ? "register" : "password", account, contact });
  }

  const back = () => setStep({ kind: "contact" });

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2">
            {t("heading", { title })}
          </Title>
          {notice === "passwordChanged" ? <Alert color="green">{t("passwordChanged")}</Alert> : null}
          {instance?.needsSetup ? <Alert color="yellow">{t("notSetUp")}</Alert> : null}
          <SegmentedControl
            aria-label={t("method")}
            fullWidth
            // Mantine shrinks the radios to nothing, which no pointer (nor a browser test) can reach.
            // A thin invisible strip along each segment's bottom edge keeps the radio clickable
            // without covering the label text, which stays clickable too.
            styles={{ input: { inset: "auto 0 0 0", width: "100%", height: 3, margin: 0, zIndex: 3, cursor: "pointer" } }}
            value={mode}
            onChange={changeMode}
            data={[
              { value: "phone", label: t("modePhone") },
              { value: "email", label: t("modeEmail") },
              // Offered once the instance says pickups are on (or a pickup link chose the mode).
              ...(pickups || mode === "pickup" ? [{ value: "pickup", label: t("modePickup") }] : []),
            ]}
          />
          {mode === "pickup" && link?.kind === "damaged" ? (
            <Alert color="red" title={t("pickup.damagedTitle")} role="alert">
              {t("pickup.damaged")}
            </Alert>
          ) : null}
          {mode === "pickup" ? (
            pickups === undefined ? (
              <Loader size="sm" aria-label={t("common:loading")} />
            ) : pickups ? (
              <PickupForm initial={linkedCode ?? undefined} onFound={setPickup} onError={setError} />
            ) : (
              <Alert color="gray" role="alert">
                {t("pickup.unavailable")}
              </Alert>
            )
          ) : step.kind === "contact" ? (
            <ContactForm key={mode} mode={mode} onFound={found} onError={setError} />
          ) : step.kind === "register" ? (
            <RegisterForm account={step.account} contact={step.contact} onBack={back} onError={setError} />
          ) : step.kind === "reset" ? (
            <ResetForm account={step.account} contact={step.contact} onBack={() => setStep({ ...step, kind: "password" })} onError={setError} />
          ) : (
            <PasswordForm account={step.account} onBack={back} onForgot={() => setStep({ ...step, kind: "reset" })} onError={setError} />
          )}
        </Stack>
      </Paper>
      {pickup && pickupPopup ? pickupPopup(pickup, () => setPickup(null)) : null}
      <ErrorDialog message={error} onClose={() => setError(null)} />
    </Center>
  );
}
