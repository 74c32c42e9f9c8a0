// Runs on: hosted — the directory's reads are views and functions in SQL: proved on the
// production shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, db, service } from './clients.ts';
import { parseConfig, type ChamberConfig } from '../../src/features/config/config.ts';
import { getChamberConfig } from '../../src/features/config/config.server.ts';
import {
	businessListQuerySchema,
	type Business,
	type BusinessListQuery,
} from '../../src/features/directory/directory.ts';
import {
	completeProfile,
	membershipRank,
	type SortValue,
} from '../../src/features/directory/rules.ts';
import {
	getBusiness,
	getCacheVersion,
	listAllBusinesses,
	listBanners,
	listBusinesses,
	listCategories,
	listFeaturedCandidates,
	listFilterOptions,
} from '../../src/features/directory/directory.server.ts';
import { MEMBERSHIP_RANK_CASES } from '../../src/features/directory/membership-rank.cases.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import {
	directoryConfig,
	NAMES,
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';
import { randomProfileNumber, randomSlug } from './fixtures.ts';

let fx: DirectoryFixture;
let config: ChamberConfig;

beforeAll(async () => {
	await db.connect();
	fx = await seedDirectoryTenants(service, {
		banners: [
			{ banner_name: 'Second', image_url: '/demo/banners/banner-2.svg', position: 2 },
			{ banner_name: 'First', image_url: '/demo/banners/banner-1.svg', position: 1 },
			{ banner_name: 'Retired', image_url: '/demo/banners/banner-3.svg', active: false },
		],
	});
	config = await getChamberConfig(anon, fx.a.id);
});

afterAll(async () => {
	if (fx) await removeDirectoryTenants(db, fx);
	await db.end();
});

function query(input: Record<string, string> = {}): BusinessListQuery {
	return businessListQuerySchema.parse(input);
}

async function names(input: Record<string, string>, tenantId = fx.a.id): Promise<string[]> {
	const result = await listBusinesses(anon, tenantId, query({ pageSize: '100', ...input }), config);
	return result.businesses.map((b) => b.name);
}

function expectNoOtherTenant(businesses: Business[]) {
	for (const b of businesses) expect(fx.otherIds).not.toContain(b.id);
	expect(businesses.map((b) => b.name)).not.toContain('Hidden Tavern');
}

