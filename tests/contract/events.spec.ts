import { expect, test, type Browser, type Page } from '@playwright/test';
import { format } from 'date-fns/format';
import { eventPath, type Event } from '../../src/features/events/events.ts';
import { holdRequests } from '../e2e/island-support.ts';

// The events area's visible texts as the specification quotes them (the events pages, community
// events and an event's page), on the demo chamber's site in Chromium: one page per screen,
// opened once, each row a text found in the state the specification gives it.

/** Texts of the specification that no page shows, by design, with why. */
export const EXCEPTIONS = [
	{
		spec: "Tab labels default 'Events' and 'Community Events'",
		reason:
			'Defaults of content.eventsTabLabel and content.communityEventsTabLabel, which the demo chamber sets; the defaults are held by src/features/config/config.test.ts.',
	},
] as const;

const DESKTOP = { width: 1280, height: 1000 };

function pageAt(path: string | (() => Promise<string>), setup?: (page: Page) => Promise<unknown>) {
	const shared: { page: Page } = { page: undefined as unknown as Page };
	test.beforeAll(async ({ browser }: { browser: Browser }) => {
		shared.page = await browser.newPage({ viewport: DESKTOP });
		await setup?.(shared.page);
		await shared.page.goto(typeof path === 'string' ? path : await path());
	});
	test.afterAll(() => shared.page?.close());
	return shared;
}

test.describe('events list (/events-list)', () => {
	const list = pageAt('/events-list');
	const page = () => list.page;
	const header = () => page().getByRole('heading', { level: 2, name: /^EVENTS FOR / });
	const button = (name: string) => page().getByRole('button', { name, exact: true });

	test("heading 'Events Calendar'", async () => {
		await expect(page().getByRole('heading', { level: 1 })).toHaveText('Events Calendar');
	});

	test("day mode: 'EVENTS FOR {MON D}'", async () => {
		await button('Day').click();
		await expect(header()).toHaveText(/^EVENTS FOR [A-Z]{3} \d{1,2}$/);
	});

	test("week mode: 'EVENTS FOR WEEK OF {MON D}'", async () => {
		await button('Week').click();
		await expect(header()).toHaveText(/^EVENTS FOR WEEK OF [A-Z]{3} \d{1,2}$/);
	});

	test("month mode: 'EVENTS FOR {MONTH YEAR}'", async () => {
		await button('Month').click();
		await expect(header()).toHaveText(
			`EVENTS FOR ${format(new Date(), 'MMMM yyyy').toUpperCase()}`,
		);
	});

	test("'EVENT FILTERS:' with a checkbox per type and 'Clear Filters'", async () => {
		const filters = page().getByRole('group', { name: 'EVENT FILTERS:' });
		await expect(filters.getByRole('checkbox').first()).toBeVisible();
		await expect(page().getByRole('button', { name: 'Clear Filters' })).toBeVisible();
	});

	test("mini calendar: '+N' for events beyond one", async () => {
		const calendar = page().getByRole('grid');
		for (let month = 0; month < 6; month++) {
			if ((await calendar.getByText(/^\+\d+$/).count()) > 0) break;
			await button('Show next month').click();
		}
		await expect(calendar.getByText(/^\+\d+$/).first()).toBeVisible();
	});

	test("empty: 'No events found for the selected {day|week|month}.'", async () => {
		// Past the demo's last events (six months ahead) every period is empty.
		await button('Month').click();
		for (let i = 0; i < 9; i++) await button('Next month').click();
		const region = page().getByRole('region', { name: /^EVENTS FOR / });
		await expect(region.getByText('No events found for the selected month.')).toBeVisible();
		await button('Week').click();
		await expect(region.getByText('No events found for the selected week.')).toBeVisible();
		await button('Day').click();
		await expect(region.getByText('No events found for the selected day.')).toBeVisible();
	});
});

