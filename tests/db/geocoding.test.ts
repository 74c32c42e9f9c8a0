// Runs on: both — the queue, its triggers and what an answer may change are SQL (the production
// shape); the scheduled function and the sync run on the embedded stack as `npm start` runs them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readGeocoderSettings } from '../../src/features/geo/geocoder-settings.server.ts';
import { createGeocoder } from '../../src/features/geo/geocoder.server.ts';
import { geocodeDueRequests } from '../../src/features/geo/geocode.server.ts';
import { parseTenantFile, type BusinessInput } from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { generateTenant } from '../../tenants/demo/generate.ts';
import { useSourceFetch, type PublicFetch } from '../../src/lib/public-fetch.server.ts';
import {
	startAtlasMembersStandin,
	type AtlasMembersStandin,
} from '../support/atlas-members-standin.ts';
import { startCensusStandin, type CensusStandin } from '../support/census-standin.ts';
import { userClient } from '../support/db-clients.ts';
import { standinFetch, standinUrl } from '../support/standin-fetch.ts';
import { db, service, stack } from './clients.ts';
import { importStaffChambers, randomSlug, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// The geocoder's queue, end to end against the real migrations: what an import, a member added or
// saved in the Members tab and a sync queue (and that the demo's import queues nothing), the
// scheduled run against a stand-in of the Census geocoder (over real HTTP), what an answer may
// change (never a pin staff placed, never a newer address), retries, a pin moved in the Members
// tab that a later sync keeps, and a site without a geocoder leaving the queue as it is.

const DOMAIN = 'geocoding.test';
const MAIN = '100 Main Street';
const OAK = '12 Oak Street';
const at = (street: string) => `${street}, Cedarbrook, IA 52901`;
const PLACES = {
	[at(MAIN)]: { latitude: 41.97791, longitude: -91.66562 },
	[at(OAK)]: { latitude: 41.98012, longitude: -91.67034 },
	[at('7 Elm Street')]: { latitude: 41.9702, longitude: -91.6601 },
	[at('40 Depot Street')]: { latitude: 41.9755, longitude: -91.6711 },
};

const business = (id: string, name: string, extra: Partial<BusinessInput> = {}): BusinessInput => ({
	weblink_profile_id: id,
	report_name: name,
	address1: MAIN,
	city: 'Cedarbrook',
	state: 'IA',
	zip: '52901',
	...extra,
});

const BUSINESSES: BusinessInput[] = [
	business('201', 'Main Bakery'),
	business('202', 'Oak Hardware', { address1: OAK }),
	business('203', 'Lost Books', { address1: '1 Nowhere Road' }),
	business('204', 'Placed Florist', { location: { latitude: 41.99, longitude: -91.61 } }),
	business('205', 'Home Tutor', { address1: '', city: '' }),
	business('206', 'Elm Dentist', { address1: '7 Elm Street' }),
];

let site: StaffSite<StaffChambers>;
let chambers: StaffChambers;
let census: CensusStandin;
let atlas: AtlasMembersStandin;
let restoreFetch: () => void;

const geocoder = () =>
	createGeocoder(
		readGeocoderSettings('US', {
			CENSUS_GEOCODER_URL: standinUrl(census.url, 'census-geocoder.test'),
		}),
	);
const run = () => geocodeDueRequests(service, chambers.tenantId, geocoder());

async function row(weblinkId: string) {
	const { rows } = await db.query(
		`select p.id, p.location, p.location_source, p.location_quality, p.version, p.updated_by,
			r.status, r.attempts, r.last_error, r.next_attempt_at, r.requested_at, r.claimed_until,
			(select count(*)::int from public.audit_log a where a.business_id = p.id and a.field = 'location') as audits,
			(select o.system_value from public.business_overrides o where o.profile_id = p.id and o.field = 'location') as override
		from public.profiles p left join public.geocode_requests r on r.profile_id = p.id
		where p.tenant_id = $1 and p.weblink_profile_id = $2`,
		[chambers.tenantId, weblinkId],
	);
	return rows[0];
}

async function api(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
	return site.server.call(path, { token, ...init });
}

async function reimport(businesses: BusinessInput[]) {
	await importTenant(
		service,
		parseTenantFile(
			{ tenant: { slug: chambers.slug, name: chambers.tenantName }, businesses },
			're-import',
		),
		{ replaceBusinesses: false },
	);
}

beforeAll(async () => {
	census = await startCensusStandin({
		places: Object.entries(PLACES).map(([address, place]) => ({ address, ...place })),
	});
	atlas = await startAtlasMembersStandin({ members: [] });
	restoreFetch = useSourceFetch(standinFetch());
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'geo',
				domain: DOMAIN,
				password: 'geocoding-password',
				name: 'Geocoding',
				businesses: BUSINESSES,
			}),
		env: {
			ATLAS_MEMBERS_URL: standinUrl(atlas.membersUrl, 'atlas-members.test'),
			ATLAS_TOKEN_URL: standinUrl(atlas.tokenUrl, 'atlas-members.test'),
			ATLAS_CLIENT_ID: atlas.clientId,
			ATLAS_CLIENT_SECRET: atlas.clientSecret,
			ATLAS_MEMBERS_TENANT: atlas.tenant,
		},
	});
	({ chambers } = site);
	// The scheduled sync starts the background function at the site's own address.
	process.env.URL = site.server.url.replace('localhost', '127.0.0.1');
});

