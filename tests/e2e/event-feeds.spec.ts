import { expect, test } from '@playwright/test';
import { googleFeed, startFeedStandin, type FeedStandin } from '../support/calendar-feeds.ts';
import { standinUrl } from '../support/standin-fetch.ts';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import { openPanel, panelTab, withDatabase } from './admin-support.ts';
import { toggle } from './calendar-support.ts';

// A Google Calendar feed in the Events tab, in Chromium on the demo chamber: the admin adds its
// address, reads the preview, imports it, and its events are on /events at once (events are read
// when asked: no build). The feed's stand-in serves Google's exported shape at
// calendar-feeds.test, which the e2e server resolves to 127.0.0.1 (tests/support/e2e-server.ts).

const title = `Ribbon Cutting ${Date.now().toString(36)}`;
let feeds: FeedStandin;

test.beforeAll(async () => {
	feeds = await startFeedStandin();
	feeds.serve('/e2e/basic.ics', googleFeed({ ribbonTitle: title }));
});

test.afterAll(async () => {
	await feeds?.close();
	// The feed's events go with it.
	await withDatabase((db) =>
		db.query(`delete from public.event_feeds where url like 'http://calendar-feeds.test:%'`),
	);
});

test('a calendar feed is previewed, imported, and its events are on /events; a read that fails is shown above the list and keeps them', async ({
	page,
}) => {
	await openPanel(page, 'admin@demo.test');
	const panel = await panelTab(page, 'Events');
	await panel.getByRole('button', { name: 'Calendar feeds' }).click();
	await expect(panel.getByRole('heading', { name: 'Calendar feeds', level: 3 })).toBeVisible();
	await expect(panel.getByText('No calendar feed yet.')).toBeVisible();

	await panel
		.getByRole('textbox', { name: 'Feed address' })
		.fill(`${standinUrl(feeds.url, 'calendar-feeds.test')}/e2e/basic.ics`);
	await panel.getByRole('button', { name: 'Add and preview' }).click();
	const feed = panel.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 4 }) });
	await expect(
		feed.getByText('Reading it would add 3 events, change 0 and cancel 0.'),
	).toBeVisible();
	await expect(feed.getByText(title)).toBeVisible();
	await expect(
		feed.getByText('Not imported yet: preview it, then import its events.'),
	).toBeVisible();
	await expectAccessibleInEveryTheme(page, 'the calendar feeds with a preview');

	await feed.getByRole('button', { name: 'Import these events' }).click();
	await expect(feed.getByText('Read: 3 added, 0 changed, 0 cancelled, 0 unchanged.')).toBeVisible();
	await expect(feed.getByRole('heading', { name: 'Cedar Valley Chamber', level: 4 })).toBeVisible();
	await expect(feed.getByRole('button', { name: 'Read now' })).toBeVisible();

	// Back in the list, each event says where it comes from.
	await panel.getByRole('button', { name: 'Back to events' }).click();
	await panel.getByRole('searchbox', { name: 'Title' }).fill(title);
	await panel.getByRole('button', { name: 'Search', exact: true }).click();
	const row = panel.getByRole('row').filter({ hasText: title });
	await expect(row.getByRole('cell', { name: 'Calendar feed Cedar Valley Chamber' })).toBeVisible();

	// The feed's address fails: the feed says why, and so does a banner above the tab's list.
	feeds.setMode('error500');
	await panel.getByRole('button', { name: 'Calendar feeds' }).click();
	const named = panel.getByRole('listitem').filter({
		has: page.getByRole('heading', { name: 'Cedar Valley Chamber', level: 4 }),
	});
	await named.getByRole('button', { name: 'Read now' }).click();
	await expect(named.getByRole('alert')).toContainText(
		'The feed’s address answered HTTP 500. Its events stay as the last good read left them.',
	);
	await panel.getByRole('button', { name: 'Back to events' }).click();
	await expect(
		panel.getByRole('alert').filter({ hasText: 'The calendar feed “Cedar Valley Chamber”' }),
	).toContainText(
		/could not be read since .+: The feed’s address answered HTTP 500\. Its events stay as they were; see Calendar feeds\./,
	);

	// Its events stay on the calendar as the last good read left them.
	await page.goto('/events');
	await toggle(page, 'List').click();
	await expect(page.getByText(title).first()).toBeVisible();
});