describe('listBusinesses: the nine sorts', () => {
	it.each<[SortValue, string[]]>([
		['nameAsc', [...NAMES]],
		['nameDesc', [...NAMES].reverse()],
		// Ranks: Foxtrot 12 (given), Alpha and Golf 10 (Trustee), Bella 8 (partial: Executive
		// Partner), Cedar 6 (keyword board), Delta 1 (keyword business), Echo 0; ties by name.
		[
			'membershipHighToLow',
			[
				'Foxtrot Consulting',
				'Alpha Plumbing',
				'Golf Pro Shop',
				"Bella's Restaurant",
				'Cedar Law Office',
				'Delta Auto Repair',
				'Echo Bakery',
			],
		],
		[
			'membershipLowToHigh',
			[
				'Echo Bakery',
				'Delta Auto Repair',
				'Cedar Law Office',
				"Bella's Restaurant",
				'Alpha Plumbing',
				'Golf Pro Shop',
				'Foxtrot Consulting',
			],
		],
		// Positions: Alpha 1, Bella 2, Golf 3, Delta 5, the rest the default 1000; ties by name.
		[
			'listingPositionHighToLow',
			[
				'Alpha Plumbing',
				"Bella's Restaurant",
				'Golf Pro Shop',
				'Delta Auto Repair',
				'Cedar Law Office',
				'Echo Bakery',
				'Foxtrot Consulting',
			],
		],
		[
			'listingPositionLowToHigh',
			[
				'Cedar Law Office',
				'Echo Bakery',
				'Foxtrot Consulting',
				'Delta Auto Repair',
				'Golf Pro Shop',
				"Bella's Restaurant",
				'Alpha Plumbing',
			],
		],
	])('%s', async (sortBy, expected) => {
		expect(await names({ sortBy })).toEqual(expected);
	});

	it('uses the configured default sort when none is asked for', async () => {
		expect(config.searchPage.defaultSort).toBe('membershipHighToLow');
		expect(await names({})).toEqual(await names({ sortBy: 'membershipHighToLow' }));
	});

	it('random: the same seed gives the same order, another seed another one', async () => {
		const first = await names({ sortBy: 'random', randomSeed: '0.1' });
		expect(await names({ sortBy: 'random', randomSeed: '0.1' })).toEqual(first);
		expect([...first].sort()).toEqual([...NAMES].sort());
		const other = await names({ sortBy: 'random', randomSeed: '0.9' });
		expect([...other].sort()).toEqual([...NAMES].sort());
		expect(other).not.toEqual(first);
	});

	it('random: pages of one seed never overlap and together make the whole order', async () => {
		const whole = await names({ sortBy: 'random', randomSeed: '0.3' });
		const pages: string[] = [];
		for (const page of ['1', '2', '3']) {
			pages.push(...(await names({ sortBy: 'random', randomSeed: '0.3', pageSize: '3', page })));
		}
		expect(pages).toEqual(whole);
	});

	it.each<[SortValue, number]>([
		['listingPositionHighToLowRandom', 1],
		['listingPositionLowToHighRandom', -1],
	])('%s keeps the position order and shuffles within a position by seed', async (sortBy, dir) => {
		const positions = new Map([
			['Alpha Plumbing', 1],
			["Bella's Restaurant", 2],
			['Golf Pro Shop', 3],
			['Delta Auto Repair', 5],
		]);
		const orders: string[][] = [];
		// The fixture's ids, and so their shuffle keys, are new each run: with this many seeds the
		// three come out in one order for every seed only when all three fall in one of the 256
		// shuffle buckets (a run in 65,536), not by chance (in 2^23).
		const seeds = Array.from({ length: 24 }, (_, i) => ((i + 0.5) / 24).toFixed(4));
		for (const seed of seeds) {
			const order = await names({ sortBy, randomSeed: seed });
			expect(order).toEqual(await names({ sortBy, randomSeed: seed }));
			const pos = order.map((n) => positions.get(n) ?? 1000);
			expect(pos).toEqual([...pos].sort((x, y) => dir * (x - y)));
			orders.push(order.filter((n) => !positions.has(n)));
		}
		// The three businesses at position 1000 do not come out in one fixed order.
		expect(new Set(orders.map((o) => o.join('|'))).size).toBeGreaterThan(1);
	});

	it('pages: page size, total and total pages; a page past the end is empty but counted', async () => {
		const page2 = await listBusinesses(
			anon,
			fx.a.id,
			query({ sortBy: 'nameAsc', pageSize: '3', page: '2' }),
			config,
		);
		expect(page2.businesses.map((b) => b.name)).toEqual([
			'Delta Auto Repair',
			'Echo Bakery',
			'Foxtrot Consulting',
		]);
		expect(page2.total).toBe(7);
		expect(page2.totalPages).toBe(3);
		const past = await listBusinesses(anon, fx.a.id, query({ pageSize: '3', page: '9' }), config);
		expect(past).toEqual({ businesses: [], total: 7, totalPages: 3 });
	});

	it('returns the display model', async () => {
		const [alpha] = (await listBusinesses(anon, fx.a.id, query({ searchQuery: 'Alpha' }), config))
			.businesses;
		expect(alpha).toMatchObject({
			id: fx.ids['Alpha Plumbing'].id,
			weblinkProfileId: fx.ids['Alpha Plumbing'].weblinkProfileId,
			name: 'Alpha Plumbing',
			slug: 'alpha-plumbing',
			website: 'https://alphaplumbing.example',
			membershipLevel: 'Trustee',
			membershipRank: 10,
			isNewMember: true,
			address: { street: '100 Main St', city: 'Cedarbrook', state: 'IA', zip: '52901' },
			badges: [{ iconText: 'WIB', affCode: 'WIB' }],
		});
	});
});

