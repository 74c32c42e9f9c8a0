import { expect, test } from '@playwright/test';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { openPanel, PANEL, panelTab, withDatabase } from './admin-support.ts';
import { toggle } from './calendar-support.ts';

// The Events tab in Chromium, on the demo chamber: an event added in the panel is on /events and
// has its own page as soon as the save answers (events are read when asked: no build).

const name = `Harvest Supper ${Date.now().toString(36)}`;

test.afterAll(async () => {
	await withDatabase((db) => db.query('delete from public.chamber_events where name = $1', [name]));
});

test('an event added in the Events tab is on the calendar and has its page after the save; cancelled, both say so', async ({
	page,
}) => {
	// Two visits of the panel, two of the calendar and two of the event's page.
	test.setTimeout(120_000);
	await openPanel(page, 'admin@demo.test');
	const panel = await panelTab(page, 'Events');
	await expect(panel.getByRole('status').filter({ hasText: /\d+ events?$/ })).toBeVisible();

	await panel.getByRole('button', { name: 'Add event' }).click();
	const day = format(addDays(new Date(), 2), 'yyyy-MM-dd');
	await panel.getByRole('textbox', { name: 'Title' }).fill(name);
	await panel.getByRole('textbox', { name: 'Summary' }).fill('Local farms, one long table.');
	await panel.getByLabel('Starts').fill(`${day}T18:30`);
	await panel.getByLabel('Ends').fill(`${day}T21:00`);
	await panel.getByRole('textbox', { name: 'Venue' }).fill('Cedarbrook Grange Hall');
	await panel.getByRole('textbox', { name: 'Event type', exact: true }).fill('Dinner');
	await panel.getByRole('button', { name: 'Add event' }).click();
	await expect(panel.getByText(`${name} was added.`)).toBeVisible();
	await expect(panel.getByRole('heading', { name, level: 3 })).toBeVisible();
	const view = panel.getByRole('link', { name: 'View on the site' });
	const href = await view.getAttribute('href');
	expect(href).toMatch(/^\/events\/9\d{8}\//);

	// Back in the list, it is the tab's upcoming event, editable.
	await panel.getByRole('button', { name: 'Back to events' }).click();
	await panel.getByRole('searchbox', { name: 'Title' }).fill(name);
	await panel.getByRole('button', { name: 'Search', exact: true }).click();
	await expect(panel.getByRole('button', { name, exact: true })).toBeVisible();

	// The chamber's calendar lists it.
	await page.goto('/events');
	await toggle(page, 'List').click();
	await expect(page.getByText(name).first()).toBeVisible();

	// Its page, at the address the panel links to.
	await page.goto(href!);
	await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
	await expect(page.getByText('Cedarbrook Grange Hall').first()).toBeVisible();

	// Cancelled in the panel (still signed in): still listed, marked, and its page says so.
	await page.goto(PANEL);
	const again = await panelTab(page, 'Events');
	await again.getByRole('searchbox', { name: 'Title' }).fill(name);
	await again.getByRole('button', { name: 'Search', exact: true }).click();
	await again.getByRole('button', { name, exact: true }).click();
	await expect(again.getByRole('heading', { name, level: 3 })).toBeVisible();
	await again.getByRole('button', { name: 'Cancel event' }).click();
	await expect(again.getByRole('button', { name: 'Reinstate event' })).toBeVisible();
	await expect(again.getByText('Changes saved.')).toBeVisible();

	await page.goto(href!);
	await expect(page.getByRole('note').filter({ hasText: 'Cancelled.' })).toBeVisible();
	await page.goto('/events');
	await toggle(page, 'List').click();
	await expect(page.getByRole('link', { name: `Cancelled: ${name}` }).first()).toBeVisible();
});
