import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { contrastRatio, readableTextColor } from '../config/contrast.ts';
import type { Event } from './events.ts';
import {
	chipTextColor,
	clearTypes,
	currentGroupKey,
	dayCellLabel,
	dayNameParts,
	emptyPeriodText,
	eventTypes,
	featuredVisible,
	filterByTypes,
	groupByMonth,
	initialView,
	missingSide,
	monthWeeks,
	moreLabel,
	moveFocus,
	neededRange,
	periodHeader,
	periodRange,
	prefetchRange,
	selectDay,
	setMode,
	shiftMonth,
	shiftView,
	showMonth,
	switchSource,
	toggleType,
	type DatedEvent,
} from './calendar.ts';

const ZONE = 'America/Chicago';

/** An event in the demo chamber's zone, from local days and 'HH:mm' times. */
function event(
	EventId: number,
	StartDate: string,
	EndDate = StartDate,
	EventType = 'Networking',
	[from, to]: [string, string] = ['09:00', '10:00'],
): DatedEvent {
	const utc = (day: string, time: string) => {
		const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
		const [h = 0, min = 0] = time.split(':').map(Number);
		return new Date(new TZDate(y, m - 1, d, h, min, ZONE).getTime()).toISOString();
	};
	return {
		EventId,
		EventType,
		StartDate,
		EndDate,
		StartDateTimeUtc: utc(StartDate, from),
		EndDateTimeUtc: utc(EndDate, to),
		TimeZone: { Abbreviation: 'CST', Name: ZONE },
	};
}

describe('period headers and ranges', () => {
	it('names the selected day, the week (from its Sunday) and the month in capitals', () => {
		expect(periodHeader('day', '2026-11-22')).toBe('EVENTS FOR NOV 22');
		// Wednesday 25 November 2026 is in the week starting Sunday 22 November.
		expect(periodHeader('week', '2026-11-25')).toBe('EVENTS FOR WEEK OF NOV 22');
		expect(periodHeader('week', '2026-11-21')).toBe('EVENTS FOR WEEK OF NOV 15');
		expect(periodHeader('month', '2026-11-22')).toBe('EVENTS FOR NOVEMBER 2026');
	});

	it('covers a day, a Sunday-to-Saturday week across a month end, and a whole month', () => {
		expect(periodRange('day', '2026-11-22')).toEqual({
			startDate: '2026-11-22',
			endDate: '2026-11-22',
		});
		expect(periodRange('week', '2026-12-02')).toEqual({
			startDate: '2026-11-29',
			endDate: '2026-12-05',
		});
		expect(periodRange('month', '2026-02-10')).toEqual({
			startDate: '2026-02-01',
			endDate: '2026-02-28',
		});
	});

	it('says which period is empty', () => {
		expect(emptyPeriodText('day')).toBe('No events found for the selected day.');
		expect(emptyPeriodText('week')).toBe('No events found for the selected week.');
		expect(emptyPeriodText('month')).toBe('No events found for the selected month.');
	});

	it('moves one period back or forward, the mini calendar following the selection', () => {
		const day = initialView('2026-11-30');
		expect(shiftView(day, 1)).toMatchObject({ selected: '2026-12-01', month: '2026-12-01' });
		const week = setMode(day, 'week');
		expect(shiftView(week, -1)).toMatchObject({ selected: '2026-11-23', month: '2026-11-01' });
		const month = setMode(day, 'month');
		expect(shiftView(month, 1)).toMatchObject({ selected: '2026-12-01', month: '2026-12-01' });
		expect(periodHeader('month', shiftView(month, -1).selected)).toBe('EVENTS FOR OCTOBER 2026');
	});
});