test.describe('events list while loading, then failing', () => {
	const shared: { page: Page; release: () => void } = {
		page: undefined as unknown as Page,
		release: () => {},
	};
	test.beforeAll(async ({ browser }) => {
		shared.page = await browser.newPage({ viewport: DESKTOP });
		const held = await holdRequests(
			shared.page,
			(url) => url.pathname === '/api/events',
			(route) => route.fulfill({ status: 502, json: { error: 'Failed to fetch events' } }),
		);
		shared.release = held.release;
		await shared.page.goto('/events-list');
	});
	test.afterAll(() => shared.page?.close());

	test("'Loading events...'", async () => {
		await expect(shared.page.getByText('Loading events...')).toBeVisible();
	});

	test("'Error loading events: {message}'", async () => {
		shared.release();
		await expect(shared.page.getByRole('alert')).toHaveText(
			'Error loading events: Failed to fetch events',
		);
	});
});

test.describe('events list without event types', () => {
	const empty = pageAt('/events-list', (page) =>
		page.route(
			(url) => url.pathname === '/api/events' || url.pathname === '/api/community-events',
			(route) => route.fulfill({ json: { Result: [] } }),
		),
	);

	test("'No event types available'", async () => {
		await expect(empty.page.getByText('No event types available')).toBeVisible();
	});
});

