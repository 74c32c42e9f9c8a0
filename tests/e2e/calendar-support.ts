import { expect, type Locator, type Page, type Request } from '@playwright/test';
import { addMonths } from 'date-fns/addMonths';
import { format } from 'date-fns/format';
import { decodeHTMLAttribute, escapeAttribute } from 'entities';

// Shared by the calendar page specs (events, events-list, community-events).

/** The visitor's today, as the browser (same machine, same zone) sees it. */
export const today = new Date();

/** 'November 2026' for the month `offset` months from today. */
export function monthTitle(offset = 0): string {
	return format(addMonths(today, offset), 'MMMM yyyy');
}

/** 'yyyy-MM-dd' of the day `months` months from today. */
export function dayFromToday(months: number): string {
	return format(addMonths(today, months), 'yyyy-MM-dd');
}

/** The end of what the calendars load first: three months ahead. */
export const firstLoadEnd = dayFromToday(3);

export function isEventsCall(request: Request, path = '/api/events'): boolean {
	return new URL(request.url()).pathname === path;
}

/** A call fetching more events after the loaded range (startDate past the first load). */
export function isLaterLoad(request: Request, path = '/api/events'): boolean {
	const startDate = new URL(request.url()).searchParams.get('startDate');
	return isEventsCall(request, path) && startDate !== null && startDate > firstLoadEnd;
}

/** The calls to `path` that fetch events past the first load, as the page makes them from now on. */
export function laterLoads(page: Page, path = '/api/events'): Request[] {
	const calls: Request[] = [];
	page.on('request', (request) => {
		if (isLaterLoad(request, path)) calls.push(request);
	});
	return calls;
}

export interface ApiEvent {
	EventId: number;
	EventName: string;
	StartDate: string;
	EndDate: string;
	EndDateTimeUtc: string;
	EventType: string;
	EventTypeColor: string;
	FeaturedEvent: boolean;
}

/** Events of a range straight from the API, to know what the page should show. */
export async function apiEvents(
	page: Page,
	path: '/api/events' | '/api/community-events',
	startDate: string,
	endDate: string,
): Promise<ApiEvent[]> {
	const response = await page.request.get(`${path}?startDate=${startDate}&endDate=${endDate}`);
	expect(response.ok()).toBe(true);
	return ((await response.json()) as { Result: ApiEvent[] }).Result;
}

/**
 * The events starting in the month `offset` months from today, as the API gives them for its
 * first 28 days: what a page moved to that month must show.
 */
export async function eventsStartingIn(
	page: Page,
	path: '/api/events' | '/api/community-events',
	offset: number,
): Promise<ApiEvent[]> {
	const month = dayFromToday(offset).slice(0, 7);
	const events = await apiEvents(page, path, `${month}-01`, `${month}-28`);
	return events.filter((e) => e.StartDate.startsWith(month));
}

/** Answers every call to an events endpoint with a server error. */
export async function failEventsCalls(page: Page, path: string): Promise<void> {
	await page.route(
		(url) => url.pathname === path,
		(route) =>
			route.fulfill({
				status: 502,
				contentType: 'application/json',
				body: JSON.stringify({ error: 'Failed to fetch events' }),
			}),
	);
}

/** The calendar page at `path` is titled `name` (tab and h1) and names itself as canonical. */
export async function expectTitled(page: Page, name: string, path: string): Promise<void> {
	await expect(page).toHaveTitle(`${name} | Cedar Valley Chamber of Commerce`);
	await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
	await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
		'href',
		new RegExp(`${path}$`),
	);
}

/** The page's 'Subscribe to calendar' link points at a working calendar feed. */
export async function expectCalendarFeed(page: Page, href: string): Promise<void> {
	const link = page.getByRole('link', { name: 'Subscribe to calendar' });
	await expect(link).toHaveAttribute('href', href);
	const response = await page.request.get(href);
	expect(response.status()).toBe(200);
	expect(response.headers()['content-type']).toContain('text/calendar');
	const body = await response.text();
	expect(body).toContain('BEGIN:VCALENDAR');
	expect(body).toContain('BEGIN:VEVENT');
}

/** An island prop as Astro serializes a plain (primitive) value: [0, value]. */
type SerializedProp = [0, string | number | boolean | null];

/**
 * Serves `path` as the build made it, except that its one island gets `props` instead of the
 * props the build wrote, which must be `built`. Primitive props only (Astro writes them as
 * [0, value]).
 *
 * The calendar pages read their feature switches at build time and hand them to
 * the island as props, so the demo's build shows one combination. Rebuilding the site for each
 * one would take minutes; instead the test takes the real built page from the real server and
 * swaps the island's props for the ones a build with other settings would write. Everything the
 * visitor sees still comes from the real island script, in the real browser, against the real
 * API. Checking `built` first makes sure the swap targets what the build actually writes: should
 * the page stop passing its switches as these props, this fails instead of quietly testing
 * nothing.
 */
