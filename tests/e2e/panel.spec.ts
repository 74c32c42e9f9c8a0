import { expect, test } from '@playwright/test';
import {
	createUser,
	importChamber,
	openPanel,
	PANEL,
	panelTab,
	PNG,
	publishDemo,
	removeChamber,
	saveChanges,
	savedConfig,
	serviceClient,
	withDatabase,
} from './admin-support.ts';
import { BUILD_GOES_LIVE, timeWithBuilds } from './e2e-env.ts';

// The admin panel in Chromium. Most tests edit a chamber of their own, opened by a
// super_admin with ?chamber= (its saves do not publish this deployment's site); the last one
// saves the demo chamber and watches the change go live on the public site.

let superAdmin: string;
let slug: string;

test.beforeAll(async () => {
	superAdmin = await createUser('demo', 'super_admin');
	slug = await importChamber('panel', 'Panel', {
		config: { city: 'Lakeside', state: 'MN', content: { heroTitle: 'Welcome' } },
	});
});

test.afterAll(async () => {
	await removeChamber(slug);
});

test('Save Changes shows only with unsaved changes: Saving... then Saved!, and the value is saved', async ({
	page,
}) => {
	await openPanel(page, superAdmin, slug);
	await expect(page.getByRole('heading', { level: 1 })).toContainText(`Panel ${slug}`);
	await expect(page.getByRole('button', { name: /^Save Changes/ })).toHaveCount(0);
	const identity = page.getByRole('tabpanel');
	await expect(identity.getByRole('textbox', { name: 'Slug' })).toBeDisabled();
	await identity.getByRole('textbox', { name: 'Chamber name' }).fill(`Renamed ${slug}`);
	await identity.getByRole('textbox', { name: 'State' }).fill('wi');
	await expect(identity.getByRole('textbox', { name: 'State' })).toHaveValue('WI');
	await expect(page.getByRole('button', { name: 'Save Changes (2 changes)' })).toBeVisible();
	await saveChanges(page);
	const saved = await savedConfig(slug);
	expect([saved.name, saved.state]).toEqual([`Renamed ${slug}`, 'WI']);
	// Undoing an edit by hand leaves nothing to save.
	await identity.getByRole('textbox', { name: 'City' }).fill('Elsewhere');
	await expect(page.getByRole('button', { name: /^Save Changes/ })).toBeVisible();
	await identity.getByRole('textbox', { name: 'City' }).fill('Lakeside');
	await expect(page.getByRole('button', { name: /^Save Changes/ })).toHaveCount(0);
});

