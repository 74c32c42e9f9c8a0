import { expect, test } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import { demoBusiness, openListing, openPanel, panelTab } from './admin-support.ts';
import { weighScripts } from './script-budget.ts';
import { BUILD_GOES_LIVE, timeWithBuilds } from './e2e-env.ts';

// Staff give a demo business its opening hours in the Members tab; after the publish its profile
// shows the week as a table, the note, and the hours in its structured data, with no script.

test(
	'staff set opening hours in the Members tab; the profile shows the week after the publish',
	IN_FULL_BROWSER,
	async ({ page, request }) => {
		// The save's build may queue behind one an earlier spec started.
		test.setTimeout(timeWithBuilds(2));
		const { name, profile } = await demoBusiness(13);
		const note = `Closed on public holidays ${Date.now().toString(36)}`;

		await openPanel(page, 'admin@demo.test');
		await panelTab(page, 'Members');
		const panel = await openListing(page, name);

		// A problem shows at the field and nothing is saved.
		const hours = panel.getByRole('textbox', { name: 'Opening hours' });
		await hours.fill('Mon 9:00-13:00, 12:00-17:00');
		await expect(panel.getByText('Times of a day must be in order and not overlap')).toBeVisible();

		await hours.fill(`Mon-Fri 9:00-17:00\nSat 10am-2pm\n${note}`);
		await panel.getByRole('button', { name: 'Save Listing' }).click();
		await expect(panel.getByText('Changes saved.', { exact: false })).toBeVisible();
		// Saved as read: the field shows the text form the schema writes back.
		await expect(hours).toHaveValue(`Mon-Fri 09:00-17:00\nSat 10:00-14:00\n${note}`);

		await expect
			.poll(async () => (await request.get(profile)).text(), BUILD_GOES_LIVE)
			.toContain(note);
		const weight = await weighScripts(page, profile);
		expect(weight.files).toEqual([]);
		const section = page.getByRole('region', { name: 'Opening Hours' });
		const week = section.getByRole('table', { name: `Opening hours of ${name}, by day` });
		await expect(week.getByRole('row')).toHaveCount(7);
		await expect(week.getByRole('row', { name: /^Monday/ }).getByRole('cell')).toHaveText(
			'9:00 AM – 5:00 PM',
		);
		await expect(week.getByRole('row', { name: /^Saturday/ }).getByRole('cell')).toHaveText(
			'10:00 AM – 2:00 PM',
		);
		await expect(week.getByRole('row', { name: /^Sunday/ }).getByRole('cell')).toHaveText('Closed');
		await expect(section.getByText(note)).toBeVisible();

		const jsonLd = await page
			.locator('script[type="application/ld+json"]')
			.allTextContents()
			.then((blocks) => blocks.map((b) => JSON.parse(b) as Record<string, unknown>));
		const business = jsonLd.find((b) => b['@type'] === 'LocalBusiness');
		expect(business?.openingHoursSpecification).toContainEqual({
			'@type': 'OpeningHoursSpecification',
			dayOfWeek: 'https://schema.org/Saturday',
			opens: '10:00',
			closes: '14:00',
		});
		expect(business?.openingHoursSpecification).toHaveLength(6);
	},
);
