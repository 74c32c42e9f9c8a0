import { expect, test, type Page } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { startOfWeek } from 'date-fns/startOfWeek';
import {
	apiEvents,
	dayFromToday,
	expectCalendarFeed,
	expectTitled,
	failEventsCalls,
	firstLoadEnd,
	eventsStartingIn,
	isEventsCall,
	laterLoads,
	monthTitle,
	serveWithIslandProps,
	today,
} from './calendar-support.ts';
import { expectNoAxeViolations } from './a11y-support.ts';
import type { ChamberConfig } from '../../src/features/config/config.ts';
import { agendaProps } from '../../src/features/events/pages.ts';
import { demoConfig } from './directory-helpers.ts';
import { adminSession, withDatabase } from './admin-support.ts';
import { holdRequests } from './island-support.ts';
import { expectWithinScriptBudget } from './script-budget.ts';

// /events-list, reading B: day / week / month lists beside a mini calendar, the featured event
// and the event type filters, for chamber and community events (demo tenant).

const header = (page: Page) => page.getByRole('heading', { level: 2, name: /^EVENTS FOR / });
const list = (page: Page) => page.getByRole('region', { name: /^EVENTS FOR / });
const rows = (page: Page) => list(page).getByRole('article');
const calendar = (page: Page) => page.getByRole('grid');
const filters = (page: Page) => page.getByRole('group', { name: 'EVENT FILTERS:' });
const featured = (page: Page) => page.getByRole('region', { name: 'Featured Event' });
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
/** A mini-calendar day, by its full date: 'Saturday, November 22, 2026, 2 events'. */
const day = (page: Page, date: Date) =>
	calendar(page).getByRole('button', {
		name: new RegExp(`^${format(date, 'EEEE, MMMM d, yyyy')}, `),
	});

const dayHeader = (date: Date) => `EVENTS FOR ${format(date, 'MMM d').toUpperCase()}`;
const monthHeader = (offset = 0) => `EVENTS FOR ${monthTitle(offset).toUpperCase()}`;

async function open(page: Page) {
	await page.setViewportSize({ width: 1280, height: 1000 });
	await page.goto('/events-list');
	await expect(calendar(page)).toBeVisible();
	await expect(page.getByText('Loading events...')).toHaveCount(0);
}

/** The first day button, from this month on, whose name counts at least two events. */
async function findBusyDay(page: Page) {
	for (let month = 0; month < 6; month++) {
		// Count only once the month is shown with its events: a month past the first load fetches
		// its events after the click, behind 'Loading more events...'.
		await expect(calendar(page)).toHaveAccessibleName(monthTitle(month));
		await expect(page.getByText('Loading more events...')).toHaveCount(0);
		const busy = calendar(page).getByRole('button', { name: /, ([2-9]|\d\d+) events$/ });
		if ((await busy.count()) > 0) return busy.first();
		await button(page, 'Show next month').click();
	}
	throw new Error('No day with two or more events in the next six months');
}

