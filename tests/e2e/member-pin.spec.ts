import { expect, test, type Page } from '@playwright/test';
import { expectAccessibleInEveryTheme } from './a11y-support.ts';
import {
	importChamber,
	openListing,
	openPanel,
	panelTab,
	removeChamber,
	serviceClient,
} from './admin-support.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { startTileStandin, type TileStandin } from '../support/tile-standin.ts';
import { TILES_PORT } from './e2e-env.ts';

// The Members tab's pin: a super_admin moves a listing's pin on the map of a chamber of the
// spec's own (its saves publish no build here), the database keeps it as placed by hand, a later
// import of the membership system's file leaves it, and 'Place by the address again' hands the
// business back to the geocoder. axe on the pin's editor in the three colour sets.

const FILE_PLACE = { latitude: 41.66112, longitude: -91.53021 };
const NAME = 'Lakeside Optician';

const optician = (
	location: { latitude: number; longitude: number },
	address1 = '12 Harbour Road',
) => ({
	weblink_profile_id: '8200',
	report_name: NAME,
	address1,
	city: 'Lakeside',
	state: 'IA',
	zip: '52240',
	location,
});

let slug: string;
let tiles: TileStandin;

test.beforeAll(async () => {
	tiles = await startTileStandin(TILES_PORT);
	slug = await importChamber('pin', 'Pin', { businesses: [optician(FILE_PLACE)] });
});
test.afterAll(async () => {
	await removeChamber(slug);
	await tiles?.close();
});

async function stored() {
	const { data } = await (
		await serviceClient()
	)
		.from('profiles')
		.select('location, location_source, location_quality, geocode_requests(status)')
		.eq('weblink_profile_id', '8200')
		.eq('report_name', NAME)
		.single();
	return data;
}

async function listing(page: Page) {
	await openPanel(page, 'super@demo.test', slug);
	await panelTab(page, 'Members');
	return openListing(page, NAME);
}

test('a pin moved on the map is saved as placed by hand and kept through an import; Place by the address hands it back', async ({
	page,
}) => {
	let panel = await listing(page);
	const location = panel.getByRole('group', { name: 'Location on the map' });
	await expect(location.getByText('Placed from the membership system’s file.')).toBeVisible();
	await expect(location.getByRole('textbox', { name: 'Latitude' })).toHaveValue(
		String(FILE_PLACE.latitude),
	);
	await expect(location.getByRole('textbox', { name: 'Longitude' })).toHaveValue(
		String(FILE_PLACE.longitude),
	);

	await location.getByRole('button', { name: 'Move the pin on a map' }).click();
	const map = location.getByRole('region', { name: `Map of ${NAME}` });
	await expect(map).toBeVisible();
	await expect.poll(() => tiles.requests.length).toBeGreaterThan(0);
	await expectAccessibleInEveryTheme(page, "the Members tab's pin");

	// A click on the map puts the pin there: the fields follow.
	const box = (await map.boundingBox())!;
	await map.click({ position: { x: box.width / 2 + 60, y: box.height / 2 - 40 } });
	await expect(location.getByRole('textbox', { name: 'Latitude' })).not.toHaveValue(
		String(FILE_PLACE.latitude),
	);
	const latitude = Number(await location.getByRole('textbox', { name: 'Latitude' }).inputValue());
	const longitude = Number(await location.getByRole('textbox', { name: 'Longitude' }).inputValue());
	expect(latitude).toBeGreaterThan(FILE_PLACE.latitude);
	expect(longitude).toBeGreaterThan(FILE_PLACE.longitude);

	// Typed by keyboard, a coordinate that is none is refused at the field.
	await location.getByRole('textbox', { name: 'Longitude' }).fill('200');
	await expect(location.getByText('The longitude is between -180 and 180 degrees')).toBeVisible();
	await location.getByRole('textbox', { name: 'Longitude' }).fill(String(longitude));

	await panel.getByRole('button', { name: 'Save Listing' }).click();
	await expect(panel.getByText('Changes saved.', { exact: false })).toBeVisible();
	expect(await stored()).toMatchObject({
		location: { latitude, longitude },
		location_source: 'staff',
		location_quality: 'manual',
	});

	// The membership system's file again, with its own coordinates and another address.
	await importTenant(
		await serviceClient(),
		parseTenantFile(
			{
				tenant: { slug, name: `Pin ${slug}` },
				businesses: [optician(FILE_PLACE, '40 Dock Street')],
			},
			'pin re-import',
		),
		{ replaceBusinesses: false },
	);
	expect(await stored()).toMatchObject({
		location: { latitude, longitude },
		geocode_requests: [],
	});

	panel = await listing(page);
	const again = panel.getByRole('group', { name: 'Location on the map' });
	await expect(again.getByRole('textbox', { name: 'Latitude' })).toHaveValue(String(latitude));
	await expect(
		again.getByText('imports, syncs and the geocoder leave it where it is', { exact: false }),
	).toBeVisible();
	await again.getByRole('button', { name: 'Place by the address again' }).click();
	await expect(
		panel.getByText(
			'The pin placed by hand is gone: the geocoder places the business by its address',
			{
				exact: false,
			},
		),
	).toBeVisible();
	await expect(again.getByText('Waiting for the geocoder to look up the address.')).toBeVisible();
	await expect(again.getByRole('textbox', { name: 'Latitude' })).toHaveValue('');
	expect(await stored()).toMatchObject({
		location: null,
		location_source: null,
		geocode_requests: [{ status: 'pending' }],
	});
	await expectAccessibleInEveryTheme(page, 'a listing waiting for the geocoder');
});
