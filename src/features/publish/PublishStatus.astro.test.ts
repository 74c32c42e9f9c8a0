// @vitest-environment happy-dom
import { within } from '@testing-library/dom';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PublishStatus from './PublishStatus.tsx';
import { POLL_ACTIVE_MS, POLL_IDLE_MS, type PublishState, type PublishView } from './publish.ts';
import { publishRequested } from './store.ts';

// The panel's publish status as a user meets it: rendered by React into a DOM, polling the
// status function (a scripted fetch) on a fake clock, found by role and text.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const TODAY_1432 = new Date(2026, 10, 23, 14, 32);
const NOW = new Date(2026, 10, 23, 15, 5);

function publish(id: number, state: PublishState, extra: Partial<PublishView> = {}): PublishView {
	return {
		id,
		state,
		reason: 'Content saved',
		requestedBy: 'admin@demo.test',
		requestedAt: new Date(TODAY_1432.getTime() - 60_000).toISOString(),
		requests: 1,
		startedAt: state === 'queued' ? null : new Date(TODAY_1432.getTime() - 30_000).toISOString(),
		finishedAt: state === 'live' || state === 'failed' ? TODAY_1432.toISOString() : null,
		error: state === 'failed' ? 'The site could not be built: Invalid chamber configuration' : null,
		deployId: null,
		...extra,
	};
}

interface Call {
	url: string;
	method: string;
	authorization: string | null;
	body: string | null;
}

/** A fetch answering from scripted status lists; records every call. */
function scriptedFetch(statuses: PublishView[][], onPublish?: () => PublishView) {
	const calls: Call[] = [];
	let index = 0;
	const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
		const headers = new Headers(init.headers);
		calls.push({
			url: String(input),
			method: init.method ?? 'GET',
			authorization: headers.get('authorization'),
			body: typeof init.body === 'string' ? init.body : null,
		});
		if (String(input) === '/api/publish' && onPublish) {
			return Response.json({ publish: onPublish(), created: true }, { status: 202 });
		}
		const publishes = statuses[Math.min(index++, statuses.length - 1)] ?? [];
		return Response.json({ publishes });
	});
	return { fetch, calls };
}

let root: Root | null = null;
let container: HTMLElement;

async function mount(fetch: typeof globalThis.fetch) {
	container = document.createElement('div');
	document.body.append(container);
	root = createRoot(container);
	await act(async () => {
		root?.render(
			createElement(PublishStatus, {
				getAccessToken: async () => 'token-123',
				fetch,
				now: () => new Date(),
			}),
		);
	});
	await settle();
	return within(container);
}

/** Lets pending answers arrive (fetch, JSON) without moving the clock. */
async function settle() {
	await act(async () => {
		await vi.advanceTimersByTimeAsync(0);
	});
}

async function wait(ms: number) {
	await act(async () => {
		await vi.advanceTimersByTimeAsync(ms);
	});
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
	vi.setSystemTime(NOW);
});

afterEach(async () => {
	await act(async () => root?.unmount());
	root = null;
	container?.remove();
	vi.useRealTimers();
});

