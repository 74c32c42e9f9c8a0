import { describe, expect, it } from 'vitest';
import { expandDates, isEndless, MAX_DATES, ruleProblem } from './recurrence.ts';

describe('a series’ dates, expanded by ical.js', () => {
	it('repeats the wall-clock time across a daylight-saving change, each date keyed by its day', () => {
		// US clocks change on 2027-03-14: 18:00 stays 18:00.
		expect(
			expandDates('FREQ=WEEKLY;BYDAY=TU;COUNT=3', '2027-03-09T18:00', '2027-03-09T20:00'),
		).toEqual([
			{ key: '2027-03-09', start: '2027-03-09T18:00', end: '2027-03-09T20:00' },
			{ key: '2027-03-16', start: '2027-03-16T18:00', end: '2027-03-16T20:00' },
			{ key: '2027-03-23', start: '2027-03-23T18:00', end: '2027-03-23T20:00' },
		]);
	});

	it('keeps an event’s length over midnight, the first Thursday of each month, and a horizon', () => {
		const monthly = expandDates(
			'FREQ=MONTHLY;BYDAY=1TH;COUNT=3',
			'2027-01-07T22:00',
			'2027-01-08T01:00',
		);
		expect(monthly.map((d) => [d.start, d.end])).toEqual([
			['2027-01-07T22:00', '2027-01-08T01:00'],
			['2027-02-04T22:00', '2027-02-05T01:00'],
			['2027-03-04T22:00', '2027-03-05T01:00'],
		]);
		const daily = expandDates('FREQ=DAILY', '2027-01-01T09:00', '2027-01-01T10:00', {
			horizon: '2027-01-05T00:00',
		});
		expect(daily.map((d) => d.key)).toEqual([
			'2027-01-01',
			'2027-01-02',
			'2027-01-03',
			'2027-01-04',
		]);
		expect(expandDates('FREQ=DAILY', '2027-01-01T09:00', '2027-01-01T10:00')).toHaveLength(
			MAX_DATES,
		);
	});

	it('says why a rule cannot be a series of the Events tab', () => {
		expect(ruleProblem('FREQ=WEEKLY;COUNT=4', '2027-01-01T09:00')).toBeNull();
		expect(ruleProblem('FREQ=WEEKLY', '2027-01-01T09:00')).toMatch(/needs an end/);
		expect(ruleProblem('FREQ=HOURLY;COUNT=4', '2027-01-01T09:00')).toMatch(/daily, weekly/);
		expect(ruleProblem('FREQ=DAILY;COUNT=900', '2027-01-01T09:00')).toMatch(/at most 500/);
		expect(ruleProblem('FREQ=DAILY;UNTIL=20400101T000000', '2027-01-01T09:00')).toMatch(/5 years/);
	});
});

describe('an endless rule (a calendar feed’s), expanded over a window', () => {
	it('passes over the dates that ended before `from`, without counting them against the most', () => {
		const dates = expandDates('FREQ=DAILY', '2015-01-01T09:00', '2015-01-01T10:00', {
			from: '2027-03-01T00:00',
			horizon: '2027-03-05T23:59',
		});
		expect(dates.map((d) => d.key)).toEqual([
			'2027-03-01',
			'2027-03-02',
			'2027-03-03',
			'2027-03-04',
			'2027-03-05',
		]);
		expect(isEndless('FREQ=DAILY')).toBe(true);
		expect(isEndless('FREQ=DAILY;COUNT=3')).toBe(false);
	});
});