export async function serveWithIslandProps(
	page: Page,
	path: string,
	built: object,
	props: object,
): Promise<void> {
	const serialize = (values: object) =>
		Object.fromEntries(
			Object.entries(values).map(([key, value]): [string, SerializedProp] => {
				if (value !== null && typeof value === 'object') throw new Error(`${key} is not primitive`);
				return [key, [0, value as SerializedProp[1]]];
			}),
		);
	await page.route(
		(url) => url.pathname === path,
		async (route) => {
			const response = await route.fetch();
			const html = await response.text();
			const islands = [...html.matchAll(/<astro-island\b[^>]*?\sprops="([^"]*)"/g)];
			expect(islands, `${path} has one island`).toHaveLength(1);
			const [tag = '', attribute = ''] = islands[0]!;
			const serialized = JSON.parse(decodeHTMLAttribute(attribute)) as Record<
				string,
				SerializedProp
			>;
			expect(serialized, `the props ${path} was built with`).toEqual(serialize(built));
			const newTag = tag.replace(
				`props="${attribute}"`,
				`props="${escapeAttribute(JSON.stringify(serialize(props)))}"`,
			);
			await route.fulfill({
				status: response.status(),
				contentType: response.headers()['content-type'],
				body: html.replace(tag, newTag),
			});
		},
	);
}

// The List / Calendar pages, /events and /community-events: one island (EventsCalendar) whose
// source is the only difference, so what does not depend on the events is checked here once and
// run by each page's spec.

/** One List / Calendar page: where it is and the API it reads. */
export interface CalendarPage {
	path: '/events' | '/community-events';
	api: '/api/events' | '/api/community-events';
}

const DESKTOP = { width: 1280, height: 900 };

export const grid = (page: Page) => page.getByRole('grid');
export const toggle = (page: Page, name: 'List' | 'Calendar') => page.getByRole('button', { name });
export const monthHeading = (page: Page, offset = 0) =>
	page.getByRole('heading', { level: 2, name: monthTitle(offset), exact: true });

export async function openCalendar(
	page: Page,
	{ path }: CalendarPage,
	viewport = DESKTOP,
): Promise<void> {
	await page.setViewportSize(viewport);
	await page.goto(path);
}

/** On a phone the page opens on the list, scrolled to this month's heading; answers it. */
export async function openListAtThisMonth(
	page: Page,
	calendar: CalendarPage,
	phone: { width: number; height: number },
): Promise<Locator> {
	await openCalendar(page, calendar, phone);
	const current = monthHeading(page);
	await expect(current).toBeVisible();
	await expect.poll(async () => (await current.boundingBox())?.y ?? -1).toBeLessThan(5);
	return current;
}

/** It scrolls there once: back at the top, switching views does not scroll again. */
export async function expectNoScrollOnSwitchingViews(page: Page, current: Locator): Promise<void> {
	await page.evaluate(() => window.scrollTo(0, 0));
	await toggle(page, 'Calendar').click();
	await toggle(page, 'List').click();
	await expect(current).toBeAttached();
	expect(await page.evaluate(() => window.scrollY)).toBe(0);
}

/**
 * Moving four months ahead fetches the next months, once, and shows the events of the month
 * shown. Answers the calls that fetched them, for the page's own checks of what was asked.
 */
export async function expectLoadsLaterMonths(page: Page, calendar: CalendarPage) {
	const later = laterLoads(page, calendar.api);
	await openCalendar(page, calendar);
	await expect(monthHeading(page)).toBeVisible();
	expect(later).toHaveLength(0);
	for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Next month' }).click();
	await expect(monthHeading(page, 4)).toBeVisible();
	await expect.poll(() => later.length).toBe(1);
	const events = await eventsStartingIn(page, calendar.api, 4);
	expect(events.length).toBeGreaterThan(0);
	await expect(grid(page).getByRole('link', { name: events[0]!.EventName }).first()).toBeVisible();
	return later;
}

/**
 * When the events fail, an alert says `title` and each of `texts`; its Refresh Page button
 * reloads the page, which shows the calendar once the events load again.
 */
export async function expectErrorWithRefresh(
	page: Page,
	calendar: CalendarPage,
	title: string,
	texts: string[],
): Promise<void> {
	await failEventsCalls(page, calendar.api);
	await openCalendar(page, calendar);
	const alert = page.getByRole('alert');
	await expect(alert.getByRole('heading', { name: title })).toBeVisible();
	for (const text of texts) await expect(alert).toContainText(text);
	await page.unrouteAll();
	const reload = page.waitForEvent('load');
	await alert.getByRole('button', { name: 'Refresh Page' }).click();
	await reload;
	await expect(grid(page)).toBeVisible();
}