describe('PublishStatus', () => {
	it("says 'Publishing…' while a build runs, checks every few seconds, then 'Live since 14:32'", async () => {
		const { fetch, calls } = scriptedFetch([
			[publish(7, 'building')],
			[publish(7, 'building')],
			[publish(7, 'live'), publish(6, 'live')],
		]);
		const screen = await mount(fetch);

		const status = screen.getByRole('status');
		expect(status.textContent).toContain('Publishing…');
		expect(status.getAttribute('aria-live')).toBe('polite');
		expect(calls[0]).toMatchObject({
			url: '/api/publish-status',
			method: 'GET',
			authorization: 'Bearer token-123',
		});
		expect(screen.queryByRole('link', { name: 'View live site' })).toBeNull();

		await wait(POLL_ACTIVE_MS);
		expect(calls).toHaveLength(2);
		expect(screen.getByRole('status').textContent).toContain('Publishing…');

		await wait(POLL_ACTIVE_MS);
		expect(calls).toHaveLength(3);
		expect(screen.getByRole('status').textContent).toBe('Live since 14:32');
		const link = screen.getByRole('link', { name: 'View live site' });
		expect(link.getAttribute('href')).toBe('/');

		// Live: the next check comes only after the idle interval.
		await wait(POLL_ACTIVE_MS * 3);
		expect(calls).toHaveLength(3);
		await wait(POLL_IDLE_MS - POLL_ACTIVE_MS * 3);
		expect(calls).toHaveLength(4);
	});

	it('names the day when the site went live before today', async () => {
		const yesterday = new Date(2026, 10, 22, 9, 15).toISOString();
		const { fetch } = scriptedFetch([[publish(3, 'live', { finishedAt: yesterday })]]);
		const screen = await mount(fetch);
		expect(screen.getByRole('status').textContent).toBe('Live since Nov 22, 09:15');
	});

	it("shows 'Publish failed: {reason}' with Retry, which publishes again", async () => {
		const { fetch, calls } = scriptedFetch(
			[[publish(8, 'failed')], [publish(9, 'queued'), publish(8, 'failed')]],
			() => publish(9, 'queued', { reason: 'Retry' }),
		);
		const screen = await mount(fetch);
		expect(screen.getByRole('status').textContent).toBe(
			'Publish failed: The site could not be built: Invalid chamber configuration',
		);
		const retry = screen.getByRole('button', { name: 'Retry' });

		await act(async () => retry.click());
		await settle();

		const post = calls.find((c) => c.method === 'POST');
		expect(post).toMatchObject({
			url: '/api/publish',
			authorization: 'Bearer token-123',
			body: JSON.stringify({ reason: 'Retry' }),
		});
		expect(screen.getByRole('status').textContent).toContain('Publishing…');
		expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
	});

	it('an older failure does not matter once a later build went live', async () => {
		const { fetch } = scriptedFetch([[publish(5, 'live'), publish(4, 'failed')]]);
		const screen = await mount(fetch);
		expect(screen.getByRole('status').textContent).toBe('Live since 14:32');
		expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
	});

	it('checks at once when the panel saved a change, not a minute later', async () => {
		const { fetch, calls } = scriptedFetch([[publish(1, 'live')], [publish(2, 'queued')]]);
		const screen = await mount(fetch);
		expect(calls).toHaveLength(1);

		await act(async () => publishRequested());
		await settle();

		expect(calls).toHaveLength(2);
		expect(screen.getByRole('status').textContent).toContain('Publishing…');
	});

	it('says why a check failed and keeps what it knew', async () => {
		let call = 0;
		const fetch = vi.fn(async () => {
			call++;
			if (call === 1) return Response.json({ publishes: [publish(1, 'building')] });
			return Response.json(
				{ error: 'Your session has expired. Please sign in again.' },
				{ status: 401 },
			);
		});
		const screen = await mount(fetch as unknown as typeof globalThis.fetch);
		await wait(POLL_ACTIVE_MS);
		expect(screen.getByRole('alert').textContent).toBe(
			'Your session has expired. Please sign in again.',
		);
		expect(screen.getByRole('status').textContent).toContain('Publishing…');
		// Still checking as often as while a build runs.
		await wait(POLL_ACTIVE_MS);
		expect(fetch).toHaveBeenCalledTimes(3);
	});

	it('stops polling when it is removed from the page', async () => {
		const { fetch, calls } = scriptedFetch([[publish(1, 'building')]]);
		await mount(fetch);
		await act(async () => root?.unmount());
		root = null;
		await wait(POLL_IDLE_MS * 2);
		expect(calls).toHaveLength(1);
	});

	it('says the budget is nearly used from 80 % of it, before it is reached', async () => {
		const usage = (used: number) => ({
			month: '2026-11',
			used,
			budget: 40,
			warnAt: 32,
			warned: used >= 32,
			atBudget: false,
			ceiling: 50,
			waiting: 0,
			liveBy: null,
			daily: false,
		});
		let used = 31;
		const fetch = vi.fn(async () =>
			Response.json({ publishes: [publish(11, 'live')], usage: usage(used), waiting: [] }),
		);
		const screen = await mount(fetch as unknown as typeof globalThis.fetch);
		const month = () => screen.getByText('Publishes this month:', { exact: false });
		expect(month().textContent).toBe('Publishes this month: 31 of 40');
		expect(month().className).not.toContain('warning');

		// The month's 32nd publish is counted: the header says so at the next check.
		used = 32;
		await act(async () => publishRequested());
		await settle();
		expect(month().textContent).toBe(
			"Publishes this month: 32 of 40 Nearly used: at 40, members' changes go out once a day.",
		);
		expect(month().className).toContain('publish-status__month--warning');
		expect(screen.queryByRole('dialog')).toBeNull();
	});

	it("shows the month's publishes and what waits; at the budget 'Publish now' asks, naming the cost", async () => {
		const usage = {
			month: '2026-11',
			used: 40,
			budget: 40,
			warnAt: 32,
			warned: true,
			atBudget: true,
			waiting: 1,
			liveBy: '2026-11-24T06:00:00.000Z',
			daily: true,
		};
		const waiting = [
			{
				id: 3,
				source: 'member',
				summary: 'Lakeside Bakery: Phone',
				businessId: 'b-1',
				requestedBy: 'owner@bakery.test',
				createdAt: NOW.toISOString(),
				dueAt: '2026-11-24T06:00:00.000Z',
				daily: true,
			},
		];
		const calls: Call[] = [];
		const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
			calls.push({
				url: String(input),
				method: init.method ?? 'GET',
				authorization: null,
				body: typeof init.body === 'string' ? init.body : null,
			});
			if (String(input) === '/api/publish') {
				const body = JSON.parse(String(init.body)) as { confirm?: boolean };
				if (!body.confirm) {
					return Response.json(
						{
							error: "This month's 40 publishes are used",
							budget: { used: 40, budget: 40, cost: 15 },
							waiting: { dueAt: usage.liveBy, daily: true },
						},
						{ status: 409 },
					);
				}
				return Response.json(
					{ publish: publish(12, 'queued', { reason: 'Publish now' }), created: true },
					{ status: 202 },
				);
			}
			return Response.json({ publishes: [publish(11, 'live')], usage, waiting });
		});
		const screen = await mount(fetch as unknown as typeof globalThis.fetch);
		expect(screen.getByText('Publishes this month: 40 of 40', { exact: false }).textContent).toBe(
			"Publishes this month: 40 of 40 The budget is used: members' changes go out once a day.",
		);
		// Times on the chamber's clock (the default, New York): tomorrow at 01:00.
		expect(
			screen.getByText('1 change waits for a publish: live on the site by Nov 24, 01:00'),
		).toBeTruthy();

		await act(async () => screen.getByRole('button', { name: 'Publish now' }).click());
		await settle();
		const dialog = screen.getByRole('dialog', { name: 'Publish past this month’s budget?' });
		expect(within(dialog).getByText(/costs 15 more Netlify credits/).textContent).toBe(
			"This month's 40 publishes are used (40 so far). Publishing now is publish 41 of the month and costs 15 more Netlify credits (615 credits of deploys this month). Without it, the changes go live with the daily publish.",
		);
		await act(async () =>
			within(dialog).getByRole('button', { name: 'Publish for 15 credits' }).click(),
		);
		await settle();
		expect(calls.filter((c) => c.url === '/api/publish').map((c) => c.body)).toEqual([
			JSON.stringify({ reason: 'Publish now' }),
			JSON.stringify({ reason: 'Publish now', confirm: true }),
		]);
		expect(screen.queryByRole('dialog')).toBeNull();
	});
});
