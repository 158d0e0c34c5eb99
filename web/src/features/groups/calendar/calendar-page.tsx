import type { DateSelectArg, DatesSetArg, EventChangeArg, EventClickArg, EventInput, LocaleInput } from "@fullcalendar/core";
import dayGridPlugin from "@fullcalendar/daygrid";
import interactionPlugin, { type DateClickArg } from "@fullcalendar/interaction";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import { Alert, Badge, Box, Button, Group, Loader, Select, Text } from "@mantine/core";
import type { MotePayload } from "@sealwork/crypto";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isApiError } from "../../../lib/api";
import { errorText } from "../../../lib/error-text";
import { type UnlockedKeys, useUnlockedKeys } from "../../../lib/unlocked-keys";
import { uploadFile } from "../../conversations";
import { CardEditor } from "../cards";
import type { PageTypeProps } from "../pages/type-slot";
import { type OpenedRecord, cardSpace } from "../records/records";
import { usePageKeeper, usePageRecords, useRecordChanges } from "../records/use-records";
import { CARD_SOURCE, countInRange, eventOfRecord, movedPayload, selectionPayload, tagsOf } from "./calendar-events";
import "./calendar.css";
import { EventViewer } from "./event-viewer";
import { ns } from "./i18n";

/** Spec 002 §5: a calendar's card needs a title. */
const REQUIRED = ["title"] as const;
/** The colour of each source in the legend and on the calendar (the config's sourceColors). */
const SOURCE_COLORS: Record<string, string> = { [CARD_SOURCE]: "#1864ab" };
/** Spec 002 §9: dates in the Swiss-German locale; times on the 24-hour clock. */
const DATE_LOCALE = "de-CH";
const HOURS_24 = { hour: "2-digit", minute: "2-digit", hour12: false } as const;
// FullCalendar's options as constants, so a render hands it nothing new.
const MINI_PLUGINS = [dayGridPlugin, interactionPlugin];
const MAIN_PLUGINS = [dayGridPlugin, timeGridPlugin, interactionPlugin];
const MINI_TOOLBAR = { left: "prev", center: "title", right: "next" };
const MAIN_TOOLBAR = { left: "prev,next today", center: "title", right: "dayGridMonth,timeGridWeek,timeGridDay" };
const MINI_TITLE = { month: "short", year: "numeric" } as const;
const MINI_DAY_HEADER = { weekday: "narrow" } as const;

/**
 * The calendar page (spec 002 §2 Calendar): a mini month (20 %) beside the main calendar (80 %)
 * with month, week and day views, week numbers and 24-hour times; the page's cards with an event
 * start are its events (see calendar-events.ts). Selecting a range opens the card editor for a new
 * card at those times; dragging or resizing an event saves the card's full payload with the new
 * times through the multipatch, and a refusal puts the event back with the spec's text. A
 * read-only page offers neither. 'Found n events' counts the visible range; the legend toggles
 * sources; the filter narrows to a tag ('Show all'). Everything shown was decrypted here, and
 * counts and filters run on it here.
 */
export function CalendarPage(props: PageTypeProps) {
  const holder = useUnlockedKeys();
  const { t } = useTranslation("conversations");
  if (!holder) return <Text>{t("errors.keysMissing")}</Text>;
  return <Calendar key={props.page.id} {...props} holder={holder} />;
}

type Editing = { mode: "create"; initial?: MotePayload } | { mode: "edit"; record: OpenedRecord };

