// @vitest-environment happy-dom
import { within } from '@testing-library/dom';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PublishHistory from './PublishHistory.tsx';
import type { HistoryEntry } from './publish.ts';

// The history of published configurations as an admin uses it: what changed, and Restore; the
// month's publishes against the budget, what waits for a publish, and what is scheduled.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ENTRIES: HistoryEntry[] = [
	{
		id: 12,
		publishedAt: new Date(2026, 10, 23, 14, 32).toISOString(),
		requestedBy: 'admin@demo.test',
		reason: 'Content saved',
		baseline: false,
		changes: [
			{
				section: 'content',
				field: 'heroTitle',
				before: 'Discover Cedar Valley',
				after: 'Shop local this winter',
				changedBy: ['editor@demo.test'],
			},
		],
	},
	{
		id: 9,
		publishedAt: new Date(2026, 10, 20, 9, 5).toISOString(),
		requestedBy: 'super@demo.test',
		reason: 'Publish now',
		baseline: true,
		changes: [],
	},
];

let root: Root | null = null;
let container: HTMLElement;

async function flush() {
	for (let i = 0; i < 5; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
}

async function mount(
	fetch: typeof globalThis.fetch,
	{ onRestored = vi.fn(), timeZone }: { onRestored?: () => void; timeZone?: string } = {},
) {
	container = document.createElement('div');
	document.body.append(container);
	root = createRoot(container);
	await act(async () => {
		root?.render(
			createElement(PublishHistory, {
				getAccessToken: async () => 'token-9',
				fetch,
				onRestored,
				...(timeZone ? { timeZone } : {}),
			}),
		);
	});
	await flush();
	return within(container);
}

afterEach(async () => {
	await act(async () => root?.unmount());
	root = null;
	container?.remove();
});

describe('PublishHistory', () => {
	it('shows each kept configuration with its changes, field by field', async () => {
		const fetch = vi.fn(async () => Response.json({ entries: ENTRIES }));
		const screen = await mount(fetch as unknown as typeof globalThis.fetch);
		expect(
			screen.getByRole('heading', {
				name: 'Published Nov 23, 2026, 14:32 by admin@demo.test (live now)',
			}),
		).toBeTruthy();
		const table = screen.getByRole('table');
		const cells = within(table)
			.getAllByRole('cell')
			.map((c) => c.textContent);
		expect(cells).toEqual([
			'content',
			'heroTitle',
			'Discover Cedar Valley',
			'Shop local this winter',
			'editor@demo.test',
		]);
		expect(
			screen.getByText('The oldest configuration kept: nothing older to compare it with.'),
		).toBeTruthy();
		// The live one cannot be restored (it is live); the older one can.
		expect(screen.getAllByRole('button', { name: /^Restore/ })).toHaveLength(1);
	});

	it('restores after a confirmation, with the token, and reloads the history', async () => {
		const calls: { url: string; method: string; body: unknown; auth: string | null }[] = [];
		const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
			calls.push({
				url: String(input),
				method: init.method ?? 'GET',
				body: init.body ? JSON.parse(String(init.body)) : null,
				auth: new Headers(init.headers).get('authorization'),
			});
			if (String(input) === '/api/publish-restore') {
				return Response.json(
					{ publish: { id: 13, state: 'queued' }, created: true },
					{ status: 202 },
				);
			}
			return Response.json({ entries: ENTRIES });
		});
		const onRestored = vi.fn();
		const screen = await mount(fetch as unknown as typeof globalThis.fetch, { onRestored });

		await act(async () =>
			screen
				.getByRole('button', { name: 'Restore the configuration published Nov 20, 2026, 09:05' })
				.click(),
		);
		expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
		await act(async () => screen.getByRole('button', { name: 'Yes, restore' }).click());
		await flush();

		expect(calls.find((c) => c.method === 'POST')).toEqual({
			url: '/api/publish-restore',
			method: 'POST',
			body: { publishId: 9 },
			auth: 'Bearer token-9',
		});
		expect(screen.getByRole('status').textContent).toBe(
			'Restored the configuration published Nov 20, 2026, 09:05. Publishing…',
		);
		expect(onRestored).toHaveBeenCalledOnce();
		expect(calls.filter((c) => c.url === '/api/publish-history')).toHaveLength(2);
	});

	it('says why a restore was refused', async () => {
		const fetch = vi.fn(async (input: RequestInfo | URL) => {
			if (String(input) === '/api/publish-restore') {
				return Response.json({ error: 'Your role does not allow this.' }, { status: 403 });
			}
			return Response.json({ entries: ENTRIES });
		});
		const screen = await mount(fetch as unknown as typeof globalThis.fetch);
		await act(async () =>
			screen.getByRole('button', { name: /^Restore the configuration/ }).click(),
		);
		await act(async () => screen.getByRole('button', { name: 'Yes, restore' }).click());
		await flush();
		expect(screen.getByRole('alert').textContent).toBe('Your role does not allow this.');
	});

	it('lists what is scheduled on the chamber’s clock, by whom, and cancels it', async () => {
		const scheduled = [
			{
				id: 4,
				runAt: '2026-11-28T15:00:00.000Z',
				kind: 'save',
				summary: '1 change: content.heroTitle',
				state: 'scheduled',
				createdBy: 'editor@demo.test',
				createdAt: '2026-11-25T10:00:00.000Z',
				finishedAt: null,
				canceledBy: null,
				error: null,
				publishId: null,
			},
			{
				id: 3,
				runAt: '2026-11-24T15:00:00.000Z',
				kind: 'save',
				summary: '1 change: colors',
				state: 'failed',
				createdBy: 'admin@demo.test',
				createdAt: '2026-11-23T10:00:00.000Z',
				finishedAt: '2026-11-24T15:00:00.000Z',
				canceledBy: null,
				error: 'Not published: ann@demo.test changed colors.primary after it was scheduled.',
				publishId: null,
			},
		];
		const calls: string[] = [];
		const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
			calls.push(`${init.method ?? 'GET'} ${String(input)}`);
			if (String(input).startsWith('/api/publish-schedule')) {
				if (init.method === 'DELETE')
					return Response.json({ scheduled: { ...scheduled[0], state: 'canceled' } });
				return Response.json({ scheduled });
			}
			return Response.json({ entries: ENTRIES });
		});
		const screen = await mount(fetch as unknown as typeof globalThis.fetch, {
			timeZone: 'America/Chicago',
		});
		const list = screen.getByRole('heading', { name: 'Scheduled' }).parentElement!;
		expect(
			within(list)
				.getAllByRole('listitem')
				.map((li) => li.textContent),
		).toEqual([
			'Goes live Nov 28, 2026, 09:00 CST: 1 change: content.heroTitle, scheduled by editor@demo.testCancel',
			'Failed, was due Nov 24, 2026, 09:00 CST: 1 change: colors, scheduled by admin@demo.testNot published: ann@demo.test changed colors.primary after it was scheduled.',
		]);
		await act(async () =>
			screen
				.getByRole('button', {
					name: 'Cancel the publish scheduled for Nov 28, 2026, 09:00 CST: 1 change: content.heroTitle',
				})
				.click(),
		);
		await flush();
		expect(calls).toContain('DELETE /api/publish-schedule?id=4');
		expect(screen.getByRole('status').textContent).toBe('The scheduled publish is cancelled.');
	});
});