describe('listBusinesses: filters and search', () => {
	it.each<[string, Record<string, string>, string[]]>([
		['category', { category: 'Restaurants' }, ["Bella's Restaurant", 'Echo Bakery']],
		['city', { city: 'Marion' }, ['Cedar Law Office', 'Delta Auto Repair']],
		['county', { county: 'Benton' }, ['Delta Auto Repair', 'Echo Bakery']],
		['zip', { zip: '52901' }, ['Alpha Plumbing', 'Foxtrot Consulting']],
		['affiliation', { affiliation: 'Women in Business' }, ['Alpha Plumbing']],
		[
			'new members only (90 days)',
			{ newMembersOnly: 'true' },
			['Alpha Plumbing', 'Cedar Law Office'],
		],
		[
			'city and category together',
			{ city: 'Cedarbrook', category: 'Restaurants' },
			["Bella's Restaurant"],
		],
		['a keyword', { searchQuery: 'pizza' }, ["Bella's Restaurant"]],
		['nothing', { searchQuery: 'zeppelin' }, []],
	])('%s', async (_why, filters, expected) => {
		const result = await listBusinesses(
			anon,
			fx.a.id,
			query({ sortBy: 'nameAsc', ...filters }),
			config,
		);
		expect(result.businesses.map((b) => b.name)).toEqual(expected);
		expect(result.total).toBe(expected.length);
	});

	it('tolerates typos: "resturant" finds the restaurant', async () => {
		expect(await names({ searchQuery: 'resturant' })).toContain("Bella's Restaurant");
	});

	it('tolerates word forms: "plumbers" finds Plumbing', async () => {
		expect(await names({ searchQuery: 'plumbers' })).toContain('Alpha Plumbing');
	});

	it('never shows another chamber’s or an unpublished business', async () => {
		const inputs: Record<string, string>[] = [
			{},
			{ searchQuery: 'pizza' },
			{ searchQuery: 'piza' },
			{ searchQuery: 'resturant' },
			{ searchQuery: 'Alpha Plumbing' },
			{ category: 'Restaurants' },
			{ city: 'Cedarbrook' },
			{ affiliation: 'Women in Business' },
			{ newMembersOnly: 'true' },
			{ sortBy: 'random' },
			{ sortBy: 'listingPositionHighToLowRandom' },
		];
		for (const input of inputs) {
			const result = await listBusinesses(
				anon,
				fx.a.id,
				query({ pageSize: '100', ...input }),
				config,
			);
			expect(result.businesses.length).toBeGreaterThan(0);
			expectNoOtherTenant(result.businesses);
		}
	});
});

describe('membership rank: SQL and TypeScript agree', () => {
	it.each(MEMBERSHIP_RANK_CASES)(
		'$why: $level → $rank',
		async ({ level, given, hierarchy, rank }) => {
			const { rows } = await db.query<{ rank: number }>(
				'select public.membership_rank($1, $2, $3::jsonb) as rank',
				[level, given, JSON.stringify(hierarchy)],
			);
			expect(rows[0]?.rank).toBe(rank);
			expect(membershipRank(level, given, hierarchy)).toBe(rank);
		},
	);
});

