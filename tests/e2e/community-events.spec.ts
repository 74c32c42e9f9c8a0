import { expect, test, type Page } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import {
	apiEvents,
	dayFromToday,
	expectCalendarFeed,
	expectErrorWithRefresh,
	expectLoadsLaterMonths,
	expectNoScrollOnSwitchingViews,
	expectTitled,
	firstLoadEnd,
	grid,
	monthHeading,
	monthTitle,
	openCalendar,
	openListAtThisMonth,
	toggle,
	type CalendarPage,
} from './calendar-support.ts';
import { expectWithinScriptBudget } from './script-budget.ts';

// /community-events: the List / Calendar page of community events, coloured by type (demo).

const COMMUNITY: CalendarPage = { path: '/community-events', api: '/api/community-events' };

async function open(page: Page, width = 1280) {
	await openCalendar(page, COMMUNITY, { width, height: 900 });
}

/** How many whole months from this month to the one `day` is in. */
function monthsAhead(day: string): number {
	const [y, m] = day.split('-').map(Number) as [number, number];
	const now = new Date();
	return (y - now.getFullYear()) * 12 + (m - 1 - now.getMonth());
}

/** WCAG contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
	const luminance = (css: string) => {
		const [r, g, bl] = css.match(/\d+/g)!.map((c) => {
			const v = Number(c) / 255;
			return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
		}) as [number, number, number];
		return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
	};
	const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
	return (hi + 0.05) / (lo + 0.05);
}

function hexToRgb(hex: string): string {
	const n = parseInt(hex.slice(1), 16);
	return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

test.describe('/community-events', () => {
	test('has its title, the disclaimer naming the chamber, the legend and the calendar feed', async ({
		page,
	}) => {
		await open(page);
		await expectTitled(page, 'Community Events Calendar', COMMUNITY.path);
		await expect(
			page.getByText(
				"Events in the 'Community' category are not hosted or endorsed by the Cedar Valley Chamber of Commerce.",
			),
		).toBeVisible();
		await expect(page.locator('.ev-legend')).toHaveText('Community');
		await expectCalendarFeed(page, '/api/events.ics?source=community');
	});

	test('switches between calendar and list at 768 px until the visitor picks', async ({ page }) => {
		await open(page);
		await expect(toggle(page, 'Calendar')).toHaveAttribute('aria-pressed', 'true');
		await page.setViewportSize({ width: 700, height: 900 });
		await expect(toggle(page, 'List')).toHaveAttribute('aria-pressed', 'true');
		await toggle(page, 'Calendar').click();
		await page.setViewportSize({ width: 600, height: 900 });
		await expect(toggle(page, 'Calendar')).toHaveAttribute('aria-pressed', 'true');
		await expect(grid(page)).toBeVisible();
	});

	test('colours events by type with readable text, and puts multi-day events on each of their days', async ({
		page,
	}) => {
		await open(page);
		const events = await apiEvents(page, COMMUNITY.api, dayFromToday(-3), firstLoadEnd);
		const multi = events.find((e) => e.EndDate > e.StartDate);
		expect(multi, 'a multi-day community event in the demo').toBeDefined();
		const ahead = monthsAhead(multi!.StartDate);
		const step = ahead < 0 ? 'Previous month' : 'Next month';
		for (let i = 0; i < Math.abs(ahead); i++)
			await page.getByRole('button', { name: step }).click();
		await expect(monthHeading(page, ahead)).toBeVisible();

		const first = new Date(`${multi!.StartDate}T12:00:00`);
		const last = new Date(`${multi!.EndDate}T12:00:00`);
		for (let d = first; d <= last; d = addDays(d, 1)) {
			if (d.getMonth() !== first.getMonth()) break;
			const cell = grid(page).getByRole('gridcell', {
				name: new RegExp(`^${format(d, 'EEEE, MMMM d, yyyy')}, `),
			});
			await expect(cell.getByRole('link', { name: multi!.EventName })).toBeVisible();
		}

		const chip = grid(page).getByRole('link', { name: multi!.EventName }).first();
		const { background, color } = await chip.evaluate((el) => ({
			background: getComputedStyle(el).backgroundColor,
			color: getComputedStyle(el).color,
		}));
		expect(background).toBe(hexToRgb(multi!.EventTypeColor));
		expect(contrast(background, color)).toBeGreaterThanOrEqual(4.5);
	});

	test("groups the list under 'MMMM yyyy' headings, opened at the current month once", async ({
		page,
	}) => {
		const current = await openListAtThisMonth(page, COMMUNITY, { width: 390, height: 900 });
		const headings = await page.locator('.ev-list__month').allInnerTexts();
		for (const heading of headings) expect(heading).toMatch(/^[A-Z][a-z]+ \d{4}$/);
		// A few months at a time: earlier ones on request.
		expect(headings).not.toContain(monthTitle(-1));
		await page.getByRole('button', { name: 'Show earlier events' }).click();
		await expect(page.getByRole('heading', { name: monthTitle(-1) })).toBeAttached();
		await expectNoScrollOnSwitchingViews(page, current);
	});

	test('extends its range when the month moves beyond it', async ({ page }) => {
		await expectLoadsLaterMonths(page, COMMUNITY);
	});

	test("shows 'Error Loading Community Events' with a hint and a refresh button", async ({
		page,
	}) => {
		await expectErrorWithRefresh(page, COMMUNITY, 'Error Loading Community Events', [
			'temporary issue',
			'refreshing the page',
		]);
	});

	test(
		'ships at most 80 KB of gzipped script, React included',
		IN_FULL_BROWSER,
		async ({ page }) => {
			await expectWithinScriptBudget(page, '/community-events');
		},
	);
});