describe("PublishHistory: the month's publishes", () => {
	const usage = (used: number) => ({
		month: '2026-11',
		used,
		budget: 40,
		warnAt: 32,
		warned: used >= 32,
		atBudget: used >= 40,
		ceiling: 50,
		waiting: 0,
		liveBy: null,
		daily: false,
	});

	/** History with the month's status and schedule answered as the functions answer them. */
	async function mountWith(status: object, scheduled: object[] = []) {
		const fetch = vi.fn(async (input: RequestInfo | URL) => {
			const url = String(input);
			if (url === '/api/publish-status') return Response.json(status);
			if (url.startsWith('/api/publish-schedule')) return Response.json({ scheduled });
			return Response.json({ entries: ENTRIES });
		});
		const screen = await mount(fetch as unknown as typeof globalThis.fetch, {
			timeZone: 'America/Chicago',
		});
		return within(screen.getByRole('heading', { name: 'This month' }).parentElement!);
	}

	it('below 80 % of the budget: the count, and nothing more', async () => {
		const month = await mountWith({ publishes: [], usage: usage(31), waiting: [] });
		expect(month.getByText(/^Publishes this month/).textContent).toBe(
			'Publishes this month: 31 of 40 (each publish is a production deploy on Netlify, 15 credits: 465 so far).',
		);
		expect(month.queryByText(/publishes are used/)).toBeNull();
		expect(month.getByText('Nothing waits for a publish.')).toBeTruthy();
	});

	it('from 80 %, before the budget is reached, it says what happens at the budget', async () => {
		const month = await mountWith({ publishes: [], usage: usage(32), waiting: [] });
		expect(month.getByText(/^Publishes this month/).textContent).toContain(
			'Publishes this month: 32 of 40',
		);
		expect(month.getByText(/publishes are used/).textContent).toBe(
			"32 of this month's 40 publishes are used. At 40, members' changes, syncs and imports go live once a day, and each publish asks first.",
		);
	});

	it('a scheduled publish written at the budget: when it is live, not that it went live; once a publish took it, when', async () => {
		const written = {
			id: 6,
			runAt: '2026-11-24T15:00:00.000Z',
			kind: 'save',
			summary: '1 change: content.heroTitle',
			state: 'published',
			createdBy: 'editor@demo.test',
			createdAt: '2026-11-23T10:00:00.000Z',
			finishedAt: '2026-11-24T15:00:00.000Z',
			canceledBy: null,
			error: null,
			publishId: null,
			liveAt: null,
		};
		const month = await mountWith(
			{
				publishes: [],
				usage: { ...usage(40), waiting: 1, liveBy: '2026-11-25T06:00:00.000Z', daily: true },
				waiting: [
					{
						id: 8,
						source: 'scheduled',
						summary: 'Scheduled by editor@demo.test: 1 change: content.heroTitle',
						businessId: null,
						requestedBy: null,
						createdAt: '2026-11-24T15:00:00.000Z',
						dueAt: '2026-11-25T06:00:00.000Z',
						daily: true,
					},
				],
			},
			[
				written,
				{
					...written,
					id: 7,
					runAt: '2026-11-21T15:00:00.000Z',
					finishedAt: '2026-11-21T15:00:00.000Z',
					liveAt: '2026-11-22T06:04:00.000Z',
				},
				{ ...written, id: 5, runAt: '2026-11-20T15:00:00.000Z', publishId: 30 },
			],
		);
		expect(month.getByRole('listitem').textContent).toBe(
			'Live on the site by Nov 25, 00:00 (the daily publish: the month’s budget is used): Scheduled by editor@demo.test: 1 change: content.heroTitle. A scheduled publish, saved Nov 24, 09:00.',
		);
		const list = within(container).getByRole('heading', { name: 'Scheduled' }).parentElement!;
		expect(
			within(list)
				.getAllByRole('listitem')
				.map((li) => li.textContent),
		).toEqual([
			'Written Nov 24, 2026, 09:00 CST, live with the next publish: 1 change: content.heroTitle, scheduled by editor@demo.test',
			// The daily publish took the one written at the budget the day before.
			'Written Nov 21, 2026, 09:00 CST, live Nov 22, 2026, 00:04 CST: 1 change: content.heroTitle, scheduled by editor@demo.test',
			'Went live Nov 20, 2026, 09:00 CST: 1 change: content.heroTitle, scheduled by editor@demo.test',
		]);
	});
});