afterAll(async () => {
	restoreFetch?.();
	await census?.close();
	await atlas?.close();
	await site?.close();
});

beforeEach(async () => {
	census.failWith = null;
	await site.reset();
});

describe('what is queued', () => {
	it('an import queues the businesses with an address and no location, nothing else', async () => {
		expect(await row('201')).toMatchObject({ status: 'pending', attempts: 0, location: null });
		expect(await row('202')).toMatchObject({ status: 'pending' });
		// The file placed it; a business without a street has nothing to look up.
		expect(await row('204')).toMatchObject({
			status: null,
			location_source: 'file',
			location_quality: 'supplied',
			location: { latitude: 41.99, longitude: -91.61 },
		});
		expect(await row('205')).toMatchObject({ status: null, location: null });
	});
});

describe('a run of the scheduled function', () => {
	it('places each business, says how, and changes nothing else of it', async () => {
		const before = await row('201');
		const counts = await run();
		expect(counts).toMatchObject({ located: 3, unmatched: 1, failed: 0, dropped: 0 });
		// More than three addresses: one batch file.
		expect(census.requests.at(-1)).toMatchObject({ path: '/geocoder/locations/addressbatch' });
		const main = await row('201');
		expect(main).toMatchObject({
			location: PLACES[at(MAIN)],
			location_source: 'census',
			location_quality: 'exact',
			status: null,
			// The geocoder placing a business is no change of it.
			version: before.version,
			updated_by: before.updated_by,
			audits: 0,
		});
		expect(await row('203')).toMatchObject({
			location: null,
			status: 'unmatched',
			last_error: 'The geocoder found no such address',
			next_attempt_at: null,
		});
		// Nothing is due any more.
		expect(await run()).toMatchObject({ located: 0, unmatched: 0, failed: 0 });
	});

	it('the Members tab says who placed it, or why the geocoder did not', async () => {
		const { id } = await row('203');
		const lost = await api(`/api/admin/businesses/${id}`, chambers.tokens.editor);
		expect(lost.body.location).toMatchObject({
			source: null,
			request: { status: 'unmatched', lastError: 'The geocoder found no such address' },
		});
		const main = await api(
			`/api/admin/businesses/${(await row('201')).id}`,
			chambers.tokens.editor,
		);
		expect(main.body.business.location).toEqual(PLACES[at(MAIN)]);
		expect(main.body.location).toMatchObject({ source: 'census', quality: 'exact', request: null });
	});

	it('asks again later, less and less often, after the geocoder failed, and gives up after 8 tries', async () => {
		await db.query(
			`update public.profiles set address1 = '40 Depot Street' where tenant_id = $1 and weblink_profile_id = '206'`,
			[chambers.tenantId],
		);
		census.failWith = 503;
		expect(await run()).toMatchObject({ failed: 1 });
		const first = await row('206');
		expect(first).toMatchObject({
			status: 'pending',
			attempts: 1,
			last_error: 'the geocoder answered HTTP 503',
		});
		expect(new Date(first.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 50_000);
		// Not due yet: the next run leaves it.
		expect(await run()).toMatchObject({ failed: 0 });
		for (let attempt = 2; attempt <= 8; attempt++) {
			await db.query(
				`update public.geocode_requests set next_attempt_at = now() where profile_id = $1`,
				[first.id],
			);
			await run();
		}
		expect(await row('206')).toMatchObject({
			status: 'failed',
			attempts: 8,
			next_attempt_at: null,
		});
		// A new address starts over.
		census.failWith = null;
		await db.query(
			`update public.profiles set address1 = '7 Elm Street' where tenant_id = $1 and weblink_profile_id = '206'`,
			[chambers.tenantId],
		);
		expect(await row('206')).toMatchObject({ status: 'pending', attempts: 0 });
		expect(await run()).toMatchObject({ located: 1 });
		expect((await row('206')).location).toEqual(PLACES[at('7 Elm Street')]);
	});

	it('drops the answer for an address that changed while the geocoder looked it up', async () => {
		await db.query(
			`update public.profiles set address1 = $2 where tenant_id = $1 and weblink_profile_id = '202'`,
			[chambers.tenantId, '40 Depot Street'],
		);
		const claimed = await service.rpc('claim_geocode_requests', {
			p_tenant_id: chambers.tenantId,
			p_limit: 10,
			p_lease_seconds: 60,
		});
		expect(claimed.data?.map((r) => r.address1)).toEqual(['40 Depot Street']);
		// Moved again before the answer came back.
		await db.query(
			`update public.profiles set address1 = $2 where tenant_id = $1 and weblink_profile_id = '202'`,
			[chambers.tenantId, OAK],
		);
		const recorded = await service.rpc('record_geocodes', {
			p_tenant_id: chambers.tenantId,
			p_results: [
				{
					profile_id: claimed.data![0]!.profile_id,
					requested_at: claimed.data![0]!.requested_at,
					outcome: 'located',
					latitude: PLACES[at('40 Depot Street')]!.latitude,
					longitude: PLACES[at('40 Depot Street')]!.longitude,
					quality: 'exact',
					source: 'census',
				},
			],
		});
		expect(recorded.data).toMatchObject({ dropped: 1, located: 0 });
		expect(await row('202')).toMatchObject({ status: 'pending' });
		await run();
		expect((await row('202')).location).toEqual(PLACES[at(OAK)]);
	});

	it('refuses what no geocoder could answer: a latitude off the Earth, an unknown source', async () => {
		await db.query(
			`update public.profiles set address1 = $2 where tenant_id = $1 and weblink_profile_id = '201'`,
			[chambers.tenantId, OAK],
		);
		const [claimed] = (
			await service.rpc('claim_geocode_requests', { p_tenant_id: chambers.tenantId })
		).data!;
		for (const [result, message] of [
			[{ latitude: 91, longitude: 0, source: 'census' }, /latitude: between -90 and 90/],
			[{ latitude: 41, longitude: -91, source: 'google' }, /source: census or nominatim/],
		] as const) {
			const { error } = await service.rpc('record_geocodes', {
				p_tenant_id: chambers.tenantId,
				p_results: [{ ...claimed, outcome: 'located', quality: 'exact', ...result }],
			});
			expect(error?.message).toMatch(message);
		}
		await db.query(
			`update public.geocode_requests set claimed_until = null where profile_id = $1`,
			[claimed!.profile_id],
		);
		await run();
		expect((await row('201')).location).toEqual(PLACES[at(OAK)]);
	});
});

describe('a pin staff placed', () => {
	const PIN = { latitude: 41.97555, longitude: -91.66111 };

	it('is saved with the listing by an admin, not by an editor, and kept in range by the database', async () => {
		const main = await row('201');
		const editor = await api(`/api/admin/businesses/${main.id}`, chambers.tokens.editor, {
			method: 'PATCH',
			body: { version: main.version, changes: { location: PIN } },
		});
		expect(editor.status).toBe(403);
		const off = await api(`/api/admin/businesses/${main.id}`, chambers.tokens.admin, {
			method: 'PATCH',
			body: { version: main.version, changes: { location: { latitude: 95, longitude: 0 } } },
		});
		expect(off.status).toBe(400);
		expect(off.body.error).toBe('location.latitude: The latitude is between -90 and 90 degrees');
		// The database holds the same bounds for a call with the admin's token past the function.
		const { error } = await userClient(stack, chambers.tokens.admin).rpc('save_business', {
			p_tenant_id: chambers.tenantId,
			p_business_id: main.id,
			p_changes: { location: { latitude: 12, longitude: 200 } },
			p_version: main.version,
		});
		expect(error?.message).toBe('location: longitude: between -180 and 180 degrees');

		const saved = await api(`/api/admin/businesses/${main.id}`, chambers.tokens.admin, {
			method: 'PATCH',
			body: { version: main.version, changes: { location: PIN } },
		});
		expect(saved.status).toBe(200);
		expect(await row('201')).toMatchObject({
			location: PIN,
			location_source: 'staff',
			location_quality: 'manual',
			audits: 1,
			// A business of the membership system: changed here.
			override: expect.objectContaining({ latitude: expect.any(Number) }),
		});
	});

	it('stays where staff put it through an import, a new address and the geocoder', async () => {
		await reimport([
			business('201', 'Main Bakery', { address1: '40 Depot Street' }),
			business('202', 'Oak Hardware', { address1: OAK }),
		]);
		expect(await row('201')).toMatchObject({
			location: PIN,
			location_source: 'staff',
			status: null,
		});
		// A file with coordinates of its own: they are the system's value, the pin stays.
		await reimport([
			business('201', 'Main Bakery', {
				address1: '40 Depot Street',
				location: { latitude: 41.5, longitude: -91.5 },
			}),
		]);
		expect(await row('201')).toMatchObject({
			location: PIN,
			override: { latitude: 41.5, longitude: -91.5 },
		});
		await run();
		expect((await row('201')).location).toEqual(PIN);
	});

	it('survives the scheduled sync from the membership system, which moves the address', async () => {
		atlas.format = 'json';
		atlas.members = [
			{
				weblink_profile_id: '201',
				report_name: 'Main Bakery',
				address1: MAIN,
				city: 'Cedarbrook',
				state: 'IA',
				zip: '52901',
			},
			{
				weblink_profile_id: '202',
				report_name: 'Oak Hardware',
				address1: '7 Elm Street',
				city: 'Cedarbrook',
				state: 'IA',
				zip: '52901',
			},
		];
		const scheduled = (await import('../../netlify/functions/member-sync-scheduled.ts')).default;
		const answer = await scheduled(
			new Request('http://localhost/.netlify/functions/member-sync-scheduled'),
		);
		expect(answer.status).toBe(202);
		await expect
			.poll(
				async () =>
					(
						await db.query(
							`select state from public.member_imports where tenant_id = $1 and kind = 'sync' order by created_at desc limit 1`,
							[chambers.tenantId],
						)
					).rows[0]?.state,
				{ timeout: 20_000 },
			)
			.toBe('applied');
		const main = await api(`/api/admin/businesses/${(await row('201')).id}`, chambers.tokens.admin);
		expect(main.body.business).toMatchObject({ address1: MAIN, location: PIN });
		expect(main.body.overrides).toContainEqual(expect.objectContaining({ field: 'location' }));
		// The other business moved: the geocoder places it by its new address.
		expect(await row('202')).toMatchObject({ status: 'pending' });
		await run();
		expect((await row('202')).location).toEqual(PLACES[at('7 Elm Street')]);
		expect((await row('201')).location).toEqual(PIN);
	});

	it('gives way to the address when staff ask: the geocoder places it again', async () => {
		const main = await row('201');
		const reset = await api(
			`/api/admin/businesses/${main.id}/overrides/location`,
			chambers.tokens.admin,
			{
				method: 'DELETE',
			},
		);
		expect(reset.status).toBe(200);
		expect(await row('201')).toMatchObject({ location: null, status: 'pending', override: null });
		await run();
		expect(await row('201')).toMatchObject({
			location: PLACES[at(MAIN)],
			location_source: 'census',
		});
	});
});

describe('a listing in the Members tab', () => {
	/** Adds a member as the tab does (admins); its row by the membership-system id given. */
	async function add(weblinkId: string, fields: Record<string, unknown>) {
		const added = await api('/api/admin/businesses', chambers.tokens.admin, {
			method: 'POST',
			body: {
				weblink_profile_id: weblinkId,
				city: 'Cedarbrook',
				state: 'IA',
				zip: '52901',
				...fields,
			},
		});
		expect(added.status).toBe(201);
		return row(weblinkId);
	}

	async function save(weblinkId: string, changes: Record<string, unknown>) {
		const { id, version } = await row(weblinkId);
		const saved = await api(`/api/admin/businesses/${id}`, chambers.tokens.admin, {
			method: 'PATCH',
			body: { version, changes },
		});
		expect(saved.status).toBe(200);
		return row(weblinkId);
	}

	it('queues a member added with an address, and not one added with its pin', async () => {
		expect(
			await add('301', { report_name: 'Depot Cafe', address1: '40 Depot Street' }),
		).toMatchObject({ location: null, status: 'pending', attempts: 0, last_error: null });
		await run();
		expect(await row('301')).toMatchObject({
			location: PLACES[at('40 Depot Street')],
			location_source: 'census',
			status: null,
		});

		const pin = { latitude: 41.9761, longitude: -91.6623 };
		expect(
			await add('302', { report_name: 'Pinned Deli', address1: OAK, location: pin }),
		).toMatchObject({ location: pin, location_source: 'staff', status: null });
		await run();
		expect((await row('302')).location).toEqual(pin);
	});

	it('queues it again when staff save a new address, unless they placed its pin', async () => {
		await add('303', { report_name: 'Corner Books', address1: MAIN });
		await run();
		const placed = await row('303');
		expect(placed).toMatchObject({ location: PLACES[at(MAIN)], status: null });

		const moved = await save('303', { address1: OAK });
		// The old place stays on the map until the geocoder answers for the new address.
		expect(moved).toMatchObject({
			location: PLACES[at(MAIN)],
			status: 'pending',
			attempts: 0,
			version: placed.version + 1,
		});
		await run();
		expect(await row('303')).toMatchObject({ location: PLACES[at(OAK)], status: null });

		// A save that leaves the address as it is asks nothing.
		expect(await save('303', { work_phone: '319-555-0199' })).toMatchObject({ status: null });

		const pin = { latitude: 41.9744, longitude: -91.6688 };
		expect(await save('303', { location: pin })).toMatchObject({
			location_source: 'staff',
			status: null,
		});
		expect(await save('303', { address1: '7 Elm Street' })).toMatchObject({
			location: pin,
			status: null,
		});
		await run();
		expect((await row('303')).location).toEqual(pin);
	});
});

describe('with no geocoder (GEOCODER=none)', () => {
	it('leaves the queue as it is: nothing claimed, no try counted, nothing sent; a geocoder set later places them', async () => {
		const { id } = await row('201');
		await db.query(`update public.profiles set address1 = $2 where id = $1`, [id, OAK]);
		const queued = await row('201');
		expect(queued).toMatchObject({ status: 'pending', attempts: 0, claimed_until: null });

		const asked: string[] = [];
		const fetcher = standinFetch();
		const counting: PublicFetch = (url, init) => {
			asked.push(url.href);
			return fetcher(url, init);
		};
		useSourceFetch(counting);
		const censusAsked = census.requests.length;
		try {
			const none = createGeocoder(readGeocoderSettings('US', { GEOCODER: 'none' }));
			for (let i = 0; i < 3; i++) {
				expect(await geocodeDueRequests(service, chambers.tenantId, none)).toEqual({
					located: 0,
					unmatched: 0,
					failed: 0,
					dropped: 0,
				});
			}
		} finally {
			useSourceFetch(fetcher);
		}
		expect(asked).toEqual([]);
		expect(census.requests).toHaveLength(censusAsked);
		// Still due, as it was: no lease taken, no failed try, no later time.
		expect(await row('201')).toEqual(queued);

		await run();
		expect(await row('201')).toMatchObject({ location: PLACES[at(OAK)], status: null });
	});

	it('the Members tab says to place the pin by hand, not to wait; with a geocoder, to wait', async () => {
		const { id } = await row('205');
		await db.query(`update public.profiles set address1 = $2, city = 'Cedarbrook' where id = $1`, [
			id,
			OAK,
		]);
		const listing = () => api(`/api/admin/businesses/${id}`, chambers.tokens.editor);
		const before = process.env.GEOCODER;
		process.env.GEOCODER = 'none';
		try {
			expect((await listing()).body.location).toMatchObject({
				request: { status: 'pending' },
				geocoding: false,
			});
		} finally {
			if (before === undefined) delete process.env.GEOCODER;
			else process.env.GEOCODER = before;
		}
		// This chamber is in the United States: the Census Bureau's geocoder by default.
		expect((await listing()).body.location).toMatchObject({
			request: { status: 'pending' },
			geocoding: true,
		});
	});
});

describe('the demo chamber', () => {
	it('queues nothing when imported: every business with a street comes with its own place', async () => {
		const slug = randomSlug('geo-demo');
		const demo = parseTenantFile(generateTenant({ slug }), 'tenants/demo/generate.ts');
		try {
			const { tenant_id: tenantId } = await importTenant(service, demo, {
				only: ['config', 'businesses'],
			});
			const { rows } = await db.query(
				`select count(*)::int as businesses,
					count(*) filter (where p.location_source = 'file')::int as placed,
					count(*) filter (where public.has_geocodable_address(p.address1, p.city, p.zip))::int as with_street,
					(select count(*)::int from public.geocode_requests r where r.tenant_id = $1) as queued
				from public.profiles p where p.tenant_id = $1`,
				[tenantId],
			);
			expect(rows[0].businesses).toBe(demo.businesses.length);
			expect(rows[0].queued).toBe(0);
			expect(rows[0].placed).toBe(rows[0].with_street);
			expect(rows[0].placed).toBeGreaterThan(0);
		} finally {
			await db.query('delete from public.tenants where slug = $1', [slug]);
		}
	});
});