test.describe('/events-list', () => {
	test('has the Events Calendar heading, the source tabs with their labels and the calendar feed', async ({
		page,
	}) => {
		await open(page);
		await expectTitled(page, 'Events Calendar', '/events-list');
		await expect(page.locator('meta[name="description"]')).toHaveAttribute(
			'content',
			/Cedar Valley Chamber of Commerce in Cedarbrook, IA/,
		);
		await expect(page.getByRole('tab')).toHaveText(['Chamber Events', 'Community Events']);
		await expect(tab(page, 'Chamber Events')).toHaveAttribute('aria-selected', 'true');
		await expectCalendarFeed(page, '/api/events.ics');

		await tab(page, 'Chamber Events').focus();
		await page.keyboard.press('ArrowRight');
		await expect(tab(page, 'Community Events')).toBeFocused();
		await expect(tab(page, 'Community Events')).toHaveAttribute('aria-selected', 'true');
		await expect(page.getByRole('tabpanel', { name: 'Community Events' })).toBeVisible();
		await expectCalendarFeed(page, '/api/events.ics?source=community');
		await page.keyboard.press('Home');
		await expect(tab(page, 'Chamber Events')).toHaveAttribute('aria-selected', 'true');
	});

	test('opens on today in day mode, today and the selected day marked in the calendar', async ({
		page,
	}) => {
		await open(page);
		await expect(header(page)).toHaveText(dayHeader(today));
		await expect(button(page, 'Day')).toHaveAttribute('aria-pressed', 'true');
		await expect(page.getByRole('button', { name: monthTitle(), exact: true })).toBeVisible();
		await expect(calendar(page).getByRole('columnheader')).toHaveText([
			'Sun',
			'Mon',
			'Tue',
			'Wed',
			'Thu',
			'Fri',
			'Sat',
		]);
		await expect(day(page, today)).toHaveAttribute('aria-current', 'date');
		await expect(calendar(page).locator('[aria-selected="true"]')).toHaveCount(1);
		await expect(
			calendar(page).locator('[aria-selected="true"]').getByRole('button'),
		).toHaveAttribute('aria-current', 'date');
	});

	test("outlines days with events, '+N' for the events beyond one, and lists a clicked day's events", async ({
		page,
	}) => {
		await open(page);
		const busy = await findBusyDay(page);
		// The day's name is its text less the '+N' shown beside the date, which is hidden from it.
		const name = (await busy.textContent())!.replace(/\+\d+$/, '');
		const count = Number(/, (\d+) events$/.exec(name)![1]);
		await expect(busy).toContainText(`+${count - 1}`);
		const single = calendar(page)
			.getByRole('button', { name: /, 1 event$/ })
			.first();
		await expect(single).not.toContainText('+');

		await busy.click();
		const date = new Date(name.replace(/, \d+ events$/, '').replace(/^\w+, /, ''));
		await expect(header(page)).toHaveText(dayHeader(date));
		await expect(rows(page)).toHaveCount(count);
		const first = rows(page).first();
		await expect(first.getByRole('link')).toHaveAttribute('href', /^\/events\/\d+\/[a-z0-9-]+$/);
		// A multi-day event shows its range ('Wednesday, December 30, 2026 – Friday, January 1,
		// 2027'), which must cover the clicked day; a one-day event shows that day.
		const when = (await first.locator('.ev-summary__when span').first().textContent())!;
		const ends = when.split(' – ').map((part) => new Date(part.replace(/^\w+, /, '')));
		const from = ends[0]!;
		const to = ends.at(-1)!;
		expect(from.getTime()).toBeLessThanOrEqual(date.getTime());
		expect(to.getTime()).toBeGreaterThanOrEqual(date.getTime());
		if (from.getTime() === to.getTime()) expect(when).toBe(format(date, 'EEEE, MMMM d, yyyy'));
		await expect(first).toContainText(/\d{1,2}:\d{2} [AP]M – \d{1,2}:\d{2} [AP]M C[SD]T|All Day/);
		await expect(first.locator('.ev-summary__venue')).not.toBeEmpty();
	});

	test('toggles between day and month view when the selected day is clicked again', async ({
		page,
	}) => {
		await open(page);
		await day(page, today).click();
		await expect(header(page)).toHaveText(monthHeader());
		await expect(button(page, 'Month')).toHaveAttribute('aria-pressed', 'true');
		const month = format(today, 'yyyy-MM');
		const events = await apiEvents(page, '/api/events', `${month}-01`, dayFromToday(1));
		const inMonth = events.filter(
			(e) => e.StartDate.startsWith(month) || e.EndDate.startsWith(month),
		);
		await expect(rows(page)).toHaveCount(inMonth.length);
		await day(page, today).click();
		await expect(header(page)).toHaveText(dayHeader(today));
	});

	test('shows the week from its Sunday and moves by day, week and month with the arrows', async ({
		page,
	}) => {
		await open(page);
		await button(page, 'Next day').click();
		await expect(header(page)).toHaveText(dayHeader(addDays(today, 1)));
		await button(page, 'Week').click();
		await expect(header(page)).toHaveText(
			`EVENTS FOR WEEK OF ${format(startOfWeek(addDays(today, 1)), 'MMM d').toUpperCase()}`,
		);
		await button(page, 'Next week').click();
		await expect(header(page)).toHaveText(
			`EVENTS FOR WEEK OF ${format(startOfWeek(addDays(today, 8)), 'MMM d').toUpperCase()}`,
		);
		await button(page, 'Previous week').click();
		await button(page, 'Previous week').click();
		await expect(header(page)).toHaveText(
			`EVENTS FOR WEEK OF ${format(startOfWeek(addDays(today, -6)), 'MMM d').toUpperCase()}`,
		);
		await button(page, 'Month').click();
		await expect(header(page)).toHaveText(
			`EVENTS FOR ${format(addDays(today, -6), 'MMMM yyyy').toUpperCase()}`,
		);
	});

	test('switches to the shown month when its title is clicked', async ({ page }) => {
		await open(page);
		await button(page, 'Show next month').click();
		await button(page, 'Show next month').click();
		await expect(header(page)).toHaveText(dayHeader(today));
		await page.getByRole('button', { name: monthTitle(2), exact: true }).click();
		await expect(header(page)).toHaveText(monthHeader(2));
		await expect(button(page, 'Month')).toHaveAttribute('aria-pressed', 'true');
	});

	test('says when the selected day, week or month has no events', async ({ page }) => {
		await open(page);
		const quiet = calendar(page)
			.getByRole('button', { name: /, no events$/ })
			.first();
		await quiet.click();
		await expect(list(page).getByText('No events found for the selected day.')).toBeVisible();
		// Past the demo's last events (six months ahead) every period is empty.
		await button(page, 'Month').click();
		for (let i = 0; i < 8; i++) await button(page, 'Next month').click();
		await expect(list(page).getByText('No events found for the selected month.')).toBeVisible();
		await button(page, 'Week').click();
		await expect(list(page).getByText('No events found for the selected week.')).toBeVisible();
	});

	test('filters by event type, and Clear Filters shows every type again', async ({ page }) => {
		await open(page);
		await day(page, today).click();
		const all = await rows(page).count();
		const boxes = filters(page).getByRole('checkbox');
		const labels = await filters(page).locator('label').allInnerTexts();
		expect(labels.length).toBeGreaterThan(1);
		for (const label of labels) expect(label).toBe(label.toUpperCase());
		await expect(boxes.first()).not.toBeChecked();

		const month = format(today, 'yyyy-MM');
		const events = (await apiEvents(page, '/api/events', `${month}-01`, dayFromToday(1))).filter(
			(e) => e.StartDate.startsWith(month) || e.EndDate.startsWith(month),
		);
		const networking = events.filter((e) => e.EventType === 'Networking');
		await filters(page).getByRole('checkbox', { name: 'NETWORKING' }).check();
		await expect(rows(page)).toHaveCount(networking.length);
		for (const event of networking) {
			await expect(list(page).getByRole('link', { name: event.EventName })).toBeVisible();
		}
		await filters(page).getByRole('button', { name: 'Clear Filters' }).click();
		await expect(rows(page)).toHaveCount(all);
		await expect(filters(page).getByRole('checkbox', { checked: true })).toHaveCount(0);
		await expect(filters(page).getByRole('button', { name: 'Clear Filters' })).toBeDisabled();
	});

	test('switching between chamber and community events clears the type filter', async ({
		page,
	}) => {
		await open(page);
		await filters(page).getByRole('checkbox', { name: 'NETWORKING' }).check();
		await tab(page, 'Community Events').click();
		await expect(
			filters(page).getByRole('checkbox', { name: 'COMMUNITY', exact: true }),
		).toBeVisible();
		await expect(filters(page).getByRole('checkbox', { checked: true })).toHaveCount(0);
		await tab(page, 'Chamber Events').click();
		await expect(filters(page).getByRole('checkbox', { name: 'NETWORKING' })).not.toBeChecked();
	});

	test('shows the featured event, hidden while the type filter excludes it', async ({ page }) => {
		await open(page);
		const events = await apiEvents(page, '/api/events', dayFromToday(-3), firstLoadEnd);
		const gala = events.find((e) => e.FeaturedEvent)!;
		const card = featured(page);
		await expect(card.getByRole('link', { name: gala.EventName })).toHaveAttribute(
			'href',
			new RegExp(`^/events/${gala.EventId}/`),
		);
		await filters(page).getByRole('checkbox', { name: 'NETWORKING' }).check();
		await expect(card).toHaveCount(0);
		await filters(page).getByRole('checkbox', { name: gala.EventType.toUpperCase() }).check();
		await expect(card).toBeVisible();
	});

	test('hides the featured card, with a warning, when it fails to load', async ({ page }) => {
		const warnings: string[] = [];
		page.on('console', (m) => {
			if (m.type() === 'warning') warnings.push(m.text());
		});
		await page.route(
			(url) => url.pathname === '/api/event-details',
			(route) => route.fulfill({ status: 502, json: { error: 'Failed to load event details' } }),
		);
		await open(page);
		await expect.poll(() => warnings.some((w) => w.includes('featured event'))).toBe(true);
		await expect(featured(page)).toHaveCount(0);
		await expect(filters(page)).toBeVisible();
	});

	test('loads three more months when the calendar moves past the loaded range', async ({
		page,
	}) => {
		const later = laterLoads(page);
		await open(page);
		for (let i = 0; i < 4; i++) await button(page, 'Show next month').click();
		await expect.poll(() => later.length).toBe(1);
		const events = await eventsStartingIn(page, '/api/events', 4);
		expect(events.length).toBeGreaterThan(0);
		await page.getByRole('button', { name: monthTitle(4), exact: true }).click();
		await expect(
			list(page).getByRole('link', { name: events[0]!.EventName }).first(),
		).toBeVisible();
	});

	test('moves and selects with the keyboard in the calendar', async ({ page }) => {
		await open(page);
		await day(page, today).focus();
		await page.keyboard.press('ArrowRight');
		await expect(day(page, addDays(today, 1))).toBeFocused();
		await page.keyboard.press('Enter');
		await expect(header(page)).toHaveText(dayHeader(addDays(today, 1)));
	});

	test("says 'Loading events...', then 'Error loading events: …' when the events fail", async ({
		page,
	}) => {
		const events = await holdRequests(
			page,
			(url) => url.pathname === '/api/events',
			(route) => route.fulfill({ status: 502, json: { error: 'Failed to fetch events' } }),
		);
		await page.goto('/events-list');
		await expect(list(page).getByRole('status')).toHaveText('Loading events...');
		events.release();
		await expect(page.getByRole('alert')).toHaveText(
			'Error loading events: Failed to fetch events',
		);
	});

	test('names the community events failure too', async ({ page }) => {
		await failEventsCalls(page, '/api/community-events');
		await open(page);
		await tab(page, 'Community Events').click();
		await expect(page.getByRole('alert')).toHaveText(
			'Error loading events: Failed to fetch community events',
		);
	});

	test('has no accessibility violations in day and month mode, on both tabs', async ({ page }) => {
		await open(page);
		await expect(featured(page)).toBeVisible();
		await expectNoAxeViolations(page);
		await tab(page, 'Community Events').click();
		await button(page, 'Month').click();
		await expect(rows(page).first()).toBeVisible();
		await expectNoAxeViolations(page);
	});

	test(
		'ships at most 80 KB of gzipped script, React included',
		IN_FULL_BROWSER,
		async ({ page }) => {
			await expectWithinScriptBudget(page, '/events-list');
		},
	);
});

