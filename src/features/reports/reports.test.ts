import { describe, expect, it } from 'vitest';
import { isBotAgent, REPEAT_WINDOW_MS, RepeatFilter } from './counting.server.ts';
import {
	addMonths,
	change,
	countEvents,
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

	it('are told apart by address, business, kind and search words', () => {
		const filter = new RepeatFilter(() => Date.UTC(2026, 10, 3, 9, 0));
		expect(
			filter.admit('203.0.113.5', [
				view(),
				view(),
				view(B),
				{ kind: 'website', business: A },
				{ kind: 'phone', business: A },
				view(A, 'roofers'),
			]),
		).toEqual([
			view(),
			view(B),
			{ kind: 'website', business: A },
			{ kind: 'phone', business: A },
			view(A, 'roofers'),
		]);
		expect(filter.admit('203.0.113.6', [view()])).toHaveLength(1);
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
		const held = JSON.stringify([
			...(filter as unknown as { seen: Map<string, number> }).seen.keys(),
		]);
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

	it('keep search words lower case, spaces collapsed, at most 100 characters', () => {
		expect(normaliseSearchWords('\tPlumbers  IN\nCedar Valley ')).toBe('plumbers in cedar valley');
		expect(normaliseSearchWords(`${'a'.repeat(99)} b`)).toBe('a'.repeat(99));
		expect(normaliseSearchWords('   ')).toBe('');
	});
});

describe('periods and reports', () => {
	it('months run from their first to their last UTC day', () => {
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
