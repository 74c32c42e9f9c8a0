import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { addWeeks } from 'date-fns/addWeeks';
import { endOfMonth } from 'date-fns/endOfMonth';
import { endOfWeek } from 'date-fns/endOfWeek';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfWeek } from 'date-fns/startOfWeek';
import {
	eventDays,
	eventTimeZone,
	extendRange,
	LOAD_MORE_MONTHS,
	longDate,
	type DateRange,
	type Event,
} from './events.ts';

// The calendar pages' view model (/events, /events-list, /community-events). Pure logic, shipped
// to the browser, so only individually imported date-fns functions.
//
// Days are 'yyyy-MM-dd' keys. Events are placed on the local days of their own time zone (the
// chamber's), never the visitor's, so an evening event never slides to the next day for a
// visitor elsewhere.

/** A local calendar day, 'yyyy-MM-dd'. */
export type DayKey = string;
export type ViewMode = 'day' | 'week' | 'month';
export type EventSource = 'events' | 'community';

/** What the calendar logic reads of an event. */
export type DatedEvent = Pick<
	Event,
	| 'EventId'
	| 'EventType'
	| 'StartDateTimeUtc'
	| 'EndDateTimeUtc'
	| 'StartDate'
	| 'EndDate'
	| 'TimeZone'
