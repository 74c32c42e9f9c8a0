// Runs on: both — the distance is SQL (haversine over the index's box), proved on the production
// shape; and the embedded stack has no PostGIS, so the same SQL must answer on PGlite.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { destination, haversineKm } from '../../src/features/geo/geo.ts';
import { KM_PER_MILE } from '../../src/features/geo/rules.ts';
import { parseTenantFile, type BusinessInput } from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { lastGoodSize } from '../../src/lib/last-good.server.ts';
import { startFunctionServer, type FunctionServer } from '../support/function-server.ts';
import { anon, db, service, stack } from './clients.ts';
import { randomSlug } from './fixtures.ts';

// Distance search against known points: businesses placed on the four compass points of a
// circle, a metre inside and a metre outside its edge, at every radius the page offers; a map's
// box; the filters with it; the pages; and what the API does with a visitor's position.

/** A centre the page could send: three decimals, as it rounds. */
const CENTRE = { latitude: 41.977, longitude: -91.666 };
const RADII_MI = [1, 5, 10, 25] as const;
const BEARINGS = { north: 0, east: 90, south: 180, west: 270 } as const;
/** How far inside and outside the edge the probes stand: coordinates keep six decimals (≤ 0.1 m). */
const MARGIN_KM = 0.001;

const slug = randomSlug('near');
let tenantId = '';
let server: FunctionServer;
let next = 1;

function business(name: string, extra: Partial<BusinessInput> = {}): BusinessInput {
	return { report_name: name, weblink_profile_id: String(910000 + next++), ...extra };
}

const probes: BusinessInput[] = [];
for (const radius of RADII_MI) {
	for (const [side, bearing] of Object.entries(BEARINGS)) {
		const km = radius * KM_PER_MILE;
		probes.push(
			business(`In ${radius} mi ${side}`, {
				location: destination(CENTRE, bearing, km - MARGIN_KM),
				categories: [radius <= 5 ? 'Bakeries' : 'Hardware'],
			}),
			business(`Out ${radius} mi ${side}`, {
				location: destination(CENTRE, bearing, km + MARGIN_KM),
				categories: ['Hardware'],
			}),
		);
	}
}

const others: BusinessInput[] = [
	business('Centre Cafe', { location: CENTRE, categories: ['Bakeries'] }),
	business('Unplaced Books', { address1: '', city: '' }),
	business('Unpublished Mill', { location: CENTRE, published: false }),
];

beforeAll(async () => {
	await db.connect();
	const file = parseTenantFile(
		{ tenant: { slug, name: 'Near Chamber' }, businesses: [...probes, ...others] },
		'near fixture',
	);
	tenantId = (await importTenant(service, file)).tenant_id;
	server = await startFunctionServer(stack, { tenant: slug });
});
afterAll(async () => {
	await server?.close();
	await db.query('delete from public.tenants where slug = $1', [slug]);
	await db.end();
});

interface Page {
	total: number;
	totalPages: number;
	distanceUnit?: string;
	businesses: {
		name: string;
		distance?: number;
		latitude: number | null;
		longitude: number | null;
	}[];
}

async function near(params: Record<string, string>): Promise<Page> {
	const answer = await server.call(`/api/businesses?${new URLSearchParams(params)}`);
	expect(answer.status, JSON.stringify(answer.body)).toBe(200);
	return answer.body as Page;
}

const centre = `${CENTRE.latitude},${CENTRE.longitude}`;