function Calendar({ groupId, page, creating, onCreatingDone, holder }: PageTypeProps & { holder: UnlockedKeys }) {
  const { t, i18n } = useTranslation(ns);
  const records = usePageRecords(groupId, page.id, holder);
  usePageKeeper(groupId, page, holder);
  const changes = useRecordChanges(groupId, holder);
  const main = useRef<FullCalendar>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [range, setRange] = useState<{ from: Date; to: Date } | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [tag, setTag] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const writable = !page.read_only;

  // The calendar shows every card of the page: the further pages are loaded as they come.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = records;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const cards = useMemo(() => records.data?.pages.flatMap((p) => p.records) ?? [], [records.data]);
  const byId = useMemo(() => new Map(cards.map((r) => [String(r.id), r])), [cards]);
  const tags = useMemo(() => tagsOf(cards), [cards]);
  const events = useMemo(() => {
    const shown: EventInput[] = [];
    for (const record of cards) {
      if (tag !== null && !(record.payload?.tags ?? []).includes(tag)) continue;
      const event = eventOfRecord(record, t("untitled"));
      if (!event || hidden.has(event.source)) continue;
      shown.push({ ...event, editable: writable && event.editable, color: SOURCE_COLORS[event.source] });
    }
    return shown;
  }, [cards, tag, hidden, writable, t]);
  const canCreate = writable && records.data?.pages[0]?.answer.can_create === true;
  const found = range ? countInRange(events as { start: string; end: string }[], range.from, range.to) : 0;

  const locale = useMemo<LocaleInput>(
    () => ({
      code: DATE_LOCALE,
      week: { dow: 1, doy: 4 },
      buttonText: { today: t("buttons.today"), month: t("buttons.month"), week: t("buttons.week"), day: t("buttons.day"), prev: t("buttons.previous"), next: t("buttons.next") },
      buttonHints: { prev: t("buttons.previous"), next: t("buttons.next"), today: t("buttons.today") },
      weekText: t("week"),
      allDayText: t("allDay"),
      moreLinkText: (n: number) => t("more", { count: n }),
      noEventsText: t("noEvents"),
    }),
    // The words follow the interface language.
    [t, i18n.language],
  );

  const locales = useMemo(() => [locale], [locale]);

  const shown = editing ?? (creating ? { mode: "create" as const, initial: nextHour() } : null);
  const close = () => {
    setEditing(null);
    onCreatingDone();
  };
  const save = async (payload: MotePayload) => {
    if (shown?.mode === "edit") await changes.edit.mutateAsync({ record: shown.record, payload });
    else await changes.create.mutateAsync({ pageId: page.id, payload });
    close();
  };
  const remove = async () => {
    if (shown?.mode !== "edit") return;
    await changes.remove.mutateAsync(shown.record.id);
    close();
  };

  const select = (info: DateSelectArg) => {
    info.view.calendar.unselect();
    setEditing({ mode: "create", initial: selectionPayload(info.start, info.end) });
  };
  const move = async (info: EventChangeArg) => {
    const record = byId.get(info.event.id);
    const start = info.event.start;
    if (!record?.payload || !start) return info.revert();
    setFailure(null);
    try {
      await changes.multipatch.mutateAsync({ changes: [{ record, payload: movedPayload(record.payload, start, info.event.end) }] });
    } catch (error) {
      info.revert();
      console.error("Moving the event failed", error);
      setFailure(isApiError(error, 403) ? t("notAllowed") : t("moveFailed"));
    }
  };
  const goTo = (info: DateClickArg) => main.current?.getApi().gotoDate(info.date);
  // FullCalendar reports its dates again on every new set of options: only a new range is kept.
  const datesSet = ({ view }: DatesSetArg) =>
    setRange((r) => (r && r.from.getTime() === view.activeStart.getTime() && r.to.getTime() === view.activeEnd.getTime() ? r : { from: view.activeStart, to: view.activeEnd }));

  if (records.isPending) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text>{t("loading")}</Text>
      </Group>
    );
  }
  if (records.isError) return <Text c="red">{errorText(records.error, t("loadFailed"))}</Text>;

  const viewed = viewing !== null ? byId.get(String(viewing)) : undefined;
  return (
    <Box data-page-type="calendar">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Group gap="sm" role="group" aria-label={t("legend")}>
          {Object.entries(SOURCE_COLORS).map(([source, color]) => (
            <Badge
              key={source}
              component="button"
              type="button"
              color={color}
              variant={hidden.has(source) ? "outline" : "filled"}
              aria-pressed={!hidden.has(source)}
              style={{ cursor: "pointer" }}
              onClick={() => setHidden((h) => toggled(h, source))}
            >
              {t(`sources.${source as "cards"}`)}
            </Badge>
          ))}
          <Text size="sm" data-calendar-found>
            {t("found", { count: found })}
          </Text>
        </Group>
        <Group gap="sm" align="flex-end">
          {canCreate ? (
            <Button size="xs" variant="light" onClick={() => setEditing({ mode: "create", initial: nextHour() })}>
              {t("createNew", { singular: t("singular") })}
            </Button>
          ) : null}
          <Select
          label={t("parentFilter")}
          size="xs"
          w={200}
          allowDeselect={false}
          data={[{ value: "", label: t("showAll") }, ...tags.map((value) => ({ value: `#${value}`, label: value }))]}
          value={tag === null ? "" : `#${tag}`}
          onChange={(value) => setTag(value ? value.slice(1) : null)}
          />
        </Group>
      </Group>
      {failure ? (
        <Alert color="red" role="alert" mb="sm" withCloseButton closeButtonLabel={t("dismiss")} onClose={() => setFailure(null)}>
          {failure}
        </Alert>
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
          />
        </Box>
        <Box w="80%" role="region" aria-label={t("calendar")} data-calendar-main>
          <FullCalendar
            ref={main}
            plugins={MAIN_PLUGINS}
            buttonIcons={false}
            initialView="dayGridMonth"
            locales={locales}
            locale={DATE_LOCALE}
            headerToolbar={MAIN_TOOLBAR}
            weekNumbers
            weekNumberDidMount={hideWeekNumber}
            eventTimeFormat={HOURS_24}
            slotLabelFormat={HOURS_24}
            dayMaxEvents
            height="auto"
            events={events}
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
          readOnly={page.read_only}
          required={REQUIRED}
          parts={{ event: true }}
          upload={(file, options) => uploadFile(cardSpace(page.id), file, options)}
          onSave={save}
          onDelete={shown.mode === "edit" ? remove : undefined}
          onClose={close}
        />
      ) : null}
      {viewed ? (
        <EventViewer
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

/** A week number sits inside the row's first day cell, whose name is its day: the number is left out of the cell's name (the row's dates say the week). */
function hideWeekNumber({ el }: { el: HTMLElement }) {
  if (el.closest("td.fc-daygrid-day")) el.setAttribute("aria-hidden", "true");
}

function toggled(set: ReadonlySet<string>, value: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(value)) next.add(value);
  return next;
}

/** The add button's new card: the next full hour, one hour long. */
function nextHour(): MotePayload {
  const start = new Date();
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  return selectionPayload(start, new Date(start.getTime() + 3_600_000));
}
