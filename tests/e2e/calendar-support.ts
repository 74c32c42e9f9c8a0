import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type Request } from '@playwright/test';
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

export async function expectNoAxeViolations(page: Page): Promise<void> {
	const results = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
		.analyze();
	const found = results.violations.map((v) => ({
		id: v.id,
		help: v.help,
		targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
	}));
	expect(found).toEqual([]);
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
