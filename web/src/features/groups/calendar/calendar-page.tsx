import type { DateSelectArg, DatesSetArg, EventChangeArg, EventClickArg } from "@fullcalendar/core";
import dayGridPlugin from "@fullcalendar/daygrid";
import interactionPlugin, { type DateClickArg } from "@fullcalendar/interaction";
import FullCalendar from "@fullcalendar/react";
import { Alert, Box, Group, Loader, Modal, Text } from "@mantine/core";
import type { MotePayload } from "@sealwork/crypto";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../../lib/api";
import { errorText } from "../../../lib/error-text";
import { useRequiredSession } from "../../../lib/session";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { isDistributionError, uploadFile } from "../../conversations";
import { GroupKeyRefusal } from "../keys/key-refusal";
import { CardEditor } from "../cards";
import type { PageTypeProps } from "../pages/type-slot";
import { type OpenedRecord, cardSpace } from "../records/records";
import { usePageKeeper, usePageRecords, usePageSealing, useRecordChanges, useRelationRecords } from "../records/use-records";
import { type SearchFilter, isActive, readFilters } from "../records/record-filters";
import { type CalendarSource, dateFieldOf, parentChoices, parentIds, readCalendarConfig, relatedTitle } from "./calendar-config";
import { type ViewRange, countInRange, eventsForView, limitPerDay, movedPayload, nextRange } from "./calendar-events";
import { CalendarHeader } from "./calendar-header";
import { CalendarNotice } from "./calendar-notice";
import { DATE_LOCALE, hideWeekNumber, nameCellByContent, useCalendarLocales } from "./calendar-locale";
import { CalendarOptions } from "./calendar-options";
import "./calendar.css";
import { dayWithMore } from "./day-more";
import { EventViewer } from "./event-viewer";
import { FilterBuilder } from "./filter-builder";
import { ns } from "./i18n";
import { DAY_MAX_EVENTS, MAIN_CALENDAR } from "./main-calendar";
import { SourceList } from "./source-chooser";
import { useCalendarEvents, useFilterContext } from "./use-calendar-events";

/** Spec 002 §5: a calendar's card needs a title. */
const REQUIRED = ["title"] as const;
// FullCalendar's options as constants, so a render hands it nothing new.
const MINI_PLUGINS = [dayGridPlugin, interactionPlugin];
const MINI_TOOLBAR = { left: "prev", center: "title", right: "next" };
const MINI_TITLE = { month: "short", year: "numeric" } as const;
const MINI_DAY_HEADER = { weekday: "narrow" } as const;

/**
 * The calendar page (spec 002 §2 Calendar): a mini month (20 %) beside the main calendar (80 %)
 * with month, week and day views, week numbers and 24-hour times; the page's cards with an event
 * start are its events (see calendar-events.ts). Selecting a range opens the card editor for a new
 * card at those times; dragging or resizing an event saves the card's full payload with the new
 * times through the multipatch, and a refusal puts the event back with the spec's text. A
 * read-only page offers neither. 'Found n events' counts the visible range; the legend toggles
 * sources; the parent filter narrows to a parent (by its decrypted title) or a tag ('Show all');
 * the filter builder and the page's autofilters narrow further. The autofilters apply to everyone
 * but are hidden: only super administrators see them and save filters as them (spec 002 §6). The
 * page's options configure it (calendar-config.ts; 'Calendar options' for those who may configure
 * the page). Everything shown was decrypted here, and counts and filters run on it here.
 */
export function CalendarPage(props: PageTypeProps) {
  const holder = useUnlockedKeys();
  const { t } = useTranslation("conversations");
  if (!holder) return <Text>{t("errors.keysMissing")}</Text>;
  return <Calendar key={props.page.id} {...props} holder={holder} />;
}

type Times = { start: Date; end: Date };
type Editing = { mode: "create"; initial?: MotePayload; source?: CalendarSource } | { mode: "edit"; record: OpenedRecord };