describe('mini calendar model', () => {
	const events = [
		event(1, '2026-11-03'),
		event(2, '2026-11-03'),
		event(3, '2026-11-03'),
		// Multi-day, across the month end.
		event(4, '2026-11-29', '2026-12-01'),
	];
	const weeks = monthWeeks('2026-11-15', events, '2026-11-20');

	it('lays out Sunday-first weeks padded with the neighbouring months', () => {
		// November 2026 starts on a Sunday and ends on a Monday.
		expect(weeks).toHaveLength(5);
		expect(weeks.every((w) => w.length === 7)).toBe(true);
		expect(weeks[0]![0]).toMatchObject({ key: '2026-11-01', date: 1, inMonth: true });
		expect(weeks[4]![1]).toMatchObject({ key: '2026-11-30', inMonth: true });
		expect(weeks[4]![6]).toMatchObject({ key: '2026-12-05', date: 5, inMonth: false });
		const march = monthWeeks('2026-03-01', [], '2026-03-01');
		expect(march[0]![0]).toMatchObject({ key: '2026-03-01' });
		const october = monthWeeks('2026-10-01', [], '2026-10-01');
		// 1 October 2026 is a Thursday: four days of September lead the first week.
		expect(october[0]!.map((d) => d.date)).toEqual([27, 28, 29, 30, 1, 2, 3]);
		expect(october[0]!.filter((d) => !d.inMonth)).toHaveLength(4);
	});

	it('marks today and puts each event on every day it spans', () => {
		const days = weeks.flat();
		expect(days.filter((d) => d.isToday).map((d) => d.key)).toEqual(['2026-11-20']);
		expect(days.find((d) => d.key === '2026-11-03')!.events.map((e) => e.EventId)).toEqual([
			1, 2, 3,
		]);
		const spanned = days.filter((d) => d.events.some((e) => e.EventId === 4)).map((d) => d.key);
		expect(spanned).toEqual(['2026-11-29', '2026-11-30', '2026-12-01']);
	});

	it("places events on their own zone's days, whatever the visitor's zone", () => {
		// 10 PM in Chicago is already the next day in UTC; midnight ends the day before.
		const late = event(5, '2026-11-10', '2026-11-10', 'Networking', ['22:00', '23:30']);
		const toMidnight = event(6, '2026-11-12', '2026-11-13', 'Networking', ['20:00', '00:00']);
		const noZone = { ...event(7, '2026-11-14'), TimeZone: { Abbreviation: '' } };
		const days = monthWeeks('2026-11-01', [late, toMidnight, noZone], '2026-11-01').flat();
		const on = (id: number) => days.filter((d) => d.events.some((e) => e.EventId === id));
		expect(on(5).map((d) => d.key)).toEqual(['2026-11-10']);
		expect(on(6).map((d) => d.key)).toEqual(['2026-11-12']);
		expect(on(7).map((d) => d.key)).toEqual(['2026-11-14']);
	});

	it("shows '+N' for the events beyond the first", () => {
		expect(moreLabel(0)).toBe('');
		expect(moreLabel(1)).toBe('');
		expect(moreLabel(3)).toBe('+2');
	});

	it('names each day cell with the full date and the number of events', () => {
		expect(dayCellLabel('2026-11-03', 3)).toBe('Tuesday, November 3, 2026, 3 events');
		expect(dayCellLabel('2026-11-04', 1)).toBe('Wednesday, November 4, 2026, 1 event');
		expect(dayCellLabel('2026-11-05', 0)).toBe('Thursday, November 5, 2026, no events');
		// A cell shows the date and hides the rest visually: the parts make the same name.
		expect(dayNameParts('2026-11-03', 2)).toEqual({
			before: 'Tuesday, November ',
			date: '3',
			after: ', 2026, 2 events',
		});
		const parts = dayNameParts('2026-11-30', 0);
		expect(parts.before + parts.date + parts.after).toBe(dayCellLabel('2026-11-30', 0));
	});

	it('moves the keyboard focus by day, week, week edge and month', () => {
		expect(moveFocus('2026-11-30', 'ArrowRight')).toBe('2026-12-01');
		expect(moveFocus('2026-11-01', 'ArrowLeft')).toBe('2026-10-31');
		expect(moveFocus('2026-11-03', 'ArrowUp')).toBe('2026-10-27');
		expect(moveFocus('2026-11-03', 'ArrowDown')).toBe('2026-11-10');
		expect(moveFocus('2026-11-04', 'Home')).toBe('2026-11-01');
		expect(moveFocus('2026-11-04', 'End')).toBe('2026-11-07');
		expect(moveFocus('2026-03-31', 'PageUp')).toBe('2026-02-28');
		expect(moveFocus('2026-11-04', 'PageDown')).toBe('2026-12-04');
		expect(moveFocus('2026-11-04', 'Enter')).toBeNull();
	});
});

