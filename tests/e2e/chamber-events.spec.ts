import { expect, test, type Page } from '@playwright/test';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { openPanel, PANEL, panelTab, PNG, withDatabase } from './admin-support.ts';
import { expectNoAxeViolations } from './a11y-support.ts';
import { toggle } from './calendar-support.ts';

// The Events tab in Chromium, on the demo chamber: what staff do to an event in the panel is on
// /events, the event's page and its calendar file as soon as the save answers (events are read
// when asked: no build).

const run = Date.now().toString(36);
const name = `Harvest Supper ${run}`;
const series = `Lunch and Learn ${run}`;
const image = `https://images.example.org/${run}/harvest-supper.png`;

test.afterAll(async () => {
	await withDatabase((db) =>
		db.query('delete from public.chamber_events where name like $1', [`%${run}%`]),
	);
});

/** 'yyyy-MM-dd' `days` from today. */
const day = (days: number) => format(addDays(new Date(), days), 'yyyy-MM-dd');

/** The Events tab, freshly opened, with `title`'s event (matched exactly) opened in its editor. */
async function openEvent(page: Page, title: string) {
	await page.goto(PANEL);
	const panel = await panelTab(page, 'Events');
	await panel.getByRole('searchbox', { name: 'Title' }).fill(title);
	await panel.getByRole('button', { name: 'Search', exact: true }).click();
	await panel.getByRole('button', { name: title, exact: true }).click();
	await expect(panel.getByRole('heading', { name: title, level: 3 })).toBeVisible();
	return panel;
}

