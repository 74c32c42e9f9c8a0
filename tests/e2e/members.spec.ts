import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import { slugify } from '../../src/features/directory/rules.ts';
import {
	createUser,
	importChamber,
	openListing,
	openPanel,
	PANEL,
	panelTab,
	removeChamber,
	serviceClient,
} from './admin-support.ts';
import { BUILD_GOES_LIVE, timeWithBuilds } from './e2e-env.ts';

// The Members tab in Chromium. The first test works on the demo chamber and watches its changes
// reach the public site through real builds; the others edit a chamber of their own, opened by
// super_admins with ?chamber= (its saves publish no build here).

test.describe.configure({ mode: 'serial' });

let slug: string;
let otherSuper: string;

/** The Members tab, once its count has loaded. */
async function membersTab(page: Page) {
	const panel = await panelTab(page, 'Members');
	await expect(panel.getByRole('status').filter({ hasText: /\d+ members?$/ })).toBeVisible();
	return panel;
}

async function openMembers(page: Page, email: string, chamber?: string) {
	await openPanel(page, email, chamber);
	return membersTab(page);
}

/** Back to the panel in a page already signed in. */
async function backToMembers(page: Page) {
	await page.goto(PANEL);
	return membersTab(page);
}

async function superPage(browser: Browser, email: string) {
	const context = await browser.newContext();
	const page = await context.newPage();
	await openMembers(page, email, slug);
	return { context, page };
}

test.beforeAll(async () => {
	slug = await importChamber('members', 'Members', {
		businesses: [
			{
				weblink_profile_id: '8100',
				report_name: 'Harbor Books',
				city: 'Lakeside',
				work_phone: '555-0100',
				categories: ['Retail'],
				listings: [{ description: '<p>Books by the harbor.</p>' }],
			},
			{ weblink_profile_id: '8101', report_name: 'Quayside Bakery', city: 'Lakeside' },
		],
	});
	otherSuper = await createUser(slug, 'super_admin');
});

test.afterAll(async () => {
	await removeChamber(slug);
});

test('a member added in the panel is on the public site after the publish; unpublished or removed, its address answers 410 Gone', async ({
	page,
	request,
}) => {
	// Two real builds of the demo site (an edit of a listing going live: hours.spec.ts).
	test.setTimeout(timeWithBuilds(2));
	const name = `Zephyr Kite Shop ${Date.now().toString(36)}`;
	const panel = await openMembers(page, 'admin@demo.test');
	await panel.getByRole('button', { name: 'Add member' }).click();
	await panel.getByRole('textbox', { name: 'Business name' }).fill(name);
	await panel.getByRole('textbox', { name: 'City' }).fill('Cedarbrook');
	await panel.getByRole('textbox', { name: 'Phone' }).fill('(319) 555-0142');
	await panel.getByRole('textbox', { name: 'Categories' }).fill('Arts & Entertainment');
	await panel.getByRole('button', { name: 'Add description' }).click();
	await panel
		.getByRole('textbox', { name: 'Description 1 (HTML)' })
		.fill('<p>Kites for every wind.</p>');
	await panel.getByRole('button', { name: 'Add Member' }).click();
	await expect(panel.getByText(`${name} was added.`)).toBeVisible();
	await expect(panel.getByRole('heading', { name, level: 3 })).toBeVisible();

	const service = await serviceClient();
	const { data } = await service.from('profiles').select('id').eq('report_name', name).single();
	const id = (data as { id: string }).id;
	const profile = `/business/${id}/${slugify(name)}`;

	// After the publish: in the sitemap, on its category page, its profile, and in search.
	await expect
		.poll(async () => (await request.get('/sitemap.xml')).text(), BUILD_GOES_LIVE)
		.toContain(profile);
	expect(await (await request.get('/category/arts-entertainment/')).text()).toContain(name);
	await page.goto(profile);
	await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
	await expect(page.getByText('Kites for every wind.')).toBeVisible();
	await page.goto(`/search?q=${encodeURIComponent('Zephyr Kite')}`);
	await expect(page.getByRole('heading', { name })).toBeVisible();

	// Unpublished: its address is gone (410) at once, the profile being rendered on demand, with a
	// page that says so, and after the build it left the sitemap.
	await backToMembers(page);
	const listing = await openListing(page, name);
	await listing.getByRole('checkbox', { name: 'Published' }).uncheck();
	await listing.getByRole('button', { name: 'Save Listing' }).click();
	await expect(listing.getByText('Unpublished', { exact: true })).toBeVisible();
	expect((await request.get(profile)).status()).toBe(410);
	await expect
		.poll(async () => (await request.get('/sitemap.xml')).text(), BUILD_GOES_LIVE)
		.not.toContain(id);
	await page.goto(profile);
	await expect(page.getByRole('heading', { name: 'Business No Longer Listed' })).toBeVisible();

	// Removed: its old addresses stay gone; restorable.
	await backToMembers(page);
	const again = await openListing(page, name);
	await again.getByRole('button', { name: 'Remove listing' }).click();
	await page.getByRole('dialog').getByRole('button', { name: 'Remove listing' }).click();
	await expect(again.getByText(/^Removed on /)).toBeVisible();
	await expect(again.getByRole('button', { name: 'Restore listing' })).toBeVisible();
	expect((await request.get(profile)).status()).toBe(410);
	expect((await request.get(`/business/${id}`, { maxRedirects: 0 })).status()).toBe(410);
});

