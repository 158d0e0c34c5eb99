import { Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useOutletContext, useParams } from "react-router";
import { useFeature } from "../../../lib/instance";
import { usePageTitle } from "../../../lib/page-title";
import { groupOptions, useGroup, type GroupView } from "../get-group";
import { useStartMissingKeys } from "../keys/start-missing";
import { InlineGroupMenu } from "../menu/group-menu";
import { pageIdParam } from "../menu/menu-entries";
import { LoadFailed, StateText, TalkingToServer } from "./load-state";
import { startPath } from "./start-path";
import { ns } from "../i18n";

/**
 * /group/{g}: loads the group once for everything below it (its pages, settings, conversations)
 * and says why when it cannot: not found (a bad id), not allowed (a 403), or the load failed.
 */
export function GroupFrame() {
  const { t } = useTranslation([ns, "errors"]);
  const { groupId: raw } = useParams();
  const id = pageIdParam(raw);
  const group = useGroup(id);
  // Without the left navigation (spec 000 §1), the group's menu sits above its pages.
  const withNavigation = useFeature("leftnav") !== false;
  // A group its creator's browser left without keys gets them when they come back.
  useStartMissingKeys(group.data);

  // The page below names the title (group and page) once the group is there.
  if (id === null || group.isPending || group.isError) {
    return (
      <>
        <FrameTitle />
        {id === null ? <StateText text={t("errors:not_found")} /> : group.isPending ? <TalkingToServer /> : <LoadFailed error={group.error} what="group" />}
      </>
    );
  }
  return (
    <Stack gap="sm">
      {withNavigation ? null : <InlineGroupMenu group={group.data} />}
      <Outlet context={group.data} />
    </Stack>
  );
}

function FrameTitle() {
  const { t } = useTranslation(ns);
  usePageTitle(t("titles.group"));
  return null;
}

/** The group the frame loaded, for the routes below it. */
export function useFrameGroup(): GroupView {
  return useOutletContext<GroupView>();
}

/** /group/{g} itself: on to the start page (spec 001 §2). */
export function GroupStart() {
  const { t } = useTranslation(ns);
  const group = useFrameGroup();
  const path = startPath(group.id, groupOptions(group).startpage, group.menu);
  if (!path) return <StateText text={t("noStartPage")} alert />;
  return <Navigate to={path} replace />;
}