test('every configuration tab edits its section, and one save writes them all', async ({
	page,
}) => {
	await openPanel(page, superAdmin, slug);
	let panel = await panelTab(page, 'Contact');
	await panel.getByRole('textbox', { name: 'Phone' }).fill('(218) 555-0100');
	await panel.getByRole('textbox', { name: 'Facebook' }).fill('https://facebook.com/lakeside');
	panel = await panelTab(page, 'URLs');
	await panel
		.getByRole('textbox', { name: 'Main website', exact: true })
		.fill('https://lakeside.example');
	await panel.getByRole('textbox', { name: 'Job board: label' }).fill('Jobs');
	panel = await panelTab(page, 'Colors');
	await panel.getByRole('textbox', { name: 'Primary', exact: true }).fill('#7a1f5c');
	panel = await panelTab(page, 'Fonts');
	await panel.getByRole('combobox', { name: 'Heading font' }).selectOption('Lato');
	await expect(panel.getByText('Welcome')).toHaveCSS('font-family', /^Lato/);
	await panel.getByRole('textbox', { name: 'Link', exact: true }).fill('#113355');
	panel = await panelTab(page, 'Content');
	await panel.getByRole('textbox', { name: 'Hero title' }).fill('Shop Lakeside');
	await panel.getByRole('textbox', { name: 'Meta description' }).fill('Lakeside businesses');
	await expect(panel.getByText('19 / 160 characters')).toBeVisible();
	await panel.getByRole('checkbox', { name: 'Show the featured event' }).check();
	await panel.getByRole('textbox', { name: 'Featured event ID' }).fill('4711');
	panel = await panelTab(page, 'Homepage');
	await panel.getByRole('combobox', { name: 'Strategy' }).selectOption('random');
	await panel.getByRole('spinbutton', { name: 'How many', exact: true }).fill('9');
	await panel.getByRole('spinbutton', { name: 'How many', exact: true }).blur();
	await expect(panel.getByRole('spinbutton', { name: 'How many', exact: true })).toHaveValue('2');
	await panel.getByRole('spinbutton', { name: 'How many cards' }).fill('12');
	await panel.getByRole('spinbutton', { name: 'How many cards' }).blur();
	panel = await panelTab(page, 'Search');
	await panel.getByRole('combobox', { name: 'Default sort' }).selectOption('nameAsc');
	await panel.getByRole('button', { name: 'Move Chairman up' }).click();
	await expect(panel.getByRole('listitem').first()).toContainText('ChairmanRank 8');
	await expect(panel.getByRole('button', { name: 'Move Chairman up' })).toBeDisabled();
	panel = await panelTab(page, 'Nav');
	await panel.getByRole('button', { name: 'Add menu item' }).click();
	await panel.getByRole('textbox', { name: 'Menu item 5: label' }).fill('Visit');
	await panel.getByRole('combobox', { name: 'Menu item 5: link to' }).selectOption('joinUrl');
	await panel.getByRole('combobox', { name: 'Menu item 1: type' }).selectOption('dropdown');
	await expect(panel.getByRole('button', { name: 'Add item to Home' })).toBeVisible();

	await saveChanges(page);
	const saved = await savedConfig(slug);
	expect(saved.contact.phone).toBe('(218) 555-0100');
	expect(saved.social.facebook).toBe('https://facebook.com/lakeside');
	expect(saved.urls.mainWebsite).toBe('https://lakeside.example');
	expect(saved.footerLabels.jobBoardLabel).toBe('Jobs');
	expect(saved.colors.primary).toBe('#7a1f5c');
	expect(saved.fonts.heading).toBe('Lato');
	expect(saved.textColors.link).toBe('#113355');
	expect(saved.content.heroTitle).toBe('Shop Lakeside');
	expect(saved.features).toMatchObject({ showFeaturedEvent: true, featuredEventId: 4711 });
	expect(saved.featuredBusinesses).toMatchObject({ strategy: 'random', count: 2 });
	expect(saved.categoryDisplay.count).toBe(12);
	expect(saved.searchPage.defaultSort).toBe('nameAsc');
	expect(saved.searchPage.membershipHierarchy.slice(0, 2)).toEqual([
		{ name: 'Chairman', rank: 8 },
		{ name: 'Trustee', rank: 7 },
	]);
	expect(saved.navigation.menuItems[0]).toMatchObject({
		label: 'Home',
		type: 'dropdown',
		items: [],
	});
	expect(saved.navigation.menuItems[4]).toMatchObject({ label: 'Visit', url: 'joinUrl' });
});

test('what the server refuses is named in the red banner and stays unsaved', async ({ page }) => {
	await openPanel(page, superAdmin, slug);
	const colors = await panelTab(page, 'Colors');
	await colors.getByRole('textbox', { name: 'Secondary', exact: true }).fill('amber');
	await expect(colors.getByText('Enter a hex colour like #0d3e63')).toBeVisible();
	await (
		await panelTab(page, 'Content')
	)
		.getByRole('textbox', { name: 'Footer tagline' })
		.fill('Kept');
	await page.getByRole('button', { name: /^Save Changes/ }).click();
	await expect(page.getByRole('alert')).toHaveText(
		'colors.secondary: Expected a hex colour like #0d3e63, received "amber"',
	);
	await expect(page.getByRole('button', { name: 'Save Changes (1 change)' })).toBeVisible();
	expect((await savedConfig(slug)).content.footerTagline).toBe('Kept');
});