test.describe('chamber events (/events)', () => {
	test("'Loading more events...' over the calendar", async ({ browser }) => {
		const page = await browser.newPage({ viewport: DESKTOP });
		const firstLoadEnd = format(
			new Date(new Date().setMonth(new Date().getMonth() + 3)),
			'yyyy-MM-dd',
		);
		const later = await holdRequests(
			page,
			(url) =>
				url.pathname === '/api/events' && (url.searchParams.get('startDate') ?? '') > firstLoadEnd,
		);
		await page.goto('/events');
		await expect(page.getByRole('grid')).toBeVisible();
		for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Next month' }).click();
		await expect(page.getByRole('status')).toHaveText('Loading more events...');
		later.release();
		await page.close();
	});

	test("'Error Loading Events' with 'Refresh Page'", async ({ browser }) => {
		const page = await browser.newPage({ viewport: DESKTOP });
		await page.route(
			(url) => url.pathname === '/api/events',
			(route) => route.fulfill({ status: 502, json: { error: 'Failed to fetch events' } }),
		);
		await page.goto('/events');
		const alert = page.getByRole('alert');
		await expect(alert.getByRole('heading', { name: 'Error Loading Events' })).toBeVisible();
		await expect(alert.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
		await page.close();
	});
});

test.describe('community events (/community-events)', () => {
	const community = pageAt('/community-events');

	test("title 'Community Events Calendar'", async () => {
		await expect(community.page.getByRole('heading', { level: 1 })).toHaveText(
			'Community Events Calendar',
		);
	});

	test("disclaimer: events in the 'Community' category are not hosted or endorsed by the chamber; legend 'Community'", async () => {
		await expect(
			community.page.getByText(/Events in the 'Community' category are not hosted or endorsed by/),
		).toBeVisible();
		await expect(community.page.locator('.ev-legend')).toHaveText('Community');
	});

	test("'Error Loading Community Events' with a hint and a refresh button", async ({ browser }) => {
		const page = await browser.newPage({ viewport: DESKTOP });
		await page.route(
			(url) => url.pathname === '/api/community-events',
			(route) =>
				route.fulfill({ status: 502, json: { error: 'Failed to fetch community events' } }),
		);
		await page.goto('/community-events');
		const alert = page.getByRole('alert');
		await expect(
			alert.getByRole('heading', { name: 'Error Loading Community Events' }),
		).toBeVisible();
		await expect(alert).toContainText('temporary issue');
		await expect(alert.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
		await page.close();
	});
});

/** An event of the demo's chamber calendar, through the API. */
async function demoEvent(page: Page, match: (event: Event) => boolean): Promise<Event> {
	const response = await page.request.get('/api/events');
	const { Result } = (await response.json()) as { Result: Event[] };
	const event = Result.find(match);
	if (!event) throw new Error('The demo has no such event');
	return event;
}

test.describe('event detail', () => {
	const detail = pageAt(
		async () =>
			eventPath(await demoEvent(detail.page, (e) => e.EventName === 'Annual Gala & Awards Night')),
		// The map embed and the sponsors' logos live on other hosts; tests never reach out to them.
		(page) =>
			page.route(
				(url) => url.hostname !== 'localhost',
				(route) => route.abort(),
			),
	);
	const main = () => detail.page.getByRole('main');

	test("'⭐ Featured'", async () => {
		await expect(main().getByText('⭐ Featured')).toBeVisible();
	});

	test("'{N} attending'", async () => {
		await expect(main().getByText(/^\d+ attending$/)).toBeVisible();
	});

	for (const name of [
		'About This Event',
		'Tickets & Pricing',
		'Location',
		'Registration Information',
		'Questions?',
		'Event Details',
		'Event Sponsors',
		'Companies Attending',
	]) {
		test(`section '${name}'`, async () => {
			await expect(main().getByRole('region', { name, exact: true })).toBeVisible();
		});
	}

	for (const [name, role] of [
		['Get Directions', 'link'],
		['Register Now', 'link'],
		['Add to Calendar', 'link'],
		['Share Event', 'button'],
		['Back to All Events', 'link'],
	] as const) {
		test(`'${name}'`, async () => {
			await expect(main().getByRole(role, { name, exact: true }).first()).toBeVisible();
		});
	}

	test("Share Event without a share sheet: alert 'Event link copied to clipboard!'", async () => {
		await detail.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
		await detail.page.evaluate(() => {
			Object.defineProperty(Navigator.prototype, 'share', { value: undefined });
		});
		const alerts: string[] = [];
		detail.page.on('dialog', async (dialog) => {
			alerts.push(dialog.message());
			await dialog.accept();
		});
		await main().getByRole('button', { name: 'Share Event' }).click();
		await expect.poll(() => alerts).toEqual(['Event link copied to clipboard!']);
	});

	test("a zero price: 'Free'; no registration end: 'Open'", async ({ browser }) => {
		const page = await browser.newPage();
		const event = await demoEvent(
			page,
			(e) =>
				e.Items.some((i) => i.IsPublic && i.UnitPrice === 0) &&
				!e.RegistrationEndDate &&
				!e.DisableRegistration,
		);
		await page.goto(eventPath(event));
		const main = page.getByRole('main');
		await expect(main.getByRole('region', { name: 'Tickets & Pricing' })).toContainText('Free');
		await expect(main.getByRole('region', { name: 'Registration Information' })).toContainText(
			'Open',
		);
		await page.close();
	});

	test("an event that has ended: 'Event Has Passed'", async ({ browser }) => {
		const page = await browser.newPage();
		const event = await demoEvent(
			page,
			(e) => Date.parse(e.EndDateTimeUtc) < Date.now() && !e.DisableRegistration,
		);
		await page.goto(eventPath(event));
		await expect(
			page.getByRole('main').getByRole('button', { name: 'Event Has Passed' }).first(),
		).toBeDisabled();
		await page.close();
	});
});

test.describe('event not found', () => {
	const missing = pageAt('/events/999999999/nothing');
	const main = () => missing.page.getByRole('main');

	test("'Event Not Found'", async () => {
		await expect(main().getByRole('heading', { level: 1 })).toHaveText('Event Not Found');
	});

	test("hint 'This might be due to a recent update. Try refreshing the page.'", async () => {
		await expect(
			main().getByText('This might be due to a recent update. Try refreshing the page.'),
		).toBeVisible();
	});

	test("'Refresh Page' and 'Back to Events'", async () => {
		await expect(main().getByRole('link', { name: 'Refresh Page' })).toBeVisible();
		await expect(main().getByRole('link', { name: 'Back to Events' })).toHaveAttribute(
			'href',
			'/events',
		);
	});
});