test.describe('/events-list with other feature settings', () => {
	const config = demoConfig();

	/**
	 * /events-list as a build with these feature settings serves it: the island gets the props
	 * agendaProps makes of that configuration (see serveWithIslandProps).
	 */
	async function openWith(page: Page, features: Partial<ChamberConfig['features']>) {
		const changed = { ...config, features: { ...config.features, ...features } };
		await serveWithIslandProps(page, '/events-list', agendaProps(config), agendaProps(changed));
		await open(page);
	}

	/** The URLs of the calls to one API path the page makes from now on. */
	function callsTo(page: Page, path: string): string[] {
		const calls: string[] = [];
		page.on('request', (request) => {
			if (isEventsCall(request, path)) calls.push(request.url());
		});
		return calls;
	}

	test("hides the 'EVENT FILTERS:' box when showEventFilters is off", async ({ page }) => {
		await openWith(page, { showEventFilters: false });
		await expect(header(page)).toBeVisible();
		await expect(featured(page)).toBeVisible();
		await expect(page.getByText('EVENT FILTERS:')).toHaveCount(0);
		await expect(filters(page)).toHaveCount(0);
		await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);
	});

	test('offers only the chamber events when showCommunityEvents is off', async ({ page }) => {
		const community = callsTo(page, '/api/community-events');
		await openWith(page, { showCommunityEvents: false });
		await expect(page.getByRole('tab')).toHaveText(['Chamber Events']);
		await expect(tab(page, 'Chamber Events')).toHaveAttribute('aria-selected', 'true');
		await expect(tab(page, 'Community Events')).toHaveCount(0);
		await expect(filters(page)).toBeVisible();
		expect(community).toEqual([]);
	});

	test('offers only the community events when showEvents is off', async ({ page }) => {
		const chamber = callsTo(page, '/api/events');
		await openWith(page, { showEvents: false });
		await expect(page.getByRole('tab')).toHaveText(['Community Events']);
		await expect(tab(page, 'Community Events')).toHaveAttribute('aria-selected', 'true');
		await expect(page.getByRole('link', { name: 'Subscribe to calendar' })).toHaveAttribute(
			'href',
			'/api/events.ics?source=community',
		);
		expect(chamber).toEqual([]);
	});

	test('shows no featured card when showFeaturedEvent is off, though an event id is set', async ({
		page,
	}) => {
		expect(config.features.featuredEventId).not.toBeNull();
		const details = callsTo(page, '/api/event-details');
		await openWith(page, { showFeaturedEvent: false });
		await expect(filters(page)).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Featured Event' })).toHaveCount(0);
		await expect(featured(page)).toHaveCount(0);
		expect(details).toEqual([]);
	});

	test('features one of the chamber’s own events with its summary, and filters it by its type', async ({
		page,
		request,
	}) => {
		// An event of the Events tab, at noon two days on in the chamber's zone.
		const run = Date.now().toString(36);
		const name = `Orchard Walk ${run}`;
		const summary = 'An hour among the apple trees.';
		const date = addDays(today, 2);
		const { token } = await adminSession(request);
		const headers = { Authorization: `Bearer ${token}` };
		const added = await request.post('/api/admin/events', {
			headers,
			data: {
				name,
				summary,
				event_type: `Orchard ${run}`,
				time_zone: 'America/Chicago',
				starts_local: `${format(date, 'yyyy-MM-dd')}T12:00`,
				ends_local: `${format(date, 'yyyy-MM-dd')}T13:00`,
			},
		});
		expect(added.status()).toBe(201);
		const { id } = (await added.json()) as { id: string };
		try {
			const detail = await request.get(`/api/admin/events/${id}`, { headers });
			const { dates } = (await detail.json()) as { dates: { eventId: number }[] };
			await openWith(page, { showFeaturedEvent: true, featuredEventId: dates[0]!.eventId });
			await expect(featured(page).getByRole('link', { name })).toBeVisible();
			await expect(featured(page)).toContainText(summary);

			if (format(date, 'yyyy-MM') !== format(today, 'yyyy-MM')) {
				await button(page, 'Show next month').click();
			}
			await day(page, date).click();
			await expect(header(page)).toHaveText(dayHeader(date));
			await filters(page)
				.getByRole('checkbox', { name: `ORCHARD ${run.toUpperCase()}` })
				.check();
			await expect(rows(page)).toHaveCount(1);
			await expect(rows(page).getByRole('link', { name })).toBeVisible();
			await expect(rows(page)).toContainText(summary);
		} finally {
			await withDatabase((db) => db.query('delete from public.chamber_events where id = $1', [id]));
		}
	});

	test('features the event featuredEventId names', async ({ page }) => {
		const events = await apiEvents(page, '/api/events', dayFromToday(-3), firstLoadEnd);
		// One that has not ended: a featured card never advertises an event that is over.
		const other = events.find(
			(e) =>
				!e.FeaturedEvent &&
				e.EventId !== config.features.featuredEventId &&
				Date.parse(e.EndDateTimeUtc) > Date.now(),
		);
		if (!other) throw new Error('The demo has no other event in the first months');
		await openWith(page, { showFeaturedEvent: true, featuredEventId: other.EventId });
		await expect(featured(page).getByRole('link', { name: other.EventName })).toHaveAttribute(
			'href',
			new RegExp(`^/events/${other.EventId}/`),
		);
	});
});