test('a stored value that is not valid is named, shown with its default, and fixed by a save', async ({
	page,
}) => {
	// Written past the database's own check, as only a hand edit in the database could.
	await withDatabase(async (db) => {
		await db.query('alter table public.chamber_config disable trigger chamber_config_validate');
		try {
			await db.query(
				`update public.chamber_config set content = content || '{"heroTitle": {"x": 1}}' where slug = $1`,
				[slug],
			);
		} finally {
			await db.query('alter table public.chamber_config enable trigger chamber_config_validate');
		}
	});
	await openPanel(page, superAdmin, slug);
	const alert = page.getByRole('alert').filter({ hasText: 'Some saved values are not valid' });
	await expect(alert).toContainText(
		'content.heroTitle: Expected string, received a value of type object',
	);
	await expect(page.getByRole('button', { name: 'Save Changes (1 change)' })).toBeVisible();
	const content = await panelTab(page, 'Content');
	await expect(content.getByRole('textbox', { name: 'Hero title' })).toHaveValue(
		'Discover Local Businesses',
	);
	await content.getByRole('textbox', { name: 'Hero title' }).fill('Welcome back');
	await saveChanges(page);
	await expect(alert).toHaveCount(0);
	expect((await savedConfig(slug)).content.heroTitle).toBe('Welcome back');
});

test('leaving with unsaved changes asks first', async ({ page }) => {
	await openPanel(page, superAdmin, slug);
	await page.getByRole('tabpanel').getByRole('textbox', { name: 'City' }).fill('Unsaved City');
	let asked = '';
	page.once('dialog', (dialog) => {
		asked = dialog.message();
		void dialog.dismiss();
	});
	await page.getByRole('button', { name: 'Logout' }).click();
	await expect.poll(() => asked).toBe('You have unsaved changes. Leave without saving them?');
	await expect(page).toHaveURL(new RegExp(`${PANEL}\\?chamber=${slug}$`));
	await expect(page.getByRole('tabpanel').getByRole('textbox', { name: 'City' })).toHaveValue(
		'Unsaved City',
	);
});

test('the tabs stay where they are while the header’s publishing status loads', async ({
	page,
}) => {
	// The status answers only when the test lets it: the tabs are measured before and after.
	let answer!: () => void;
	const answered = new Promise<void>((resolve) => (answer = resolve));
	await page.route('**/api/publish-status*', async (route) => {
		await answered;
		await route.continue();
	});
	await openPanel(page, 'admin@demo.test');
	const tabs = page.getByRole('tablist', { name: 'Settings' });
	await expect(page.getByRole('status').filter({ hasText: 'Checking publishing…' })).toBeVisible();
	const before = await tabs.boundingBox();
	answer();
	await expect(page.getByText(/^Publishes this month: \d+ of \d+/)).toBeVisible();
	expect(await tabs.boundingBox()).toEqual(before);
});

// axe on every tab, in three chambers' colours: accessibility.spec.ts.
test('the tabs are a tablist the keyboard works', async ({ page }) => {
	await openPanel(page, superAdmin, slug);
	await page.getByRole('tab', { name: 'Identity' }).focus();
	await page.keyboard.press('ArrowRight');
	await expect(page.getByRole('tab', { name: 'Contact' })).toBeFocused();
	await expect(page.getByRole('tab', { name: 'Contact' })).toHaveAttribute('aria-selected', 'true');
	await page.keyboard.press('End');
	await expect(page.getByRole('tab').last()).toBeFocused();
	await expect(page.getByRole('tab').last()).toHaveAttribute('aria-selected', 'true');
});

test('an editor sees Content, Members and Events, with the display toggles it may change', async ({
	page,
}) => {
	await openPanel(page, 'editor@demo.test');
	await expect(page.getByRole('tab')).toHaveText(['Content', 'Members', 'Events']);
	const content = page.getByRole('tabpanel');
	await expect(content.getByRole('checkbox', { name: 'Show the featured event' })).toBeVisible();
	await expect(content.getByRole('checkbox', { name: 'Show chamber events' })).toHaveCount(0);
	await expect(content.getByRole('combobox', { name: 'Business page layout' })).toHaveCount(0);
});

test('the Homepage tab offers the chamber’s own affiliations to feature, with their members', async ({
	page,
}) => {
	await openPanel(page, 'admin@demo.test');
	const homepage = await panelTab(page, 'Homepage');
	await homepage.getByRole('combobox', { name: 'Strategy' }).selectOption('affiliation');
	await expect(
		homepage
			.getByRole('combobox', { name: 'Affiliation' })
			.getByRole('option', { name: /^Women in Business \(\d+ members?\)$/ }),
	).toHaveCount(1);
});