test('two admins change the same field: the second sees who changed it and when, and chooses', async ({
	browser,
}) => {
	const a = await superPage(browser, 'super@demo.test');
	const b = await superPage(browser, otherSuper);
	const listingA = await openListing(a.page, 'Harbor Books');
	const listingB = await openListing(b.page, 'Harbor Books');

	await listingA.getByRole('textbox', { name: 'City' }).fill('Riverside');
	await listingA.getByRole('button', { name: 'Save Listing' }).click();
	await expect(listingA.getByText('Changes saved.', { exact: false })).toBeVisible();

	await listingB.getByRole('textbox', { name: 'City' }).fill('Hilltop');
	await listingB.getByRole('button', { name: 'Save Listing' }).click();
	const dialog = b.page.getByRole('dialog', { name: 'Someone else changed this meanwhile' });
	await expect(dialog).toBeVisible();
	const city = dialog.getByRole('group', { name: 'City' });
	await expect(city.getByRole('definition')).toHaveText(['Hilltop', 'Riverside']);
	await expect(city.getByText('Theirs, saved by super@demo.test on')).toBeVisible();
	await city.getByRole('button', { name: 'Keep mine' }).click();
	await expect(dialog).toBeHidden();
	await expect(listingB.getByText('Changes saved.', { exact: false })).toBeVisible();
	await expect(listingB.getByRole('textbox', { name: 'City' })).toHaveValue('Hilltop');

	// A, still at the version it opened, changes the city again and the phone: their city wins,
	// the phone stays A's unsaved change, saved next.
	await listingA.getByRole('textbox', { name: 'City' }).fill('Lakeshore');
	await listingA.getByRole('textbox', { name: 'Phone' }).fill('555-0177');
	await listingA.getByRole('button', { name: 'Save Listing' }).click();
	const dialogA = a.page.getByRole('dialog', { name: 'Someone else changed this meanwhile' });
	const cityA = dialogA.getByRole('group', { name: 'City' });
	await expect(cityA.getByRole('definition')).toHaveText(['Lakeshore', 'Hilltop']);
	await expect(cityA.getByText(`Theirs, saved by ${otherSuper} on`)).toBeVisible();
	await cityA.getByRole('button', { name: 'Take theirs' }).click();
	await expect(dialogA).toBeHidden();
	await expect(listingA.getByRole('textbox', { name: 'City' })).toHaveValue('Hilltop');
	await expect(listingA.getByRole('textbox', { name: 'Phone' })).toHaveValue('555-0177');
	await listingA.getByRole('button', { name: 'Save Listing' }).click();
	await expect(listingA.getByText('Changes saved.', { exact: false })).toBeVisible();

	const service = await serviceClient();
	const { data } = await service
		.from('profiles')
		.select('city, work_phone')
		.eq('weblink_profile_id', '8100')
		.eq('report_name', 'Harbor Books')
		.single();
	expect(data).toEqual({ city: 'Hilltop', work_phone: '555-0177' });
	await a.context.close();
	await b.context.close();
});

test('a field changed here says so, and its button takes the membership system’s value back; the history restores an earlier value', async ({
	page,
}) => {
	await openMembers(page, 'super@demo.test', slug);
	const listing = await openListing(page, 'Harbor Books');
	// City and phone were changed here by the test before.
	const note = listing
		.getByRole('note')
		.filter({ hasText: 'The membership system has: “Lakeside”' });
	await expect(note).toContainText('Changed here, differs from the membership system');
	await note.getByRole('button', { name: 'Use the membership system’s value for City' }).click();
	await expect(listing.getByRole('textbox', { name: 'City' })).toHaveValue('Lakeside');
	await expect(listing.getByText('The membership system’s value is back.')).toBeVisible();

	const history = listing.getByRole('region', { name: 'History' });
	const phone = history.getByRole('listitem').filter({ hasText: 'Phone: “555-0100” → “555-0177”' });
	await phone.getByRole('button', { name: 'Restore the earlier Phone' }).click();
	await expect(listing.getByRole('textbox', { name: 'Phone' })).toHaveValue('555-0100');
	await expect(listing.getByText('The earlier value is back.')).toBeVisible();
	await expectAccessibleInEveryTheme(page, "a listing's editor", { include: 'main' });
});