/** The event's page, by the path the panel links to. */
async function expectPage(page: Page, href: string, title: string) {
	await page.goto(href);
	await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

test('an event added in the Events tab has its summary and image on the site; changed, duplicated, cancelled and deleted there, the site follows', async ({
	page,
}) => {
	// Three visits of the panel, two of the calendar, five of event pages.
	test.setTimeout(180_000);
	// The image's host, answered here: the page shows it from there, as a logo from its own host.
	await page.route(`${image.slice(0, image.lastIndexOf('/'))}/**`, (route) =>
		route.fulfill({ contentType: 'image/png', body: PNG }),
	);
	await openPanel(page, 'admin@demo.test');
	const panel = await panelTab(page, 'Events');
	await expect(panel.getByRole('status').filter({ hasText: /\d+ events?$/ })).toBeVisible();

	await panel.getByRole('button', { name: 'Add event' }).click();
	await panel.getByRole('textbox', { name: 'Title' }).fill(name);
	await panel.getByRole('textbox', { name: 'Summary' }).fill('Local farms, one long table.');
	await panel.getByRole('textbox', { name: 'Featured image (address)' }).fill(image);
	await panel.getByLabel('Starts').fill(`${day(2)}T18:30`);
	await panel.getByLabel('Ends').fill(`${day(2)}T21:00`);
	await panel.getByRole('textbox', { name: 'Venue' }).fill('Cedarbrook Grange Hall');
	await panel.getByRole('textbox', { name: 'Event type', exact: true }).fill('Dinner');
	await panel.getByRole('button', { name: 'Add event' }).click();
	await expect(panel.getByText(`${name} was added.`)).toBeVisible();
	await expect(panel.getByRole('heading', { name, level: 3 })).toBeVisible();
	const href = await panel.getByRole('link', { name: 'View on the site' }).getAttribute('href');
	expect(href).toMatch(/^\/events\/9\d{8}\//);

	// Back in the list, it is the tab's upcoming event, editable.
	await panel.getByRole('button', { name: 'Back to events' }).click();
	await panel.getByRole('searchbox', { name: 'Title' }).fill(name);
	await panel.getByRole('button', { name: 'Search', exact: true }).click();
	await expect(panel.getByRole('button', { name, exact: true })).toBeVisible();

	// The chamber's calendar lists it, with its summary.
	await page.goto('/events');
	await toggle(page, 'List').click();
	const card = page.getByRole('article').filter({ has: page.getByRole('link', { name }) });
	await expect(card).toContainText('Local farms, one long table.');

	// Its page: the summary under the title, the image (named by the title) from its host, and both
	// in what search engines and link previews read.
	await expectPage(page, href!, name);
	const main = page.getByRole('main');
	await expect(main.getByText('Cedarbrook Grange Hall').first()).toBeVisible();
	await expect(main.getByText('Local farms, one long table.')).toBeVisible();
	const picture = main.getByRole('img', { name });
	await expect(picture).toHaveAttribute('src', image);
	await expect
		.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
		.toBe(1);
	await expect(page.locator('meta[name="description"]')).toHaveAttribute(
		'content',
		'Local farms, one long table.',
	);
	await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', image);
	const structured = (await page.locator('script[type="application/ld+json"]').allTextContents())
		.map((text) => JSON.parse(text) as Record<string, unknown>)
		.find((data) => data['@type'] === 'Event');
	expect(structured).toMatchObject({ name, image: [image] });
	await expectNoAxeViolations(page);

	// Changed, then copied (the copy published under its own date), then cancelled.
	let editor = await openEvent(page, name);
	await editor.getByRole('textbox', { name: 'Venue' }).fill('Cedarbrook Library');
	await editor.getByRole('button', { name: 'Save event' }).click();
	await expect(editor.getByText('Changes saved.')).toBeVisible();
	await editor.getByRole('button', { name: 'Duplicate' }).click();
	const copy = `Copy of ${name}`;
	await expect(editor.getByRole('heading', { name: copy, level: 3 })).toBeVisible();
	await expect(editor.getByText('This is the copy, a draft')).toBeVisible();
	await editor.getByLabel('Starts').fill(`${day(3)}T18:30`);
	await editor.getByLabel('Ends').fill(`${day(3)}T21:00`);
	await editor.getByRole('combobox', { name: 'Status' }).selectOption('published');
	await editor.getByRole('button', { name: 'Save event' }).click();
	await expect(editor.getByText('Changes saved.')).toBeVisible();
	const copyHref = await editor
		.getByRole('link', { name: 'View on the site' })
		.getAttribute('href');
	expect(copyHref).not.toBe(href);

	editor = await openEvent(page, name);
	await editor.getByRole('button', { name: 'Cancel event' }).click();
	await expect(editor.getByRole('button', { name: 'Reinstate event' })).toBeVisible();
	await expect(editor.getByText('Changes saved.')).toBeVisible();

	await expectPage(page, href!, name);
	await expect(page.getByRole('note').filter({ hasText: 'Cancelled.' })).toBeVisible();
	await expect(page.getByRole('main').getByText('Cedarbrook Library').first()).toBeVisible();
	await expectPage(page, copyHref!, copy);
	await expect(page.getByRole('main').getByText('Cedarbrook Library').first()).toBeVisible();
	await page.goto('/events');
	await toggle(page, 'List').click();
	await expect(page.getByRole('link', { name: `Cancelled: ${name}` }).first()).toBeVisible();
	await expect(page.getByRole('link', { name: copy }).first()).toBeVisible();

	// The copy deleted: its page and its calendar file are gone.
	editor = await openEvent(page, copy);
	await editor.getByRole('button', { name: 'Delete event' }).click();
	const confirm = page.getByRole('dialog', { name: `Delete ${copy}?` });
	await confirm.getByRole('button', { name: 'Delete event' }).click();
	await expect(panel.getByText(`${copy} was deleted.`)).toBeVisible();
	const copyId = /^\/events\/(\d+)\//.exec(copyHref!)![1];
	expect((await page.request.get(`/api/events/${copyId}.ics`)).status()).toBe(404);
	const gone = await page.goto(copyHref!);
	expect(gone?.status()).toBe(404);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Event Not Found');
});

test('a weekly series with one date changed and one cancelled in the editor: each date on the site as it was left', async ({
	page,
}) => {
	test.setTimeout(120_000);
	await openPanel(page, 'admin@demo.test');
	const panel = await panelTab(page, 'Events');
	await panel.getByRole('button', { name: 'Add event' }).click();
	await panel.getByRole('textbox', { name: 'Title' }).fill(series);
	await panel.getByLabel('Starts').fill(`${day(2)}T18:00`);
	await panel.getByLabel('Ends').fill(`${day(2)}T19:00`);
	await panel.getByRole('combobox', { name: 'How often' }).selectOption('WEEKLY');
	await panel.getByRole('spinbutton', { name: 'Times' }).fill('3');
	await panel.getByRole('button', { name: 'Add event' }).click();
	await expect(panel.getByText(`${series} was added.`)).toBeVisible();

	const dates = panel.getByRole('region', { name: 'Dates' }).getByRole('listitem');
	await expect(dates).toHaveCount(3);
	// Each date's page, by the EventId it keeps whatever is changed.
	const hrefs = await dates
		.getByRole('link')
		.evaluateAll((links) => links.map((link) => link.getAttribute('href')!));

	await dates
		.nth(1)
		.getByRole('button', { name: /^Change this date/ })
		.click();
	const dialog = page.getByRole('dialog', { name: /^Change the date of / });
	await dialog.getByLabel('Title').fill(`${series}: Special`);
	await dialog.getByLabel('Starts').fill(`${day(9)}T12:00`);
	await dialog.getByLabel('Ends').fill(`${day(9)}T13:30`);
	await dialog.getByRole('button', { name: 'Save this date' }).click();
	await expect(panel.getByText('That date is saved; the others stay as they are.')).toBeVisible();
	await expect(dates.nth(1)).toContainText('changed on its own');

	await dates
		.nth(2)
		.getByRole('button', { name: /^Cancel this date/ })
		.click();
	await expect(panel.getByText('That date is cancelled; the others stay.')).toBeVisible();
	await expect(dates.nth(2)).toContainText('cancelled');

	await page.goto('/events');
	await toggle(page, 'List').click();
	await expect(page.getByRole('link', { name: series, exact: true }).first()).toBeVisible();
	await expect(page.getByRole('link', { name: `${series}: Special` }).first()).toBeVisible();
	await expect(page.getByRole('link', { name: `Cancelled: ${series}` }).first()).toBeVisible();

	// The changed date's page, under its own title (the series' slug redirects there).
	await expectPage(page, hrefs[1]!, `${series}: Special`);
	await expect(page.getByRole('main')).toContainText(/12:00 PM – 1:30 PM/);
	const calendarFile = async (href: string) => {
		const answer = await page.request.get(`/api/events/${/^\/events\/(\d+)\//.exec(href)![1]}.ics`);
		expect(answer.status()).toBe(200);
		return answer.text();
	};
	expect(await calendarFile(hrefs[0]!)).toContain('STATUS:CONFIRMED');
	expect(await calendarFile(hrefs[2]!)).toContain('STATUS:CANCELLED');
});