function Calendar({ groupId, page, creating, onCreatingDone, holder }: PageTypeProps & { holder: UnlockedKeys }) {
  const { t } = useTranslation(ns);
  const records = usePageRecords(groupId, page.id, holder);
  usePageKeeper(groupId, page, holder);
  const encryptedFor = usePageSealing(groupId, page.id);
  const changes = useRecordChanges(groupId, holder);
  const main = useRef<FullCalendar>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [range, setRange] = useState<ViewRange | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [parent, setParent] = useState("");
  const [filters, setFilters] = useState<SearchFilter[]>([]);
  const [filtering, setFiltering] = useState(false);
  const [configuring, setConfiguring] = useState(false);
  // A selection on the calendar while several sources could take it: which one asks first.
  const [choosing, setChoosing] = useState<Times | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const writable = !page.read_only;
  const { config, invalid } = useMemo(() => readCalendarConfig(page.options), [page.options]);
  const automatic = useMemo(() => readFilters(config.autofilters) ?? [], [config.autofilters]);
  const context = useFilterContext(groupId);
  const superAdmin = useRequiredSession().hasSuperAdminRole === true;

  // The calendar shows every card of the page: the further pages are loaded as they come.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = records;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const cards = useMemo(() => records.data?.pages.flatMap((p) => p.records) ?? [], [records.data]);
  const choices = useParentChoices(groupId, cards, config.filter, holder, t("untitled"));
  const { events, byId, sources } = useCalendarEvents({ cards, config, filters, automatic, parent, hidden, writable, untitled: t("untitled"), context });
  // A new record starts with its times in its source's date field; a source without one cannot take it (spec 002 §5).
  const creatable = sources.filter((s) => dateFieldOf(config, s));
  const canCreate = writable && records.data?.pages[0]?.answer.can_create === true && creatable.length > 0;
  const found = range ? countInRange(events, range.from, range.to) : 0;
  // The month view is given a few events a day and '+N more' for the others; the week and day
  // views the events of their range (FullCalendar builds every event it is given).
  const month = useMemo(() => limitPerDay(events, DAY_MAX_EVENTS), [events]);
  const drawn = useMemo(() => eventsForView(events, month.shown, range), [events, month, range]);
  const dayContent = useMemo(() => dayWithMore(month.more, (n) => t("more", { count: n }), (date) => main.current?.getApi().changeView("timeGridDay", date)), [month, t]);

  const locales = useCalendarLocales();
  const newRecord = (source: CalendarSource, times: Times): Editing => ({ mode: "create", source, initial: movedPayload({}, times.start, times.end, dateFieldOf(config, source)) });
  const shown = editing ?? (creating && creatable[0] ? newRecord(creatable[0], nextHour()) : null);
  const close = () => {
    setEditing(null);
    onCreatingDone();
  };
  const save = async (payload: MotePayload) => {
    if (shown?.mode === "edit") await changes.edit.mutateAsync({ record: shown.record, payload });
    else await changes.create.mutateAsync({ pageId: page.id, payload, typeId: shown?.source?.typeId ?? 0 });
    close();
  };
  const remove = async () => {
    if (shown?.mode !== "edit") return;
    await changes.remove.mutateAsync(shown.record.id);
    close();
  };

  // With one source a selection creates at once; with several, the chooser asks which.
  const create = (times: Times) => (creatable.length === 1 ? setEditing(newRecord(creatable[0]!, times)) : setChoosing(times));
  const select = (info: DateSelectArg) => {
    info.view.calendar.unselect();
    create({ start: info.start, end: info.end });
  };
  const move = async (info: EventChangeArg) => {
    const moved = byId.get(info.event.id);
    const start = info.event.start;
    if (!moved?.record.payload || !start) return info.revert();
    const { record, dates } = moved;
    setFailure(null);
    try {
      await changes.multipatch.mutateAsync({ changes: [{ record, payload: movedPayload(moved.record.payload, start, info.event.end, dates) }] });
    } catch (error) {
      info.revert();
      console.error("Moving the event failed", error);
      setFailure(isApiError(error, 403) ? t("notAllowed") : t("moveFailed"));
    }
  };
  const goTo = (info: DateClickArg) => main.current?.getApi().gotoDate(info.date);
  // FullCalendar reports its dates again on every new set of options: only a new range is kept.
  const datesSet = ({ view }: DatesSetArg) => setRange((r) => nextRange(r, view));

  if (records.isPending) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text>{t("loading")}</Text>
      </Group>
    );
  }
  // The group's key refused (one's own key moved: it opens again by itself once renewed).
  if (isDistributionError(records.error)) return <GroupKeyRefusal groupId={groupId} error={records.error} onArrived={() => void records.refetch()} />;
  if (records.isError) return <Text c="red">{errorText(records.error, t("loadFailed"))}</Text>;

  const viewed = viewing !== null ? byId.get(String(viewing))?.record : undefined;
  return (
    <Box data-page-type="calendar">
      <CalendarHeader
        config={config}
        sources={sources}
        creatable={creatable}
        hidden={hidden}
        onToggleSource={(type) => setHidden((h) => toggled(h, type))}
        found={found}
        canCreate={canCreate}
        onCreate={(source) => setEditing(newRecord(source, nextHour()))}
        activeFilters={filters.filter(isActive).length}
        filtering={filtering}
        onToggleFilters={() => setFiltering((f) => !f)}
        canConfigure={page.is_editable}
        configuring={configuring}
        onToggleOptions={() => setConfiguring((c) => !c)}
        parentChoices={choices}
        parent={parent}
        onParent={setParent}
      />
      <CalendarNotice readOnly={page.read_only} canCreate={canCreate} empty={cards.length === 0 && !hasNextPage} />
      {invalid.length ? (
        <Alert color="yellow" mb="sm" data-calendar-options-invalid>
          {t("options.invalid", { keys: invalid.join(", ") })}
        </Alert>
      ) : null}
      {configuring && page.is_editable ? <CalendarOptions key={page.options} groupId={groupId} page={page} config={config} filters={filters} autofilters={superAdmin} onClose={() => setConfiguring(false)} /> : null}
      {filtering ? <FilterBuilder fields={filterFields(sources)} filters={filters} automatic={superAdmin ? automatic.length : 0} onChange={setFilters} /> : null}
      {failure ? (
        <Alert color="red" role="alert" mb="sm" withCloseButton closeButtonLabel={t("dismiss")} onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      ) : null}
      {hasNextPage || isFetchingNextPage ? (
        // A page of many cards comes in pages of 100: what is open shows, and how far it has come.
        <Group gap="xs" mb="sm" role="status" data-calendar-loading>
          <Loader size="xs" />
          <Text size="sm">{t("loadingMore", { done: cards.length })}</Text>
        </Group>
      ) : null}
      <Group align="flex-start" gap="md" wrap="nowrap">
        <Box w="20%" miw={180} aria-label={t("miniMonth")} role="region" data-calendar-mini>
          <FullCalendar
            plugins={MINI_PLUGINS}
            buttonIcons={false}
            initialView="dayGridMonth"
            locales={locales}
            locale={DATE_LOCALE}
            headerToolbar={MINI_TOOLBAR}
            titleFormat={MINI_TITLE}
            dayHeaderFormat={MINI_DAY_HEADER}
            height="auto"
            fixedWeekCount={false}
            showNonCurrentDates={false}
            dateClick={goTo}
            dayCellDidMount={nameCellByContent}
          />
        </Box>
        <Box w="80%" role="region" aria-label={t("calendar")} data-calendar-main>
          <FullCalendar
            ref={main}
            {...MAIN_CALENDAR}
            locales={locales}
            weekNumberDidMount={hideWeekNumber}
            dayCellDidMount={nameCellByContent}
            dayCellContent={dayContent}
            events={drawn}
            selectable={canCreate}
            selectMirror
            editable={writable}
            eventResizableFromStart={writable}
            select={select}
            eventDrop={(info) => void move(info)}
            eventResize={(info) => void move(info)}
            eventClick={(info: EventClickArg) => setViewing(Number(info.event.id))}
            datesSet={datesSet}
          />
        </Box>
      </Group>
      {shown ? (
        <CardEditor
          mode={shown.mode}
          card={shown.mode === "edit" ? (shown.record.payload ?? undefined) : undefined}
          initial={shown.mode === "create" ? shown.initial : undefined}
          encryptedFor={encryptedFor}
          readOnly={page.read_only}
          required={REQUIRED}
          parts={{ event: true }}
          upload={(file, options) => uploadFile(cardSpace(page.id), file, options)}
          onSave={save}
          onDelete={shown.mode === "edit" ? remove : undefined}
          onClose={close}
        />
      ) : null}
      {choosing ? (
        <Modal opened onClose={() => setChoosing(null)} title={t("chooseSource")} centered closeButtonProps={{ "aria-label": t("viewer.close") }}>
          <SourceList
            sources={creatable}
            onChoose={(source) => {
              setChoosing(null);
              setEditing(newRecord(source, choosing));
            }}
          />
        </Modal>
      ) : null}
      {viewed ? (
        <EventViewer
          groupId={groupId}
          holder={holder}
          record={viewed}
          canEdit={writable && viewed.editable && viewed.payload !== null}
          onEdit={() => {
            setViewing(null);
            setEditing({ mode: "edit", record: viewed });
          }}
          onClose={() => setViewing(null)}
        />
      ) : null}
    </Box>
  );
}