test('problems show at their field and nothing is saved; leaving unsaved changes asks first', async ({
	page,
}) => {
	await openMembers(page, 'super@demo.test', slug);
	const listing = await openListing(page, 'Quayside Bakery');
	await listing.getByRole('spinbutton', { name: 'Listing position' }).fill('0');
	await listing.getByRole('button', { name: 'Add link' }).click();
	await expect(
		listing.getByRole('spinbutton', { name: 'Listing position' }),
	).toHaveAccessibleDescription(/1 is the top; expected 1 or more/);
	await expect(listing.getByRole('textbox', { name: 'Link 1' })).toHaveAccessibleDescription(
		'Enter the link',
	);
	await listing.getByRole('button', { name: 'Save Listing' }).click();
	await expect(listing.getByText('Some fields need attention before saving.')).toBeVisible();

	// Leaving the listing asks; staying keeps the changes, also across tabs.
	let asked = '';
	page.once('dialog', (dialog) => {
		asked = dialog.message();
		void dialog.dismiss();
	});
	await listing.getByRole('button', { name: 'Back to members' }).click();
	await expect
		.poll(() => asked)
		.toBe('This listing has unsaved changes. Leave it without saving them?');
	await page.getByRole('tab', { name: 'Identity' }).click();
	await page.getByRole('tab', { name: 'Members' }).click();
	await expect(listing.getByRole('spinbutton', { name: 'Listing position' })).toHaveValue('0');

	const service = await serviceClient();
	const { data } = await service
		.from('profiles')
		.select('listing_position')
		.eq('report_name', 'Quayside Bakery')
		.eq('weblink_profile_id', '8101')
		.single();
	expect(data).toEqual({ listing_position: 1000 });
});

test('an editor changes descriptions, links and the logo only: the rest shows, disabled', async ({
	page,
}) => {
	const panel = await openMembers(page, 'editor@demo.test');
	await expect(panel.getByRole('button', { name: 'Add member' })).toHaveCount(0);
	await panel.locator('tbody').getByRole('button').first().click();
	await expect(panel.getByRole('button', { name: 'Back to members' })).toBeVisible();
	await expect(panel.getByRole('textbox', { name: 'Business name' })).toBeDisabled();
	await expect(panel.getByRole('checkbox', { name: 'Published' })).toBeDisabled();
	await expect(panel.getByRole('textbox', { name: 'Description 1 (HTML)' })).toBeEnabled();
	await expect(panel.getByRole('textbox', { name: 'Search keywords 1' })).toHaveCount(0);
	await expect(panel.getByRole('button', { name: 'Add link' })).toBeEnabled();
	await expect(panel.getByRole('button', { name: 'Remove listing' })).toHaveCount(0);
	await expect(panel.getByRole('region', { name: 'History' })).toHaveCount(0);
});

test('social links and web content: rows are added, removed and saved as they are left', async ({
	page,
}) => {
	await openMembers(page, 'super@demo.test', slug);
	const listing = await openListing(page, 'Harbor Books');
	await expect(listing.getByText('No social links.')).toBeVisible();
	await listing.getByRole('button', { name: 'Add link' }).click();
	await expect(listing.getByRole('textbox', { name: 'Network 1', exact: true })).toHaveValue(
		'Facebook',
	);
	await listing
		.getByRole('textbox', { name: 'Link 1', exact: true })
		.fill('https://facebook.example/harbor');
	await listing.getByRole('button', { name: 'Add link' }).click();
	await listing.getByRole('textbox', { name: 'Network 2', exact: true }).fill('Instagram');
	await listing.getByRole('textbox', { name: 'Link 2', exact: true }).fill('https://ig.example/x');
	await listing.getByRole('button', { name: 'Remove link 1' }).click();
	await expect(listing.getByRole('textbox', { name: 'Network 1', exact: true })).toHaveValue(
		'Instagram',
	);
	await expect(listing.getByRole('textbox', { name: 'Network 2', exact: true })).toHaveCount(0);

	await listing.getByRole('button', { name: 'Add web content item' }).click();
	await expect(listing.getByRole('textbox', { name: 'Type 1', exact: true })).toHaveValue('Link');
	await listing.getByRole('textbox', { name: 'Title 1', exact: true }).fill('Reading list');
	await listing
		.getByRole('textbox', { name: 'Address 1', exact: true })
		.fill('https://harbor.example/list');
	await listing.getByRole('button', { name: 'Save Listing' }).click();
	await expect(listing.getByText('Changes saved.', { exact: false })).toBeVisible();

	const service = await serviceClient();
	const { data } = await service
		.from('profiles')
		.select(
			'social_media(platform, url), web_content(content_type, content_title, full_url, rel_url)',
		)
		.eq('weblink_profile_id', '8100')
		.eq('report_name', 'Harbor Books')
		.single();
	expect(data).toEqual({
		social_media: [{ platform: 'Instagram', url: 'https://ig.example/x' }],
		web_content: [
			{
				content_type: 'Link',
				content_title: 'Reading list',
				full_url: 'https://harbor.example/list',
				rel_url: '',
			},
		],
	});
});