describe('listAllBusinesses', () => {
	it('returns every published business of the tenant by name', async () => {
		const all = await listAllBusinesses(anon, fx.a.id, config);
		expect(all.map((b) => b.name)).toEqual([...NAMES]);
	});

	it('reads batch after batch, each after the last row of the one before, whatever the names', async () => {
		// Names with PostgREST's reserved characters, and repeated names (ordered by id).
		const names = [
			'Ace, Bolt & Nut (Co.)',
			'Quote "Q" Shop',
			'Back\\slash Books',
			'Same Name',
			'Same Name',
			'Same Name',
			'dot.com Services',
			'Zeta: Repairs',
		];
		const slug = randomSlug('dir-keyset');
		const imported = await importTenant(
			service,
			parseTenantFile(
				{
					tenant: { slug, name: `Keyset Chamber ${slug}` },
					config: { slug, ...directoryConfig(slug) },
					businesses: names.map((name) => ({
						report_name: name,
						state: 'IA',
						weblink_profile_id: randomProfileNumber(),
						listings: [{ description: '', short_description: '', primary_listing: true }],
					})),
				},
				'keyset fixture',
			),
		);
		try {
			const { data } = await service
				.from('business_cards_view')
				.select('id')
				.eq('tenant_id', imported.tenant_id)
				.order('report_name')
				.order('id');
			const ordered = (data as { id: string }[]).map((row) => row.id);
			expect(ordered).toHaveLength(names.length);
			for (const batchSize of [1, 2, 3, 1000]) {
				const all = await listAllBusinesses(
					anon,
					imported.tenant_id,
					config,
					new Date(),
					batchSize,
				);
				expect(
					all.map((b) => b.id),
					`batches of ${batchSize}`,
				).toEqual(ordered);
			}
		} finally {
			await db.query('delete from public.tenants where id = $1', [imported.tenant_id]);
		}
	});
});

describe('getBusiness', () => {
	it('finds a business by internal id, by weblink profile id and by name prefix', async () => {
		const alpha = fx.ids['Alpha Plumbing'];
		expect((await getBusiness(anon, fx.a.id, alpha.id, config))?.name).toBe('Alpha Plumbing');
		expect((await getBusiness(anon, fx.a.id, alpha.weblinkProfileId, config))?.id).toBe(alpha.id);
		expect((await getBusiness(anon, fx.a.id, 'Cedar', config))?.name).toBe('Cedar Law Office');
		expect((await getBusiness(anon, fx.a.id, "bella's", config))?.name).toBe("Bella's Restaurant");
	});

	it('finds nothing for unknown ids, wildcards, other tenants and unpublished businesses', async () => {
		for (const key of [
			'00000000-0000-4000-8000-000000000000',
			'999999999999',
			'Zeppelin',
			'%',
			'_lpha',
			'Smith-Jones',
			'',
			fx.otherIds[0]!,
			fx.ids['Hidden Tavern'].id,
			fx.ids['Hidden Tavern'].weblinkProfileId,
			'Hidden',
		]) {
			expect(await getBusiness(anon, fx.a.id, key, config), key).toBeNull();
		}
	});

	it('keeps a name lookup inside the tenant even when another chamber has the same name', async () => {
		const alpha = await getBusiness(anon, fx.a.id, 'Alpha Plumbing', config);
		expect(alpha?.id).toBe(fx.ids['Alpha Plumbing'].id);
		const other = await getBusiness(anon, fx.b.id, 'Alpha Plumbing', config);
		expect(fx.otherIds).toContain(other?.id);
	});
});

describe('listFeaturedCandidates', () => {
	function withFeatured(featured: Record<string, unknown>): ChamberConfig {
		return parseConfig({ name: 'X', slug: 'x', featuredBusinesses: featured }, 'test');
	}
	async function featuredNames(featured: Record<string, unknown>): Promise<string[]> {
		const list = await listFeaturedCandidates(anon, fx.a.id, withFeatured(featured));
		expectNoOtherTenant(list);
		return list.map((b) => b.name).sort();
	}

	it.each<[string, Record<string, unknown>, string[]]>([
		[
			'membership levels, complete profiles',
			{ strategy: 'membership', membershipLevels: ['TRUSTEE'] },
			['Alpha Plumbing'],
		],
		[
			'membership levels, any profile',
			{ strategy: 'membership', membershipLevels: ['trustee'], requireCompleteProfile: false },
			['Alpha Plumbing', 'Golf Pro Shop'],
		],
		['the default featured configuration (trustee and chairman, complete)', {}, ['Alpha Plumbing']],
		[
			'affiliation',
			{ strategy: 'affiliation', affiliation: 'women in business' },
			['Alpha Plumbing'],
		],
		[
			'random, complete profiles',
			{ strategy: 'random' },
			['Alpha Plumbing', "Bella's Restaurant", 'Cedar Law Office', 'Echo Bakery'],
		],
		['random, any profile', { strategy: 'random', requireCompleteProfile: false }, [...NAMES]],
	])('%s', async (_why, featured, expected) => {
		expect(await featuredNames(featured)).toEqual(expected);
	});

	it('agrees with completeProfile', async () => {
		const all = await listAllBusinesses(anon, fx.a.id, config);
		const complete = all
			.filter(completeProfile)
			.map((b) => b.name)
			.sort();
		expect(await featuredNames({ strategy: 'random' })).toEqual(complete);
	});
});