/**
 * The parent filter's choices by the related cards' decrypted titles: those on this page are open
 * already; the others are fetched (GET /api/motes/relationMotes, those the caller may read) and
 * opened here. A card the caller cannot open shows as "#id".
 */
function useParentChoices(groupId: number, cards: readonly OpenedRecord[], parentType: string, holder: UnlockedKeys, untitled: string) {
  const ids = useMemo(() => parentIds(cards, parentType), [cards, parentType]);
  const here = useMemo(() => new Map(cards.map((card) => [card.id, card])), [cards]);
  const elsewhere = useMemo(() => ids.filter((id) => !here.has(id)), [ids, here]);
  const related = useRelationRecords(groupId, elsewhere, holder);
  return useMemo(() => {
    const fetched = new Map((related.data ?? []).map((card) => [card.id, card]));
    return parentChoices(cards, parentType, (id) => relatedTitle(here.get(id) ?? fetched.get(id), untitled));
  }, [cards, parentType, here, related.data, untitled]);
}

/** The fields the filter builder offers: the sources' filterable fields, each once. */
function filterFields(sources: readonly CalendarSource[]) {
  return [...new Map(sources.flatMap((s) => s.filterFields).map((f) => [f.field, f])).values()];
}

function toggled(set: ReadonlySet<string>, value: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(value)) next.add(value);
  return next;
}

/** The add button's new record: the next full hour, one hour long. */
function nextHour(): Times {
  const start = new Date();
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  return { start, end: new Date(start.getTime() + 3_600_000) };
}
