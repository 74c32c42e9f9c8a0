import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { eventPath, type Event } from '../../src/features/events/events.ts';
import { getTenantBySlug } from '../../src/features/tenants/tenants.server.ts';
import { serviceClient, useSession, withDatabase } from './admin-support.ts';
import { DATA_DIR } from './e2e-env.ts';

// The fallback error screen in the built site: an island that throws while
// rendering (public and admin) and a page rendered on demand that fails, each showing the screen
// with an error id that the failure's log line carries too (the browser's console for an island,
// the server's log for the page).
//
// How the failures are made, without a test hook in the product:
// - islands: the visitor's browser lacks a standard function the island calls while rendering,
//   as a browser older than the site's target does (Array.prototype.at before Chrome 92 and
//   Safari 15.4, String.prototype.replaceAll before Chrome 85), set up with an init script;
// - the on-demand page: the chamber's configuration row stops validating (as after a hand edit in
//   the database), so the event page cannot load its data; the test puts it back afterwards.

const ERROR_ID = /^[0-9a-f]{8}$/;

/** The console's error lines, as the browser reports them. */
function consoleErrors(page: Page): string[] {
	const lines: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error') lines.push(message.text());
	});
	return lines;
}

/**
 * The line of the server's log (`npm start`'s output, which playwright.config.ts also writes to
 * the data folder) that starts with the error id, if there is one yet.
 */
async function serverLogLine(id: string): Promise<string | undefined> {
	const log = await readFile(join(DATA_DIR, 'server.log'), 'utf8').catch(() => '');
	return log.split('\n').find((line) => line.startsWith(`[error ${id}]`));
}

/** The id the screen shows. */
async function shownId(page: Page): Promise<string> {
	const id =
		(await page
			.getByText(/^Error ID:/)
			.locator('code')
			.textContent()) ?? '';
	expect(id).toMatch(ERROR_ID);
	return id;
}

async function firstEvent(page: Page): Promise<Event> {
	const response = await page.request.get('/api/events');
	expect(response.status()).toBe(200);
	const event = ((await response.json()) as { Result: Event[] }).Result[0];
	if (!event) throw new Error('/api/events answered no event');
	return event;
}

/**
 * The database refusing the site a read while `run` runs: visitors' access to the cache
 * versions, which every configuration read starts with, is taken away, as only a hand change in
 * the database could. (A configuration that does not validate no longer fails a page: the last
 * valid one is served.)
 */
async function withUnreadableDatabase(run: () => Promise<void>): Promise<void> {
	await withDatabase((db) => db.query('revoke select on public.cache_versions from anon'));
	try {
		await run();
	} finally {
		await withDatabase((db) => db.query('grant select on public.cache_versions to anon'));
	}
}

test.describe('an island that throws while rendering', () => {
	test('a public island shows the screen with an id that its console line carries; both buttons work', async ({
		page,
	}) => {
		// A phone, so the calendar opens in its list, which groups events with Array.prototype.at.
		await page.setViewportSize({ width: 400, height: 860 });
		await page.addInitScript(() => {
			delete (Array.prototype as { at?: unknown }).at;
		});
		const errors = consoleErrors(page);
		await page.goto('/events/');

		const main = page.getByRole('main');
		await expect(
			main.getByRole('heading', { level: 2, name: 'Something Went Wrong' }),
		).toBeVisible();
		await expect(
			main.getByText(/An unexpected error stopped this page from loading/),
		).toBeVisible();
		// The rest of the page stays: header, page heading, footer.
		await expect(page.getByRole('banner')).toBeVisible();
		await expect(page.getByRole('contentinfo')).toBeVisible();
		const id = await shownId(page);
		await expect
			.poll(() =>
				errors.filter((line) => line.startsWith(`[error ${id}] island EventsCalendar at /events/`)),
			)
			.toHaveLength(1);
		expect(errors.find((line) => line.startsWith(`[error ${id}]`))).toContain('TypeError');

		// Refresh Page reloads: the island fails again, as a new failure with a new id.
		const reloaded = page.waitForEvent('load');
		await page.getByRole('button', { name: 'Refresh Page' }).click();
		await reloaded;
		await expect(page.getByText(/^Error ID:/).locator('code')).toHaveText(ERROR_ID);
		const again = await shownId(page);
		expect(again).not.toBe(id);
		expect(page.url()).toMatch(/\/events\/$/);

		await page.getByRole('link', { name: 'Go to Homepage' }).click();
		await expect(page).toHaveURL('/');
	});

	test('an admin island shows the same screen', async ({ page }) => {
		await useSession(page, 'admin@demo.test');
		await page.goto('/chamber-config/generator');
		await expect(page.getByRole('heading', { name: 'Configuration Generator' })).toBeVisible();

		// The generator's environment output fills in the slug with String.prototype.replaceAll.
		await page.addInitScript(() => {
			delete (String.prototype as { replaceAll?: unknown }).replaceAll;
		});
		const errors = consoleErrors(page);
		await page.reload();
		await expect(
			page.getByRole('heading', { level: 2, name: 'Something Went Wrong' }),
		).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Configuration Generator' })).toHaveCount(0);
		const id = await shownId(page);
		await expect
			.poll(() =>
				errors.filter((line) =>
					line.startsWith(`[error ${id}] island ConfigGenerator at /chamber-config/generator`),
				),
			)
			.toHaveLength(1);
		await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeEnabled();
		await page.getByRole('link', { name: 'Go to Homepage' }).click();
		await expect(page).toHaveURL('/');
	});
});

test.describe('a page rendered on demand that fails', () => {
	test('answers 500 with the screen inside the chamber header and footer; both buttons work', async ({
		page,
	}) => {
		const event = await firstEvent(page);
		const path = eventPath(event);
		// Read once while the configuration is good, as a visitor before the failure would.
		expect((await page.request.get(path)).status()).toBe(200);
		const service = await serviceClient();
		const tenant = await getTenantBySlug(service, 'demo');
		const { data } = await service
			.from('chamber_config')
			.select('name')
			.eq('tenant_id', tenant.id)
			.single<{ name: string }>();

		await withUnreadableDatabase(async () => {
			const response = await page.goto(path);
			expect(response?.status()).toBe(500);
			expect(response?.headers()['cache-control']).toBe('no-store');
			expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Something Went Wrong');
			await expect(page).toHaveTitle(`Something Went Wrong | ${data?.name}`);
			await expect(page.getByRole('banner')).toBeVisible();
			await expect(page.getByRole('contentinfo')).toContainText(data?.name ?? '');
			await expect(page.getByText(event.EventName)).toHaveCount(0);
			const id = await shownId(page);
			// The server's log line of this failure starts with the same id, the error after it.
			const prefix = `[error ${id}] GET ${path} failed: `;
			await expect
				.poll(async () => (await serverLogLine(id))?.slice(0, prefix.length))
				.toBe(prefix);
			expect(await serverLogLine(id)).toContain('Failed to fetch cache version');

			const reloaded = page.waitForResponse((r) => new URL(r.url()).pathname === path);
			await page.getByRole('button', { name: 'Refresh Page' }).click();
			expect((await reloaded).status()).toBe(500);
			await expect(page.getByText(/^Error ID:/).locator('code')).not.toHaveText(id);

			await page.getByRole('link', { name: 'Go to Homepage' }).click();
			await expect(page).toHaveURL('/');
		});
		expect((await page.request.get(path)).status()).toBe(200);
	});
});