describe('listFilterOptions', () => {
	it.each<
		[Parameters<typeof listFilterOptions>[2], { category?: string; search?: string }, unknown]
	>([
		[
			'cities',
			{},
			[
				{ name: 'Cedarbrook', count: 3 },
				{ name: 'Marion', count: 2 },
				{ name: 'Shellsburg', count: 1 },
			],
		],
		[
			'counties',
			{},
			[
				{ name: 'Benton', count: 2 },
				{ name: 'Linn', count: 5 },
			],
		],
		[
			'zips',
			{},
			[
				{ name: '52302', count: 2 },
				{ name: '52332', count: 1 },
				{ name: '52901', count: 2 },
				{ name: '52902', count: 1 },
				{ name: '52999', count: 1 },
			],
		],
		[
			'affiliations',
			{},
			[
				{ name: 'Women in Business', count: 1 },
				{ name: 'Young Professionals', count: 1 },
			],
		],
		[
			'cities',
			{ category: 'Restaurants' },
			[
				{ name: 'Cedarbrook', count: 1 },
				{ name: 'Shellsburg', count: 1 },
			],
		],
		['cities', { search: 'pizza' }, [{ name: 'Cedarbrook', count: 1 }]],
	])('%s %j', async (type, options, expected) => {
		expect(await listFilterOptions(anon, fx.a.id, type, options)).toEqual(expected);
	});
});

describe('listCategories, listBanners, getCacheVersion', () => {
	it('lists the categories of published businesses with counts', async () => {
		const categories = await listCategories(anon, fx.a.id);
		expect(categories[0]).toEqual({ name: 'Restaurants', count: 2 });
		expect(categories.map((c) => c.name).sort()).toEqual([
			'Automotive',
			'Bakeries',
			'Consulting',
			'Legal',
			'Plumbing',
			'Restaurants',
			'Retail',
			'Sports',
		]);
	});

	it('lists the active banners in carousel order', async () => {
		const banners = await listBanners(anon, fx.a.id);
		expect(banners.map((b) => b.banner_name)).toEqual(['First', 'Second']);
		expect(Object.keys(banners[0]!).sort()).toEqual([
			'alternate_text',
			'banner_name',
			'id',
			'image_url',
			'navigate_url',
			'target',
		]);
	});

	it('reads a cache version, 1 when none was recorded', async () => {
		// Versions only go up by one (a trigger), so the fixture writes a fresh row at 4.
		await db.query(
			`delete from public.cache_versions where tenant_id = $1 and type = 'categories'`,
			[fx.a.id],
		);
		await db.query(
			`insert into public.cache_versions (tenant_id, type, version) values ($1, 'categories', 4)`,
			[fx.a.id],
		);
		expect(await getCacheVersion(anon, fx.a.id, 'categories')).toBe(4);
		await db.query(`delete from public.cache_versions where tenant_id = $1 and type = 'events'`, [
			fx.a.id,
		]);
		expect(await getCacheVersion(anon, fx.a.id, 'events')).toBe(1);
	});
});
