import { expect, test, type Page, type Request } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import {
	apiEvents,
	dayFromToday,
	eventsStartingIn,
	expectCalendarFeed,
	expectErrorWithRefresh,
	expectLoadsLaterMonths,
	expectNoScrollOnSwitchingViews,
	expectTitled,
	firstLoadEnd,
	grid,
	isEventsCall,
	isLaterLoad,
	monthHeading,
	monthTitle,
	openCalendar,
	openListAtThisMonth,
	today,
	toggle,
	type CalendarPage,
} from './calendar-support.ts';
import { holdIsland, holdRequests } from './island-support.ts';
import { expectWithinScriptBudget } from './script-budget.ts';

// /events, reading A: the List / Calendar page of the chamber's events (demo tenant).

const EVENTS: CalendarPage = { path: '/events', api: '/api/events' };
const MOBILE = { width: 390, height: 800 };

async function open(page: Page, viewport?: { width: number; height: number }) {
	await openCalendar(page, EVENTS, viewport);
}

test.describe('/events', () => {
	test('has the chamber events title, description, canonical and Open Graph tags', async ({
		page,
	}) => {
		await open(page);
		await expectTitled(page, 'Chamber Events', EVENTS.path);
		const description = page.locator('meta[name="description"]');
		await expect(description).toHaveAttribute('content', /Cedar Valley Chamber of Commerce/);
		await expect(description).toHaveAttribute('content', /Cedarbrook, IA/);
		await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
			'content',
			'Chamber Events | Cedar Valley Chamber of Commerce',
		);
		await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', /\/events$/);
		await expectCalendarFeed(page, '/api/events.ics');
	});

	test('shows the calendar from 768 px and the list below, following resizes until the visitor picks', async ({
		page,
	}) => {
		await open(page);
		await expect(toggle(page, 'Calendar')).toHaveAttribute('aria-pressed', 'true');
		await expect(toggle(page, 'List')).toHaveAttribute('aria-pressed', 'false');
		await expect(grid(page)).toBeVisible();

		await page.setViewportSize({ width: 767, height: 900 });
		await expect(toggle(page, 'List')).toHaveAttribute('aria-pressed', 'true');
		await expect(grid(page)).toHaveCount(0);
		await page.setViewportSize({ width: 768, height: 900 });
		await expect(toggle(page, 'Calendar')).toHaveAttribute('aria-pressed', 'true');

		await toggle(page, 'List').click();
		await expect(toggle(page, 'List')).toHaveAttribute('aria-pressed', 'true');
		await page.setViewportSize({ width: 1280, height: 900 });
		await page.setViewportSize({ width: 1100, height: 900 });
		await expect(toggle(page, 'List')).toHaveAttribute('aria-pressed', 'true');
		await expect(grid(page)).toHaveCount(0);

		await open(page, MOBILE);
		await expect(toggle(page, 'List')).toHaveAttribute('aria-pressed', 'true');
		await toggle(page, 'Calendar').click();
		await expect(grid(page)).toBeVisible();
	});

	test('lays out the month Sunday first, names each day with its events, and links every event', async ({
		page,
	}) => {
		await open(page);
		await expect(monthHeading(page)).toBeVisible();
		const headers = grid(page).getByRole('columnheader');
		await expect(headers).toHaveText(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);

		const todayCell = grid(page).getByRole('gridcell', {
			name: new RegExp(`^${format(today, 'EEEE, MMMM d, yyyy')}, (no events|\\d+ events?: .+)$`),
		});
		await expect(todayCell).toHaveAttribute('aria-current', 'date');

		const events = await eventsStartingIn(page, EVENTS.api, 0);
		expect(events.length).toBeGreaterThan(0);
		const first = events[0]!;
		const link = grid(page).getByRole('link', { name: first.EventName }).first();
		await expect(link).toHaveAttribute('href', new RegExp(`^/events/${first.EventId}/[a-z0-9-]+$`));
		const dayName = format(new Date(`${first.StartDate}T12:00:00`), 'EEEE, MMMM d, yyyy');
		const sameDay = events.filter((e) => e.StartDate === first.StartDate).length;
		await expect(
			grid(page).getByRole('gridcell', { name: new RegExp(`^${dayName}, ${sameDay} events?: `) }),
		).toContainText(first.EventName);
		// Where the link leads is the event detail spec's subject (tests/e2e/event-detail.spec.ts).
	});

	test('moves between months with the buttons and the arrow keys', async ({ page }) => {
		await open(page);
		await page.getByRole('button', { name: 'Next month' }).click();
		await expect(monthHeading(page, 1)).toBeVisible();
		await page.getByRole('button', { name: 'Previous month' }).click();
		await page.getByRole('button', { name: 'Previous month' }).click();
		await expect(monthHeading(page, -1)).toBeVisible();
		await page.getByRole('button', { name: 'Next month' }).click();

		const todayCell = grid(page).locator('[aria-current="date"]');
		await todayCell.focus();
		await page.keyboard.press('ArrowDown');
		const weekLater = new Date(today);
		weekLater.setDate(today.getDate() + 7);
		await expect(page.locator(':focus')).toHaveAccessibleName(
			new RegExp(`^${format(weekLater, 'EEEE, MMMM d, yyyy')}, `),
		);
		await page.keyboard.press('PageDown');
		await expect(
			monthHeading(page, format(weekLater, 'M') === format(today, 'M') ? 1 : 2),
		).toBeVisible();

		// Tab goes from a day into its events.
		const busyDay = grid(page)
			.getByRole('gridcell', { name: /, \d+ events?: / })
			.first();
		await busyDay.click({ position: { x: 5, y: 5 } });
		await expect(busyDay).toBeFocused();
		await page.keyboard.press('Tab');
		await expect(page.locator(':focus')).toHaveAttribute('href', /^\/events\/\d+\//);
	});

	test('loads three more months when the calendar moves past the loaded range, one fetch at a time', async ({
		page,
	}) => {
		let inFlight = 0;
		let mostInFlight = 0;
		page.on('request', (request) => {
			if (isLaterLoad(request)) mostInFlight = Math.max(mostInFlight, ++inFlight);
		});
		const settle = (request: Request) => {
			if (isLaterLoad(request)) inFlight--;
		};
		page.on('requestfinished', settle);
		page.on('requestfailed', settle);

		const later = await expectLoadsLaterMonths(page, EVENTS);
		// The three months right after the first load.
		const url = new URL(later[0]!.url());
		const dayAfter = format(addDays(new Date(`${firstLoadEnd}T12:00:00`), 1), 'yyyy-MM-dd');
		expect(url.searchParams.get('startDate')).toBe(dayAfter);
		expect(url.searchParams.get('endDate')!.slice(0, 7)).toBe(dayFromToday(6).slice(0, 7));

		// Racing ahead never runs two load-more fetches at once.
		for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Next month' }).click();
		await expect(monthHeading(page, 9)).toBeVisible();
		await expect.poll(() => later.length).toBeGreaterThan(1);
		await expect(
			page.getByRole('status').filter({ hasText: 'Loading more events...' }),
		).toHaveCount(0);
		expect(mostInFlight).toBe(1);
	});

	test("shows 'Loading more events...' over the calendar while more events load", async ({
		page,
	}) => {
		const later = await holdRequests(
			page,
			(url) =>
				url.pathname === '/api/events' && (url.searchParams.get('startDate') ?? '') > firstLoadEnd,
		);
		await open(page);
		for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Next month' }).click();
		await expect(page.getByRole('status')).toHaveText('Loading more events...');
		later.release();
		await expect(
			page.getByRole('status').filter({ hasText: 'Loading more events...' }),
		).toHaveCount(0);
	});

	test('keeps the calendar when loading more fails, logging it', async ({ page }) => {
		const errors: string[] = [];
		page.on('console', (message) => {
			if (message.type() === 'error') errors.push(message.text());
		});
		await page.route(
			(url) =>
				url.pathname === '/api/events' && (url.searchParams.get('startDate') ?? '') > firstLoadEnd,
			(route) => route.fulfill({ status: 502, json: { error: 'Failed to fetch events' } }),
		);
		await open(page);
		for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Next month' }).click();
		await expect
			.poll(() => errors.some((e) => e.includes('Failed to load more events')))
			.toBe(true);
		await expect(monthHeading(page, 4)).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Error Loading Events' })).toHaveCount(0);
		for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Previous month' }).click();
		await expect(grid(page).getByRole('link').first()).toBeVisible();
	});

	test('groups the list by month under sticky headings, opened at the current month once', async ({
		page,
	}) => {
		const current = await openListAtThisMonth(page, EVENTS, MOBILE);
		await expect(monthHeading(page, 1)).toBeAttached();

		// Scrolled further into the month, its heading stays on top.
		await page.mouse.wheel(0, 400);
		await expect.poll(async () => Math.abs((await current.boundingBox())?.y ?? 99)).toBeLessThan(2);
		expect(await current.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');

		// Each item: linked name, date, start-end time with the zone, venue.
		const section = page.locator('section', { has: current });
		const item = section.getByRole('article').first();
		await expect(item.getByRole('link')).toHaveAttribute('href', /^\/events\/\d+\/[a-z0-9-]+$/);
		const text = (await item.innerText()).split('\n').map((line) => line.trim());
		expect(text.some((line) => /^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}/.test(line))).toBe(
			true,
		);
		expect(
			text.some((line) =>
				/^(\d{1,2}:\d{2} [AP]M – \d{1,2}:\d{2} [AP]M C[SD]T|All Day)$/.test(line),
			),
		).toBe(true);

		await expectNoScrollOnSwitchingViews(page, current);
	});

	test('on a phone the list shows two months at a time; Show more and Show earlier add months', async ({
		page,
	}) => {
		// The months of the first load that have events, as the list groups them.
		const events = await apiEvents(page, '/api/events', dayFromToday(-3), firstLoadEnd);
		const titles = [...new Set(events.map((e) => e.StartDate.slice(0, 7)))]
			.sort()
			.map((month) => format(new Date(`${month}-15T12:00:00`), 'MMMM yyyy'));
		const current = titles.indexOf(monthTitle(0));
		expect(current).toBeGreaterThan(1);
		// The first load ends three months ahead: past the two months shown first it holds at least
		// one more whole month to add (a fourth only when events fall in its first days).
		expect(titles.length - current).toBeGreaterThan(2);

		await open(page, MOBILE);
		const headings = page.locator('.ev-list__month');
		await expect(headings).toHaveText(titles.slice(current, current + 2));
		expect(await page.locator('.ev-list').evaluate((el) => el.scrollHeight)).toBeLessThan(4000);

		await page.getByRole('button', { name: 'Show more events' }).click();
		await expect(headings).toHaveText(titles.slice(current, current + 4));
		await expect(headings.nth(2)).toBeFocused();

		await page.getByRole('button', { name: 'Show earlier events' }).click();
		await expect(headings).toHaveText(titles.slice(current - 2, current + 4));
		await expect(headings.first()).toBeFocused();
	});

	test('shows no control before the island runs, so no click can be lost', async ({ page }) => {
		const island = await holdIsland(page, 'EventsCalendar');
		await page.setViewportSize(MOBILE);
		await page.goto('/events', { waitUntil: 'domcontentloaded' });
		await island.requested;
		await expect(page.getByRole('status')).toHaveText('Loading events...');
		await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
		island.release();
		await toggle(page, 'Calendar').click();
		await expect(grid(page)).toBeVisible();
	});

	test("asks for the first events while the island's script is still loading, and only once", async ({
		page,
	}) => {
		const calls: string[] = [];
		page.on('request', (request) => {
			if (isEventsCall(request)) calls.push(request.url());
		});
		const island = await holdIsland(page, 'EventsCalendar');
		const asked = page.waitForRequest((request) => isEventsCall(request));
		await page.setViewportSize(MOBILE);
		await page.goto('/events', { waitUntil: 'domcontentloaded' });
		await island.requested;
		await asked;
		await expect(page.getByRole('status')).toHaveText('Loading events...');
		island.release();
		await expect(monthHeading(page)).toBeVisible();
		expect(calls).toHaveLength(1);
	});

	test("says 'Loading events...' until the events arrive", async ({ page }) => {
		const events = await holdRequests(page, (url) => url.pathname === '/api/events');
		await open(page);
		await expect(page.getByRole('status')).toHaveText('Loading events...');
		events.release();
		await expect(grid(page)).toBeVisible();
	});

	test("shows 'Error Loading Events' with a working 'Refresh Page' when the events fail", async ({
		page,
	}) => {
		await expectErrorWithRefresh(page, EVENTS, 'Error Loading Events', ['Failed to load events']);
	});

	test('calls the events API with the current cache version', async ({ page }) => {
		const calls: string[] = [];
		page.on('request', (request) => {
			if (isEventsCall(request)) calls.push(request.url());
		});
		await open(page);
		await expect(grid(page)).toBeVisible();
		const answer = await page.request.get('/api/cache-version?type=events');
		const { version } = (await answer.json()) as { version: number };
		expect(new URL(calls[0]!).searchParams.get('v')).toBe(String(version));
	});

	test(
		'ships at most 80 KB of gzipped script, React included',
		IN_FULL_BROWSER,
		async ({ page }) => {
			await expectWithinScriptBudget(page, '/events');
		},
	);
});
