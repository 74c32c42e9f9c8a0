// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	advance,
	backend,
	cleanup,
	on,
	render,
	tabProps,
	type Backend,
} from '../../ui/test-support.ts';
import CacheTab from './CacheTab.tsx';

const versions = () =>
	on('GET', '/rest/v1/cache_versions', () =>
		Response.json([
			{ type: 'config', version: 9 },
			{ type: 'events', version: 3 },
			{ type: 'community_events', version: 1 },
			{ type: 'event_details', version: 2 },
			{ type: 'categories', version: 5 },
		]),
	);

const historyRows = (n: number) =>
	Array.from({ length: n }, (_, i) => ({
		id: 100 - i,
		user_email: i % 2 ? 'admin@demo.test' : 'super@demo.test',
		purge_type: i % 2 ? 'events' : 'categories',
		created_at: new Date(Date.UTC(2026, 10, 3, 14, 30 - i)).toISOString(),
	}));

function refreshButtons() {
	return screen.getAllByRole('button', { name: /^Refresh .* cache$/ }) as HTMLButtonElement[];
}

afterEach(() => {
	cleanup();
	vi.useRealTimers();
});

describe('CacheTab', () => {
	it('shows the four cards with their current versions', async () => {
		const server = backend(versions());
		await render(CacheTab, tabProps('admin', server));
		for (const [title, version] of [
			['Chamber Events', 3],
			['Community Events', 1],
			['Event Details', 2],
			['Categories', 5],
		] as const) {
			const card = screen.getByRole('region', { name: title });
			await within(card).findByText(`Current version: ${version}`);
			within(card).getByRole('button', { name: `Refresh ${title} cache` });
		}
		// An admin sees no history (super_admin only), and the tab never asked for it.
		expect(screen.queryByRole('heading', { name: 'Cache Refresh History' })).toBeNull();
		expect(server.requests.some((r) => r.path === '/rest/v1/cache_purge_log')).toBe(false);
	});

	it('a refresh disables every button, sends the bearer call, shows the new version and clears the success after 5 s', async () => {
		vi.useFakeTimers();
		const { promise: answered, resolve: release } = Promise.withResolvers<void>();
		const server: Backend = backend(
			versions(),
			on('POST', '/api/admin/increment-cache-version', async () => {
				await answered;
				return Response.json({ newVersion: 4, publish: null });
			}),
		);
		await render(CacheTab, tabProps('admin', server));
		await screen.findByText('Current version: 3');
		fireEvent.click(screen.getByRole('button', { name: 'Refresh Chamber Events cache' }));
		await waitFor(() => expect(refreshButtons().every((b) => b.disabled)).toBe(true));
		screen.getByText('Refreshing...');
		release();
		await screen.findByText('Chamber Events cache refreshed (now version 4)');
		screen.getByText('Current version: 4');
		expect(refreshButtons().every((b) => !b.disabled)).toBe(true);
		const call = server.requests.find((r) => r.path === '/api/admin/increment-cache-version')!;
		expect(call.headers.get('authorization')).toBe('Bearer user-token');
		expect(call.body).toEqual({ resourceType: 'events', chamber: 'demo' });
		await advance(4_900);
		screen.getByText('Chamber Events cache refreshed (now version 4)');
		await advance(200);
		expect(screen.queryByText(/cache refreshed/)).toBeNull();
	});

	it('a failure shows the server’s text, or its own, for 8 s', async () => {
		vi.useFakeTimers();
		let answer = Response.json(
			{ error: 'Only a chamber admin can refresh its caches' },
			{ status: 403 },
		);
		const server = backend(
			versions(),
			on('POST', '/api/admin/increment-cache-version', () => answer),
		);
		await render(CacheTab, tabProps('admin', server));
		await screen.findByText('Current version: 5');
		fireEvent.click(screen.getByRole('button', { name: 'Refresh Categories cache' }));
		const error = await screen.findByText('Only a chamber admin can refresh its caches');
		expect(error.closest('[role="alert"]')).not.toBeNull();
		answer = new Response('<html>Bad gateway</html>', { status: 502 });
		fireEvent.click(screen.getByRole('button', { name: 'Refresh Categories cache' }));
		await screen.findByText('Failed to refresh cache');
		screen.getByText('Current version: 5');
		await advance(7_900);
		screen.getByText('Failed to refresh cache');
		await advance(200);
		expect(screen.queryByText('Failed to refresh cache')).toBeNull();
	});

	it('a super_admin sees the last 15 refreshes, newest first, read from cache_purge_log', async () => {
		const server = backend(
			versions(),
			on('GET', '/rest/v1/cache_purge_log', (request) => {
				expect(request.query.get('limit')).toBe('15');
				expect(request.query.get('order')).toBe('created_at.desc,id.desc');
				expect(request.query.get('tenant_id')).toBe('eq.11111111-1111-4111-8111-111111111111');
				return Response.json(historyRows(15));
			}),
		);
		await render(CacheTab, tabProps('super_admin', server));
		screen.getByRole('heading', { name: 'Cache Refresh History' });
		const rows = await screen.findAllByRole('row');
		expect(rows).toHaveLength(16);
		expect(
			within(rows[1]!)
				.getAllByRole('cell')
				.map((c) => c.textContent),
		).toEqual([expect.stringContaining('Nov 3, 2026'), 'super@demo.test', 'Categories']);
		expect(within(rows[2]!).getAllByRole('cell')[2]!.textContent).toBe('Chamber Events');
	});

	it('an editor gets nothing to press', async () => {
		await render(CacheTab, tabProps('editor', backend(versions())));
		expect(screen.queryAllByRole('button')).toEqual([]);
	});
});