describe('near a point, within a radius', () => {
	for (const radius of RADII_MI) {
		it(`keeps the businesses a metre inside ${radius} mi on every side and none a metre outside`, async () => {
			const page = await near({ near: centre, radius: String(radius), pageSize: '100' });
			const names = page.businesses.map((b) => b.name);
			for (const side of Object.keys(BEARINGS)) {
				expect(names).toContain(`In ${radius} mi ${side}`);
				expect(names).not.toContain(`Out ${radius} mi ${side}`);
			}
			// Every smaller radius's probes are in, inside and out; the centre's business too.
			const inside = RADII_MI.filter((r) => r < radius).length * 8 + 4 + 1;
			expect(page.total).toBe(inside);
			expect(names).not.toContain('Unplaced Books');
			expect(names).not.toContain('Unpublished Mill');
		});
	}

	it('sorts nearest first and answers each distance as the haversine formula gives it', async () => {
		const page = await near({ near: centre, radius: '25', pageSize: '100' });
		expect(page.distanceUnit).toBe('mi');
		expect(page.businesses[0]!.name).toBe('Centre Cafe');
		const distances = page.businesses.map((b) => b.distance!);
		expect(distances).toEqual([...distances].sort((a, b) => a - b));
		for (const b of page.businesses) {
			const km = haversineKm(CENTRE, { latitude: b.latitude!, longitude: b.longitude! });
			expect(b.distance).toBeCloseTo(km / KM_PER_MILE, 2);
		}
	});

	it('counts in kilometres when asked, the radius too', async () => {
		const km = 5 * KM_PER_MILE;
		const page = await near({ near: centre, radius: String(km), unit: 'km', pageSize: '100' });
		expect(page.distanceUnit).toBe('km');
		expect(page.total).toBe(8 + 4 + 1);
		const edge = page.businesses.find((b) => b.name === 'In 5 mi north')!;
		expect(edge.distance).toBeCloseTo(km - MARGIN_KM, 2);
	});

	it('combines with the filters, and pages with the total', async () => {
		const bakeries = await near({
			near: centre,
			radius: '25',
			category: 'Bakeries',
			pageSize: '3',
		});
		// Centre Cafe and the 1 and 5 mile probes inside.
		expect(bakeries.total).toBe(9);
		expect(bakeries.totalPages).toBe(3);
		expect(bakeries.businesses.map((b) => b.name)).toHaveLength(3);
		const last = await near({
			near: centre,
			radius: '25',
			category: 'Bakeries',
			pageSize: '3',
			page: '3',
		});
		expect(last.businesses).toHaveLength(3);
		const past = await near({
			near: centre,
			radius: '25',
			category: 'Bakeries',
			pageSize: '3',
			page: '4',
		});
		expect(past).toMatchObject({ total: 9, totalPages: 3, businesses: [] });
	});

	it('rounds the position it is sent to three decimals', async () => {
		// 1 mi north, sent with ten decimals: the centre it measures from is the rounded one.
		const precise = `${CENTRE.latitude + 0.0004999},${CENTRE.longitude - 0.0004999}`;
		const page = await near({ near: precise, radius: '1', pageSize: '100' });
		expect(page.businesses.map((b) => b.name)).toContain('In 1 mi north');
		expect(page.businesses[0]).toMatchObject({ name: 'Centre Cafe', distance: 0 });
	});

	it('is kept by neither the CDN, the browser nor the last good answers, and logged nowhere', async () => {
		const logged = [
			vi.spyOn(console, 'log'),
			vi.spyOn(console, 'error'),
			vi.spyOn(console, 'warn'),
			vi.spyOn(console, 'info'),
		];
		try {
			const kept = lastGoodSize();
			const answer = await server.call(`/api/businesses?near=${centre}&radius=5`);
			expect(answer.status).toBe(200);
			expect(answer.headers.get('cache-control')).toBe('private, no-store');
			expect(answer.headers.get('netlify-cdn-cache-control')).toBeNull();
			expect(lastGoodSize()).toBe(kept);
			const points = await server.call(`/api/business-locations?near=${centre}&radius=5`);
			expect(points.headers.get('cache-control')).toBe('private, no-store');
			const lines = logged.flatMap((spy) => spy.mock.calls.map((call) => call.join(' ')));
			expect(lines.filter((line) => line.includes(String(CENTRE.latitude)))).toEqual([]);
		} finally {
			for (const spy of logged) spy.mockRestore();
		}
	});

	it('refuses a position or radius it cannot read, naming the parameter', async () => {
		for (const [query, message] of [
			['near=91,0', /^near: Expected a latitude and a longitude/],
			['near=somewhere', /^near: /],
			[`near=${centre}&radius=0`, /^radius: Expected a distance more than 0/],
			[`near=${centre}&radius=101`, /^radius: Expected a distance of at most 100/],
			[`near=${centre}&unit=furlongs`, /^unit: Expected mi or km/],
			['bounds=42,-91,41,-92', /^bounds: Expected south,west,north,east/],
		] as const) {
			const answer = await server.call(`/api/businesses?${query}`);
			expect(answer.status, query).toBe(400);
			expect(answer.body.error, query).toMatch(message);
		}
	});
});

describe("in a map's area", () => {
	// The box of the 5-mile circle's compass points, a little inside: the 1-mile probes and the
	// centre's business are in, the 5-mile ones just outside its edges.
	const edge = (bearing: number) => destination(CENTRE, bearing, 5 * KM_PER_MILE - 0.01);
	const bounds = [
		edge(180).latitude,
		edge(270).longitude,
		edge(0).latitude,
		edge(90).longitude,
	].join(',');

	it('answers the businesses inside the box, nearest its middle first', async () => {
		const page = await near({ bounds, pageSize: '100' });
		const names = page.businesses.map((b) => b.name).sort();
		expect(names).toEqual(
			[
				'Centre Cafe',
				...Object.keys(BEARINGS).flatMap((s) => [`In 1 mi ${s}`, `Out 1 mi ${s}`]),
			].sort(),
		);
		expect(page.businesses[0]!.name).toBe('Centre Cafe');
	});

	it('answers the same businesses as map points, with the total', async () => {
		const points = await server.call(`/api/business-locations?${new URLSearchParams({ bounds })}`);
		expect(points.status).toBe(200);
		expect(points.body.total).toBe(9);
		expect(points.body.names.sort()).toEqual(
			(await near({ bounds, pageSize: '100' })).businesses.map((b) => b.name).sort(),
		);
		expect(points.headers.get('netlify-cdn-cache-control')).toMatch(/s-maxage=300/);
	});
});

describe('the map points of a whole search', () => {
	it('counts every match, and lists the located ones with their coordinates', async () => {
		const all = await server.call('/api/business-locations');
		expect(all.status).toBe(200);
		const published = probes.length + 2;
		expect(all.body).toMatchObject({ total: published, located: published - 1 });
		const { ids, names, latitudes, longitudes } = all.body as Record<string, unknown[]>;
		expect([ids, names, latitudes, longitudes].map((list) => list!.length)).toEqual([
			published - 1,
			published - 1,
			published - 1,
			published - 1,
		]);
		const at = (names as string[]).indexOf('Centre Cafe');
		expect([latitudes![at], longitudes![at]]).toEqual([CENTRE.latitude, CENTRE.longitude]);
	});

	it('follows the search and its filters', async () => {
		const bakeries = await anon.rpc('directory_locations', {
			p_tenant_id: tenantId,
			p_category: 'Bakeries',
		});
		expect(bakeries.error).toBeNull();
		expect(bakeries.data).toMatchObject({ total: 9, located: 9 });
		const none = await anon.rpc('directory_locations', {
			p_tenant_id: tenantId,
			p_search_query: 'qqqxyzzy',
		});
		expect(none.data).toMatchObject({ total: 0, located: 0, ids: [] });
	});
});
