import { expect, test } from '@playwright/test';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import { openPanel, panelTab, withDatabase } from './admin-support.ts';
import { toggle } from './calendar-support.ts';
import { scriptRequests } from './script-budget.ts';

// 'Submit an event' on /community-events, then its review in the Events tab, in Chromium on the
// demo chamber: a visitor submits (the dialog's script loads on the first click only), the event
// is on no calendar while it waits, an editor approves it, and it is on /community-events at once
// (events are read when asked: no build).

const name = `Riverside Clean-up ${Date.now().toString(36)}`;

test.afterAll(async () => {
	await withDatabase(async (db) => {
		await db.query(`delete from public.event_submissions where event ->> 'name' = $1`, [name]);
		await db.query('delete from public.chamber_events where name = $1', [name]);
	});
});

test('a submitted event waits for review and is on the community calendar once approved', async ({
	page,
}) => {
	test.setTimeout(90_000);
	const scripts = scriptRequests(page);
	await page.goto('/community-events');
	await toggle(page, 'List').click();
	await page.waitForLoadState('networkidle');
	const loaded = scripts.length;
	expect(scripts.some((url) => url.includes('open-submit-event'))).toBe(false);

	await page.getByRole('button', { name: 'Submit an event' }).click();
	const dialog = page.getByRole('dialog', { name: 'Submit an event' });
	await expect(dialog).toBeVisible();
	expect(scripts.slice(loaded)).toEqual([
		expect.stringMatching(/\/_astro\/open-submit-event-[\w-]+\.js$/),
	]);
	await expect(dialog.getByRole('textbox', { name: 'Event title' })).toBeFocused();
	await expectAccessibleInEveryTheme(page, "the 'Submit an event' dialog", {
		include: 'dialog[open]',
	});

	const day = format(addDays(new Date(), 9), 'yyyy-MM-dd');
	await dialog.getByRole('textbox', { name: 'Event title' }).fill(name);
	await dialog.getByLabel('Starts').fill(`${day}T09:00`);
	await dialog.getByLabel('Ends').fill(`${day}T12:00`);
	await dialog.getByRole('textbox', { name: 'Venue (optional)' }).fill('Riverside Park');
	await dialog
		.getByRole('textbox', { name: 'Description (optional)' })
		.fill('Gloves and bags provided.\n\nMeet at the boat ramp.');
	await dialog.getByRole('textbox', { name: 'Your name' }).fill('Sam Lee');
	await dialog.getByRole('textbox', { name: 'Your e-mail' }).fill('sam@example.org');
	await dialog.getByRole('button', { name: 'Send for review' }).click();
	await expect(dialog.getByRole('status')).toHaveText(
		'Thank you! The chamber reviews each event before it is on the calendar, and e-mails you either way.',
	);
	await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
	await expect(dialog).toBeHidden();

	// Not public while it waits: the list has loaded its months, and the event is in none.
	await page.reload();
	await toggle(page, 'List').click();
	await expect(
		page
			.getByRole('main')
			.getByRole('heading', { level: 2 })
			.first()
			.or(page.getByText('No events found.')),
	).toBeVisible();
	await expect(page.getByText(name)).toHaveCount(0);

	// An editor reviews it in the Events tab.
	await openPanel(page, 'editor@demo.test');
	const panel = await panelTab(page, 'Events');
	await panel.getByRole('button', { name: 'Community submissions' }).click();
	const item = panel.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
	await expect(item.getByText('Riverside Park')).toBeVisible();
	await expect(item.getByText(/Submitted by Sam Lee \(sam@example\.org\)/)).toBeVisible();
	await expectAccessibleInEveryTheme(page, 'the community submissions');
	await item.getByRole('button', { name: 'Approve', exact: true }).click();
	await expect(
		panel.getByText(`${name} is on the community calendar; Sam Lee is told by e-mail.`),
	).toBeVisible();

	await page.goto('/community-events');
	await toggle(page, 'List').click();
	await expect(page.getByText(name).first()).toBeVisible();
});
