import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type Request } from '@playwright/test';
import { addMonths, format } from 'date-fns';

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