describe('view toggles', () => {
	const start = initialView('2026-11-20');

	it('starts on today in day mode with no filter', () => {
		expect(start).toEqual({
			mode: 'day',
			selected: '2026-11-20',
			month: '2026-11-01',
			source: 'events',
			types: [],
		});
	});

	it('selects a clicked day in day mode, whatever the mode was', () => {
		expect(selectDay(setMode(start, 'month'), '2026-11-25')).toMatchObject({
			mode: 'day',
			selected: '2026-11-25',
		});
	});

	it('toggles between day and month view when the selected day is clicked again', () => {
		const once = selectDay(start, '2026-11-25');
		const twice = selectDay(once, '2026-11-25');
		expect(twice).toMatchObject({ mode: 'month', selected: '2026-11-25' });
		expect(periodHeader(twice.mode, twice.selected)).toBe('EVENTS FOR NOVEMBER 2026');
		expect(selectDay(twice, '2026-11-25').mode).toBe('day');
		expect(selectDay(setMode(once, 'week'), '2026-11-25').mode).toBe('day');
	});

	it('switches to month view of the shown month when the month title is clicked', () => {
		const later = shiftMonth(shiftMonth(start, 1), 1);
		expect(later).toMatchObject({ month: '2027-01-01', selected: '2026-11-20', mode: 'day' });
		expect(showMonth(later)).toMatchObject({ mode: 'month', selected: '2027-01-01' });
		// The selection is kept when it is in the shown month.
		expect(showMonth(start)).toMatchObject({ mode: 'month', selected: '2026-11-20' });
	});

	it('clears the type filter when the source switches, and only then', () => {
		const filtered = toggleType(toggleType(start, 'Networking'), 'Education');
		expect(filtered.types).toEqual(['Networking', 'Education']);
		expect(switchSource(filtered, 'events').types).toEqual(['Networking', 'Education']);
		expect(switchSource(filtered, 'community')).toMatchObject({ source: 'community', types: [] });
		expect(toggleType(filtered, 'Networking').types).toEqual(['Education']);
		expect(clearTypes(filtered).types).toEqual([]);
	});

	it('needs both the listed period and the month the mini calendar shows', () => {
		const week = setMode(selectDay(start, '2026-11-30'), 'week');
		expect(neededRange(week)).toEqual({ startDate: '2026-11-01', endDate: '2026-12-05' });
		const later = [1, 1, 1, 1].reduce((view) => shiftMonth(view, 1), start);
		expect(neededRange(later)).toEqual({ startDate: '2026-11-20', endDate: '2027-03-31' });
	});
});