test('a save on the demo chamber goes live (hero title, a colour, a menu item, a logo) in at most two builds, and History restores what was live before', async ({
	page,
	request,
}) => {
	// Four real builds (before, the save, at most one more, the restore).
	test.setTimeout(timeWithBuilds(2));
	const service = await serviceClient();
	const before = await savedConfig('demo');
	const title = `Shop Cedar Valley ${Date.now().toString(36)}`;
	const home = async () => (await request.get('/')).text();
	try {
		// What is live now is kept in the history, so there is something to restore.
		await publishDemo(request, 'Test cleanup');
		const since = new Date().toISOString();
		await openPanel(page, 'admin@demo.test');
		// A logo upload publishes at once; the save's calls then join the build queued after it.
		const standard = (await panelTab(page, 'Logos')).getByRole('region', { name: 'Standard Logo' });
		await standard.getByLabel('Upload standard logo').setInputFiles({
			name: 'logo.png',
			mimeType: 'image/png',
			buffer: PNG,
		});
		await expect(standard.getByText('Logo uploaded')).toBeVisible();
		const logo = (await standard
			.getByRole('img', { name: 'Current standard logo' })
			.getAttribute('src'))!;
		await (
			await panelTab(page, 'Content')
		)
			.getByRole('textbox', { name: 'Hero title' })
			.fill(title);
		await (
			await panelTab(page, 'Colors')
		)
			.getByRole('textbox', { name: 'Primary', exact: true })
			.fill('#5b2a86');
		await (
			await panelTab(page, 'Nav')
		)
			.getByRole('textbox', { name: 'Menu item 2: label' })
			.fill('Find a Business');
		await saveChanges(page);
		const status = page
			.getByRole('banner')
			.getByRole('status')
			.filter({ hasText: /Publishing|Live/ });
		// The save's build is queued or running when the save ends: first that, then live.
		await expect(status).toHaveText(/^Publishing…/);
		await expect(status).toHaveText(/^Live since \d\d:\d\d$/, BUILD_GOES_LIVE);
		// An upload and three update-config calls: at most two builds.
		const { data: builds } = await service
			.from('publishes')
			.select('id')
			.eq(
				'tenant_id',
				(await service.from('tenants').select('id').eq('slug', 'demo').single()).data!.id,
			)
			.gte('requested_at', since);
		expect(builds!.length).toBeGreaterThanOrEqual(1);
		expect(builds!.length).toBeLessThanOrEqual(2);

		const visitor = await page.context().newPage();
		await visitor.goto('/');
		await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
		await expect(
			visitor.getByRole('navigation').first().getByRole('link', { name: 'Find a Business' }),
		).toBeVisible();
		await expect(
			visitor.getByRole('banner').getByRole('img', { name: 'Cedar Valley Chamber of Commerce' }),
		).toHaveAttribute('src', logo);
		expect(
			await visitor.evaluate(() =>
				getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim(),
			),
		).toBe('#5b2a86');

		const history = await panelTab(page, 'History');
		const entries = history.getByRole('article');
		await expect(entries.first()).toContainText('(live now)');
		await expect(history.getByRole('row', { name: /heroTitle/ }).first()).toContainText(title);
		// The build published before the save (its reason is the test's own 'Test cleanup').
		const earlier = entries.filter({ hasText: 'Test cleanup' }).first();
		await earlier.getByRole('button', { name: /^Restore the configuration published/ }).click();
		await earlier.getByRole('button', { name: 'Yes, restore' }).click();
		await expect(
			history.getByRole('status').filter({ hasText: /^Restored the configuration/ }),
		).toBeVisible();
		await expect.poll(home, BUILD_GOES_LIVE).toContain(before.content.heroTitle);
		expect(await home()).not.toContain(title);
	} finally {
		const current = await savedConfig('demo');
		if (current.content.heroTitle !== before.content.heroTitle) {
			await service
				.from('chamber_config')
				.update({
					content: before.content,
					colors: before.colors,
					navigation: before.navigation,
					logo: before.logo,
				})
				.eq('slug', 'demo');
			// The specs after this one see the demo site as it was.
			await publishDemo(request, 'Test cleanup');
		}
	}
});