>;

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A key as a local Date at midnight (date-fns calendar arithmetic stays DST-safe that way). */
function parseDay(key: DayKey): Date {
	const m = DAY_KEY.exec(key);
	if (!m) throw new Error(`Not a day: ${JSON.stringify(key)}`);
	return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

const pad = (n: number) => String(n).padStart(2, '0');

export function dayKey(date: Date): DayKey {
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

// Intl rather than date-fns' format, whose locale data would weigh on every calendar page.
const MONTH_YEAR = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
const MONTH_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

export function monthStart(key: DayKey): DayKey {
	return dayKey(startOfMonth(parseDay(key)));
}

export function addMonthsTo(key: DayKey, months: number): DayKey {
	return dayKey(addMonths(parseDay(key), months));
}

/** 'November 2026': list month headings and calendar titles. */
export function monthTitle(key: DayKey): string {
	return MONTH_YEAR.format(parseDay(key));
}

const spans = new WeakMap<DatedEvent, { first: DayKey; last: DayKey }>();

/**
 * The first and last local day of an event, in its own zone (an event ending at midnight ends
 * the day before); from StartDate/EndDate when the zone is unknown. Kept per event object, as
 * a month grid asks for every event on every day.
 */
function daySpan(event: DatedEvent): { first: DayKey; last: DayKey } {
	let span = spans.get(event);
	if (!span) {
		const zone = eventTimeZone(event);
		const first = event.StartDate || event.StartDateTimeUtc.slice(0, 10);
		span = zone
			? eventDays(event, zone)
			: { first, last: event.EndDate > first ? event.EndDate : first };
		spans.set(event, span);
	}
	return span;
}

/** Whether an event (possibly spanning several days) touches the range. */
export function overlaps(event: DatedEvent, range: DateRange): boolean {
	const { first, last } = daySpan(event);
	return first <= range.endDate && last >= range.startDate;
}

// --- Month grid --------------------------------------------------------------------------------

/** Column headings of the Sunday-first grids. */
export const WEEKDAYS = [
	['Sun', 'Sunday'],
	['Mon', 'Monday'],
	['Tue', 'Tuesday'],
	['Wed', 'Wednesday'],
	['Thu', 'Thursday'],
	['Fri', 'Friday'],
	['Sat', 'Saturday'],
] as const;

export interface CalendarDay<E> {
	key: DayKey;
	/** Day of the month, 1-31. */
	date: number;
	/** False for the leading and trailing days of the neighbouring months. */
	inMonth: boolean;
	isToday: boolean;
	/** Events on this day, multi-day events on each of their days. */
	events: E[];
}

/** The month's weeks, Sunday first, padded with the neighbouring months' days. */
export function monthWeeks<E extends DatedEvent>(
	month: DayKey,
	events: readonly E[],
	today: DayKey,
): CalendarDay<E>[][] {
	const first = startOfMonth(parseDay(month));
	const last = endOfWeek(endOfMonth(first));
	const visible = events.filter((e) =>
		overlaps(e, { startDate: dayKey(startOfWeek(first)), endDate: dayKey(last) }),
	);
	const weeks: CalendarDay<E>[][] = [];
	for (let day = startOfWeek(first); day <= last; day = addDays(day, 7)) {
		weeks.push(
			Array.from({ length: 7 }, (_, i) => {
				const date = addDays(day, i);
				const key = dayKey(date);
				return {
					key,
					date: date.getDate(),
					inMonth: date.getMonth() === first.getMonth(),
					isToday: key === today,
					events: visible.filter((e) => overlaps(e, { startDate: key, endDate: key })),
				};
			}),
		);
	}
	return weeks;
}

/** '+N' for the events beyond the first one shown in a mini-calendar cell. */
export function moreLabel(count: number): string {
	return count > 1 ? `+${count - 1}` : '';
}

/** A day cell's accessible name: the full date and how many events it has. */
export function dayCellLabel(key: DayKey, count: number): string {
	const events = count === 0 ? 'no events' : count === 1 ? '1 event' : `${count} events`;
	return `${longDate(key)}, ${events}`;
}

/**
 * A day's name cut around the date a cell shows: `before + date + after` is dayCellLabel. Cells
 * show the date and hide the rest visually, so their name holds what they show (WCAG 2.5.3,
 * Label in Name: speech users say the number they see) and a screen reader reads it whole.
 */
export function dayNameParts(
	key: DayKey,
	count: number,
): { before: string; date: string; after: string } {
	const label = dayCellLabel(key, count);
	const date = String(Number(key.slice(8, 10)));
	const at = label.indexOf(` ${date},`) + 1;
	return { before: label.slice(0, at), date, after: label.slice(at + date.length) };
}

/** Where an arrow key moves the focus in a Sunday-first month grid. */
export function moveFocus(key: DayKey, keyName: string): DayKey | null {
	const day = parseDay(key);
	switch (keyName) {
		case 'ArrowLeft':
			return dayKey(addDays(day, -1));
		case 'ArrowRight':
			return dayKey(addDays(day, 1));
		case 'ArrowUp':
			return dayKey(addDays(day, -7));
		case 'ArrowDown':
			return dayKey(addDays(day, 7));
		case 'Home':
			return dayKey(startOfWeek(day));
		case 'End':
			return dayKey(endOfWeek(day));
		case 'PageUp':
			return dayKey(addMonths(day, -1));
		case 'PageDown':
			return dayKey(addMonths(day, 1));
		default:
			return null;
	}
}

// --- Month list --------------------------------------------------------------------------------

export interface MonthGroup<E> {
	/** 'yyyy-MM'. */
	key: string;
	/** 'MMMM yyyy', e.g. 'November 2026'. */
	label: string;
	events: E[];
}

/** Events (sorted by start) grouped under the month they start in. */
export function groupByMonth<E extends DatedEvent>(events: readonly E[]): MonthGroup<E>[] {
	const groups: MonthGroup<E>[] = [];
	for (const event of events) {
		const key = daySpan(event).first.slice(0, 7);
		let group = groups.at(-1);
		if (group?.key !== key) {
			group = { key, label: monthTitle(`${key}-01`), events: [] };
			groups.push(group);
		}
		group.events.push(event);
	}
	return groups;
}

/** The group a list scrolls to first: the current month, or the first one after it. */
export function currentGroupKey(groups: readonly { key: string }[], today: DayKey): string | null {
	const month = today.slice(0, 7);
	return groups.find((g) => g.key >= month)?.key ?? groups.at(-1)?.key ?? null;
}

// --- Periods (the /events-list left column) ----------------------------------------------------

export function periodRange(mode: ViewMode, selected: DayKey): DateRange {
	const day = parseDay(selected);
	switch (mode) {
		case 'day':
			return { startDate: selected, endDate: selected };
		case 'week':
			return { startDate: dayKey(startOfWeek(day)), endDate: dayKey(endOfWeek(day)) };
		case 'month':
			return { startDate: dayKey(startOfMonth(day)), endDate: dayKey(endOfMonth(day)) };
	}
}

/** 'EVENTS FOR NOV 22', 'EVENTS FOR WEEK OF NOV 16', 'EVENTS FOR NOVEMBER 2026'. */
export function periodHeader(mode: ViewMode, selected: DayKey): string {
	const day = parseDay(selected);
	const text =
		mode === 'day'
			? MONTH_DAY.format(day)
			: mode === 'week'
				? `WEEK OF ${MONTH_DAY.format(startOfWeek(day))}`
				: MONTH_YEAR.format(day);
	return `EVENTS FOR ${text.toUpperCase()}`;
}

export function emptyPeriodText(mode: ViewMode): string {
	return `No events found for the selected ${mode}.`;
}

/** The selected day one period earlier (step -1) or later (step 1). */
function shiftDay(mode: ViewMode, selected: DayKey, step: 1 | -1): DayKey {
	const day = parseDay(selected);
	if (mode === 'day') return dayKey(addDays(day, step));
	if (mode === 'week') return dayKey(addWeeks(day, step));
	return dayKey(startOfMonth(addMonths(day, step)));
}

export interface ListView {
	mode: ViewMode;
	/** The selected day; in week and month mode, the period containing it. */
	selected: DayKey;
	/** First day of the month the mini calendar shows. */
	month: DayKey;
	source: EventSource;
	/** Selected event types; none selected shows every type. */
	types: string[];
}

export function initialView(today: DayKey, source: EventSource = 'events'): ListView {
	return { mode: 'day', selected: today, month: monthStart(today), source, types: [] };
}

/** A click on a mini-calendar day: selects it in day mode; the selected day again toggles day/month. */
export function selectDay(view: ListView, day: DayKey): ListView {
	if (day === view.selected) {
		return { ...view, mode: view.mode === 'day' ? 'month' : 'day', month: monthStart(day) };
	}
	return { ...view, mode: 'day', selected: day, month: monthStart(day) };
}

/** A click on the mini calendar's month title: that month, in month mode. */
export function showMonth(view: ListView): ListView {
	const selected = monthStart(view.selected) === view.month ? view.selected : view.month;
	return { ...view, mode: 'month', selected };
}

export function setMode(view: ListView, mode: ViewMode): ListView {
	return { ...view, mode };
}

/** The previous/next arrows: one period back or forward; the mini calendar follows. */
export function shiftView(view: ListView, step: 1 | -1): ListView {
	const selected = shiftDay(view.mode, view.selected, step);
	return { ...view, selected, month: monthStart(selected) };
}

/** The mini calendar's own month arrows; the selection stays. */
export function shiftMonth(view: ListView, step: 1 | -1): ListView {
	return { ...view, month: addMonthsTo(view.month, step) };
}

/** Switching between chamber and community events clears the type filter. */
export function switchSource(view: ListView, source: EventSource): ListView {
	return source === view.source ? view : { ...view, source, types: [] };
}

export function toggleType(view: ListView, type: string): ListView {
	const types = view.types.includes(type)
		? view.types.filter((t) => t !== type)
		: [...view.types, type];
	return { ...view, types };
}

export function clearTypes(view: ListView): ListView {
	return { ...view, types: [] };
}

/** The range the view needs loaded: the period, and the whole month the mini calendar shows. */
export function neededRange(view: ListView): DateRange {
	return extendRange(periodRange(view.mode, view.selected), periodRange('month', view.month));
}

// --- Filters and the featured event ------------------------------------------------------------

/** The distinct event types, alphabetically. */
export function eventTypes(events: readonly DatedEvent[]): string[] {
	const types = new Set(events.map((e) => e.EventType.trim()).filter(Boolean));
	return [...types].sort((a, b) => a.localeCompare(b));
}

export function filterByTypes<E extends DatedEvent>(
	events: readonly E[],
	types: readonly string[],
): E[] {
	if (types.length === 0) return [...events];
	const wanted = new Set(types);
	return events.filter((e) => wanted.has(e.EventType.trim()));
}

/**
 * The featured card stays hidden when the selected types exclude its event, and once its event
 * has ended: the featured event's own dates are its window, so a card never advertises an event
 * that is over, whenever the site was last built.
 */
export function featuredVisible(
	featured: (Pick<DatedEvent, 'EventType'> & { EndDateTimeUtc?: string }) | null,
	types: readonly string[],
	now: Date = new Date(),
): boolean {
	if (featured === null) return false;
	const end = featured.EndDateTimeUtc ? Date.parse(featured.EndDateTimeUtc) : Number.NaN;
	if (end < now.getTime()) return false;
	return types.length === 0 || types.includes(featured.EventType.trim());
}

// --- Loading more ------------------------------------------------------------------------------

/**
 * What the calendars load first: the prefetch window, three months either side of
 * today. Narrower than the API's default (6 months ahead), so the first answer stays small and
 * later months come through load-more when the visitor gets there.
 */
export function prefetchRange(today: DayKey): DateRange {
	return {
		startDate: addMonthsTo(today, -LOAD_MORE_MONTHS),
		endDate: addMonthsTo(today, LOAD_MORE_MONTHS),
	};
}

/** Which side of the loaded range a wanted range sticks out of; 'before' wins when both do. */
export function missingSide(loaded: DateRange, wanted: DateRange): 'before' | 'after' | null {
	if (wanted.startDate < loaded.startDate) return 'before';
	if (wanted.endDate > loaded.endDate) return 'after';
	return null;
}

// --- Colours -----------------------------------------------------------------------------------

/**
 * The text colour of an event's chip: black or white, whichever reads better on its type's colour
 * (one of the two always reaches 4.58:1), as the events API answers it (`EventTypeTextColor`), so
 * the calendars ship no contrast arithmetic.
 */
export function chipTextColor(event: Event): string {
	return typeof event.EventTypeTextColor === 'string' ? event.EventTypeTextColor : '#000000';
}