describe('filters and the featured card', () => {
	const events = [
		event(1, '2026-11-01', '2026-11-01', 'Networking'),
		event(2, '2026-11-02', '2026-11-02', 'Education'),
		event(3, '2026-11-03', '2026-11-03', ' Networking'),
		event(4, '2026-11-04', '2026-11-04', ''),
	];

	it('lists the distinct, non-empty event types alphabetically', () => {
		expect(eventTypes(events)).toEqual(['Education', 'Networking']);
		expect(eventTypes([])).toEqual([]);
	});

	it('shows every event without a filter and only the selected types with one', () => {
		expect(filterByTypes(events, []).map((e) => e.EventId)).toEqual([1, 2, 3, 4]);
		expect(filterByTypes(events, ['Networking']).map((e) => e.EventId)).toEqual([1, 3]);
	});

	it('hides the featured card when a filter excludes its type, or when there is none', () => {
		const featured = { EventType: 'Signature Event' };
		expect(featuredVisible(featured, [])).toBe(true);
		expect(featuredVisible(featured, ['Signature Event', 'Networking'])).toBe(true);
		expect(featuredVisible(featured, ['Networking'])).toBe(false);
		expect(featuredVisible(null, [])).toBe(false);
	});

	it('hides the featured card once its event has ended (its own window)', () => {
		const now = new Date('2026-11-20T18:00:00Z');
		const featured = (end: string) => ({ EventType: 'Gala', EndDateTimeUtc: end });
		expect(featuredVisible(featured('2026-11-20T19:00:00Z'), [], now)).toBe(true);
		expect(featuredVisible(featured('2026-11-20T17:59:00Z'), [], now)).toBe(false);
	});
});

describe('month grouping', () => {
	it("groups events under 'MMMM yyyy' headings by the month they start in", () => {
		const groups = groupByMonth([
			event(1, '2026-10-30', '2026-11-02'),
			event(2, '2026-11-05'),
			event(3, '2026-11-20'),
			event(4, '2027-01-02'),
		]);
		expect(groups.map((g) => [g.key, g.label, g.events.map((e) => e.EventId)])).toEqual([
			['2026-10', 'October 2026', [1]],
			['2026-11', 'November 2026', [2, 3]],
			['2027-01', 'January 2027', [4]],
		]);
	});

	it('scrolls to the current month, else the next month with events, else the last', () => {
		const groups = [{ key: '2026-10' }, { key: '2026-12' }];
		expect(currentGroupKey(groups, '2026-10-15')).toBe('2026-10');
		expect(currentGroupKey(groups, '2026-11-15')).toBe('2026-12');
		expect(currentGroupKey(groups, '2027-02-01')).toBe('2026-12');
		expect(currentGroupKey([], '2027-02-01')).toBeNull();
	});
});

describe('loading more', () => {
	const loaded = { startDate: '2026-08-01', endDate: '2027-02-28' };

	it('first loads three months either side of today', () => {
		expect(prefetchRange('2026-11-22')).toEqual({ startDate: '2026-08-22', endDate: '2027-02-22' });
		expect(prefetchRange('2026-05-31')).toEqual({ startDate: '2026-02-28', endDate: '2026-08-31' });
	});

	it('names the side of the loaded range a period sticks out of', () => {
		const month = (startDate: string, endDate: string) => ({ startDate, endDate });
		expect(missingSide(loaded, month('2026-11-01', '2026-11-30'))).toBeNull();
		expect(missingSide(loaded, month('2027-03-01', '2027-03-31'))).toBe('after');
		expect(missingSide(loaded, month('2026-07-26', '2026-08-01'))).toBe('before');
	});
});

describe('readable text on event type colours', () => {
	it("reads a chip's text colour from what the events API answers", () => {
		const event = { EventTypeColor: '#1f4e3d', EventTypeTextColor: '#ffffff' } as unknown as Event;
		expect(chipTextColor(event)).toBe('#ffffff');
	});

	it('picks white on dark colours and black on light ones, always at least 4.5:1', () => {
		expect(readableTextColor('#1f4e3d')).toBe('#ffffff');
		expect(readableTextColor('#fbbf24')).toBe('#000000');
		expect(readableTextColor('#fff')).toBe('#000000');
		for (const colour of ['#0d9488', '#9333ea', '#e11d48', '#16a34a', '#64748b', '#808080']) {
			expect(contrastRatio(colour, readableTextColor(colour))).toBeGreaterThanOrEqual(4.5);
		}
	});
});
