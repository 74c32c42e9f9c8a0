// Runs on: hosted — the directory's orders come from SQL (indexes, directory_page): proved on
// the production shape.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, db, service } from './clients.ts';
import type { ChamberConfig } from '../../src/features/config/config.ts';
import { getChamberConfig } from '../../src/features/config/config.server.ts';
import { businessListQuerySchema } from '../../src/features/directory/directory.ts';
import { listBusinesses } from '../../src/features/directory/directory.server.ts';
import { SORT_VALUES, membershipRank, type SortValue } from '../../src/features/directory/rules.ts';
import { parseTenantFile, type BusinessInput } from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { DIRECTORY_HIERARCHY, daysAgo, directoryConfig } from './directory-fixtures.ts';
import { randomSlug } from './fixtures.ts';

// The directory's orders where they are read from indexes (more than 500 matches,
// directory_page): every sort, page by page, against the rule written out here in TypeScript,
// and the sorted path (a search, few matches, deep filtered pages) against the same rule.

// --- The fixture: 640 published businesses, shaped so every sort has ties and mixed groups ---

const WORDS = ['Anchor', 'Birch', 'Cobalt', 'Dune', 'Ember', 'Fable', 'Granite', 'Harbor'];
/** Levels without and with a given rank: ranks 10, 9, 8 (partial name), 6, 1, 0, and given ones. */
const LEVELS: { level: string; rank?: number }[] = [
	{ level: 'Trustee' },
	{ level: 'Chairman' },
	{ level: 'Gold Executive Partner' },
	{ level: 'Board Member' },
	{ level: 'Business Partner' },
	{ level: 'Member' },
	{ level: 'Member', rank: 8 },
	{ level: 'Trustee', rank: 3 },
	{ level: 'Member', rank: 12 },
];
const PUBLISHED = 640;

interface Entry {
	id: string;
	sortName: string;
	position: number;
	rank: number;
	categories: string[];
	city: string;
	ambassador: boolean;
	published: boolean;
}

function fixture(): { businesses: BusinessInput[]; entries: Entry[] } {
	const businesses: BusinessInput[] = [];
	const entries: Entry[] = [];
	for (let i = 0; i < PUBLISHED + 6; i++) {
		const published = i < PUBLISHED;
		let name = `${WORDS[i % WORDS.length]} ${String(Math.floor(i / WORDS.length)).padStart(3, '0')}`;
		// Every 50th repeats the one before in capitals: equal names, ordered by id.
		if (i % 50 === 49) name = businesses[i - 1]!.report_name.toUpperCase();
		// The unpublished ones sit among the published by name.
		if (!published) name = `${WORDS[i % WORDS.length]} 00${i % 10}`;
		const position = [1, 2, 7][i % 16] ?? 1000;
		const level = LEVELS[i % LEVELS.length]!;
		const categories = i % 8 === 0 ? ['Small'] : ['Big'];
		const city = i % 2 === 0 ? 'Southport' : 'Northfield';
		const ambassador = i % 10 === 3;
		const id = randomUUID();
		businesses.push({
			id,
			report_name: name,
			weblink_profile_id: String(500_000 + i),
			listing_position: position,
			membership_level_name: level.level,
			...(level.rank === undefined ? {} : { membership_rank: level.rank }),
			categories,
			city,
			member_since_date: i % 5 === 0 ? daysAgo(10) : daysAgo(400),
			published,
			listings: [{ keywords: 'orderfixture', categories, primary_listing: true }],
			profile_affiliations: ambassador ? [{ aff_name: 'Ambassadors', aff_code: 'AMB' }] : [],
		});
		entries.push({
			id,
			sortName: name.toLowerCase(),
			position,
			rank: membershipRank(level.level, level.rank, DIRECTORY_HIERARCHY),
			categories,
			city,
			ambassador,
			published,
		});
	}
	return { businesses, entries };
}

// --- The rule of each sort (the shuffle as directory_page documents it) --------------------------

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** shuffle_key: the first 31 bits of md5(id). */
const shuffleKey = (id: string) => parseInt(md5(id).slice(0, 8), 16) & 0x7fffffff;

/** Each of the 256 buckets' place in the seed's order: by md5 of 'seed:bucket', then number. */
function bucketPlaces(seed: number): number[] {
	const order = Array.from({ length: 256 }, (_, b) => b).sort((a, b) => {
		const x = md5(`${seed}:${a}`);
		const y = md5(`${seed}:${b}`);
		return x < y ? -1 : x > y ? 1 : a - b;
	});
	const place: number[] = [];
	order.forEach((bucket, i) => (place[bucket] = i));
	return place;
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function expectedOrder(entries: Entry[], sort: SortValue, seed: number): string[] {
	const place = bucketPlaces(seed);
	const byName = (a: Entry, b: Entry) => text(a.sortName, b.sortName) || text(a.id, b.id);
	const shuffled = (a: Entry, b: Entry) =>
		place[shuffleKey(a.id) >> 23]! - place[shuffleKey(b.id) >> 23]! ||
		shuffleKey(a.id) - shuffleKey(b.id) ||
		text(a.id, b.id);
	const compare: Record<SortValue, (a: Entry, b: Entry) => number> = {
		nameAsc: byName,
		nameDesc: (a, b) => text(b.sortName, a.sortName) || text(a.id, b.id),
		membershipHighToLow: (a, b) => b.rank - a.rank || byName(a, b),
		membershipLowToHigh: (a, b) => a.rank - b.rank || byName(a, b),
		listingPositionHighToLow: (a, b) => a.position - b.position || byName(a, b),
		listingPositionLowToHigh: (a, b) => b.position - a.position || byName(a, b),
		listingPositionHighToLowRandom: (a, b) => a.position - b.position || shuffled(a, b),
		listingPositionLowToHighRandom: (a, b) => b.position - a.position || shuffled(a, b),
		random: shuffled,
	};
	return entries
		.filter((e) => e.published)
		.sort(compare[sort])
		.map((e) => e.id);
}

// --- Setup and reading pages ------------------------------------------------------------------

let tenantId = '';
let entries: Entry[] = [];
let config: ChamberConfig;

beforeAll(async () => {
	await db.connect();
	const slug = randomSlug('order');
	const built = fixture();
	entries = built.entries;
	const imported = await importTenant(
		service,
		parseTenantFile(
			{
				tenant: { slug, name: `Order Chamber ${slug}` },
				config: { slug, ...directoryConfig(slug) },
				businesses: built.businesses,
			},
			'listing order fixture',
		),
	);
	tenantId = imported.tenant_id;
	config = await getChamberConfig(anon, tenantId);
});

afterAll(async () => {
	if (tenantId) await db.query('delete from public.tenants where id = $1', [tenantId]);
	await db.end();
});

/** Every page of a listing, in order, as a visitor reads them; checks the total on each. */
async function readAll(input: Record<string, string>, pageSize = 100): Promise<string[]> {
	const ids: string[] = [];
	let total: number | undefined;
	for (let page = 1; ; page++) {
		const result = await listBusinesses(
			anon,
			tenantId,
			businessListQuerySchema.parse({ ...input, pageSize: String(pageSize), page: String(page) }),
			config,
		);
		total ??= result.total;
		expect(result.total, `total on page ${page}`).toBe(total);
		expect(result.totalPages).toBe(Math.ceil(total / pageSize));
		ids.push(...result.businesses.map((b) => b.id));
		if (page >= result.totalPages) return ids;
	}
}

const where = (keep: (e: Entry) => boolean) => entries.filter((e) => !e.published || keep(e));

const SEEDED: [SortValue, number][] = SORT_VALUES.flatMap((sort): [SortValue, number][] =>
	/Random|random/.test(sort)
		? [
				[sort, 0.3],
				[sort, 0.77],
			]
		: [[sort, 0.5]],
);

describe('directory order above 500 matches (read from the indexes)', () => {
	it('the fixture is past the sorted-path limit', () => {
		expect(entries.filter((e) => e.published)).toHaveLength(PUBLISHED);
		expect(PUBLISHED).toBeGreaterThan(500);
	});

	it.each(SEEDED)(
		'%s (seed %s): every page in the rule’s order, none repeated or missed',
		async (sort, seed) => {
			const ids = await readAll({ sortBy: sort, randomSeed: String(seed) });
			expect(ids).toEqual(expectedOrder(entries, sort, seed));
		},
	);

	it('24 to a page: the first, a middle and the last page, and one past the end', async () => {
		const expected = expectedOrder(entries, 'membershipHighToLow', 0.5);
		for (const page of [1, 2, 14, 27]) {
			const result = await listBusinesses(
				anon,
				tenantId,
				businessListQuerySchema.parse({ sortBy: 'membershipHighToLow', page: String(page) }),
				config,
			);
			expect(result.businesses.map((b) => b.id)).toEqual(
				expected.slice((page - 1) * 24, page * 24),
			);
			expect(result).toMatchObject({ total: PUBLISHED, totalPages: 27 });
		}
		const past = await listBusinesses(
			anon,
			tenantId,
			businessListQuerySchema.parse({ sortBy: 'random', page: '28' }),
			config,
		);
		expect(past).toEqual({ businesses: [], total: PUBLISHED, totalPages: 27 });
	});

	it.each(SEEDED)(
		'%s (seed %s): a search matching everyone sorts the same way',
		async (sort, seed) => {
			const ids = await readAll({
				sortBy: sort,
				randomSeed: String(seed),
				searchQuery: 'orderfixture',
			});
			expect(ids).toEqual(expectedOrder(entries, sort, seed));
		},
	);

	it.each<[string, Record<string, string>, (e: Entry) => boolean]>([
		[
			'a category of 560 (indexes, then sorted on deep pages)',
			{ category: 'Big' },
			(e) => e.categories.includes('Big'),
		],
		['a category of 80 (sorted)', { category: 'Small' }, (e) => e.categories.includes('Small')],
		[
			'a city and a category',
			{ category: 'Big', city: 'Northfield' },
			(e) => e.categories.includes('Big') && e.city === 'Northfield',
		],
	])('filters: %s, in order with the exact total', async (_why, filters, keep) => {
		for (const [sort, seed] of SEEDED.filter(([s]) =>
			['nameDesc', 'membershipHighToLow', 'random', 'listingPositionLowToHighRandom'].includes(s),
		)) {
			const expected = expectedOrder(where(keep), sort, seed);
			const ids = await readAll({ ...filters, sortBy: sort, randomSeed: String(seed) }, 24);
			expect(ids, `${sort} ${seed}`).toEqual(expected);
		}
	});

	it('random sorts: the same seed gives the same order, each seed its own, within small positions too', async () => {
		for (const sort of ['random', 'listingPositionHighToLowRandom'] as const) {
			const first = await readAll({ sortBy: sort, randomSeed: '0.3' });
			expect(await readAll({ sortBy: sort, randomSeed: '0.3' })).toEqual(first);
			expect(await readAll({ sortBy: sort, randomSeed: '0.31' })).not.toEqual(first);
		}
		// Position 1 holds 40 businesses: each seed lists them in another order.
		const atOne = new Set(entries.filter((e) => e.published && e.position === 1).map((e) => e.id));
		const orders = new Set<string>();
		for (const seed of ['0.1', '0.2', '0.6']) {
			const ids = await readAll({ sortBy: 'listingPositionHighToLowRandom', randomSeed: seed });
			expect(new Set(ids.slice(0, atOne.size))).toEqual(atOne);
			orders.add(ids.slice(0, atOne.size).join());
		}
		expect(orders.size).toBe(3);
	});
});

describe('the listing-position procedures', () => {
	async function rpcIds(
		name:
			'get_businesses_with_listing_position' | 'get_businesses_with_listing_position_randomized',
		args: Record<string, unknown>,
	): Promise<string[]> {
		const ids: string[] = [];
		for (let offset = 0; ; offset += 100) {
			const { data, error } = await anon.rpc(name, {
				p_tenant_id: tenantId,
				p_limit: 100,
				p_offset: offset,
				...args,
			});
			if (error) throw new Error(error.message);
			const rows = data as { id: string }[];
			ids.push(...rows.map((r) => r.id));
			if (rows.length < 100) return ids;
		}
	}

	it.each<[string, Record<string, unknown>, SortValue, number]>([
		['plain, asc', { p_sort_direction: 'asc' }, 'listingPositionHighToLow', 0.5],
		['plain, desc', { p_sort_direction: 'desc' }, 'listingPositionLowToHigh', 0.5],
	])('get_businesses_with_listing_position %s', async (_why, args, sort, seed) => {
		expect(await rpcIds('get_businesses_with_listing_position', args)).toEqual(
			expectedOrder(entries, sort, seed),
		);
	});

	it.each<[string, Record<string, unknown>, SortValue, number]>([
		[
			'asc, seed 0.3',
			{ p_sort_direction: 'asc', p_seed: 0.3 },
			'listingPositionHighToLowRandom',
			0.3,
		],
		[
			'desc, seed 0.3',
			{ p_sort_direction: 'desc', p_seed: 0.3 },
			'listingPositionLowToHighRandom',
			0.3,
		],
		['desc, no seed', { p_sort_direction: 'desc', p_seed: null }, 'listingPositionLowToHigh', 0.5],
	])('get_businesses_with_listing_position_randomized %s', async (_why, args, sort, seed) => {
		expect(await rpcIds('get_businesses_with_listing_position_randomized', args)).toEqual(
			expectedOrder(entries, sort, seed),
		);
	});

	it('count_businesses_with_category counts exactly, kept or counted', async () => {
		const count = async (args: Record<string, unknown>) => {
			const { data, error } = await anon.rpc('count_businesses_with_category', {
				p_tenant_id: tenantId,
				...args,
			});
			if (error) throw new Error(error.message);
			return Number(data);
		};
		const published = entries.filter((e) => e.published);
		expect(await count({})).toBe(PUBLISHED);
		expect(await count({ p_category: 'Big' })).toBe(
			published.filter((e) => e.categories.includes('Big')).length,
		);
		expect(await count({ p_category: 'Nothing' })).toBe(0);
		expect(await count({ p_category: 'Big', p_city: 'Southport' })).toBe(
			published.filter((e) => e.categories.includes('Big') && e.city === 'Southport').length,
		);
	});
});

describe('kept counts follow every write', () => {
	async function total(input: Record<string, string> = {}): Promise<number> {
		const query = businessListQuerySchema.parse({ sortBy: 'nameAsc', ...input });
		return (await listBusinesses(anon, tenantId, query, config)).total;
	}

	/** member_count of the group on a published member's card, as a client reads it. */
	async function memberCount(client: typeof anon, id: string): Promise<number> {
		const { data, error } = await client
			.from('business_cards_view')
			.select('profile_affiliations')
			.eq('id', id)
			.single();
		if (error) throw new Error(error.message);
		const card = data as { profile_affiliations: { member_count: number }[] };
		return card.profile_affiliations[0]!.member_count;
	}

	it('unpublishing, recategorising and removing businesses: totals and member counts stay exact', async () => {
		const published = entries.filter((e) => e.published);
		const big = published.filter((e) => e.categories.includes('Big'));
		const ambassadors = entries.filter((e) => e.ambassador);
		const visibleAmbassadors = ambassadors.filter((e) => e.published).length;
		const unpublish = big
			.filter((e) => e.ambassador)
			.slice(0, 2)
			.map((e) => e.id);
		const [keeper, gone] = ambassadors.filter((e) => e.published && !unpublish.includes(e.id));
		const memberCounts = async () => [
			await memberCount(anon, keeper!.id),
			await memberCount(service, keeper!.id),
		];
		expect(await total()).toBe(PUBLISHED);
		expect(await total({ category: 'Big' })).toBe(big.length);
		// Visitors count the published members of a group; the service role counts them all.
		expect(await memberCounts()).toEqual([visibleAmbassadors, ambassadors.length]);

		await db.query('update public.profiles set published = false where id = any($1::uuid[])', [
			unpublish,
		]);
		expect(await total()).toBe(PUBLISHED - 2);
		expect(await total({ category: 'Big' })).toBe(big.length - 2);
		expect(await memberCounts()).toEqual([visibleAmbassadors - 2, ambassadors.length]);

		const move = big
			.filter((e) => !e.ambassador)
			.slice(0, 5)
			.map((e) => e.id);
		await db.query(
			`update public.profiles set categories = '{Small,Extra}' where id = any($1::uuid[])`,
			[move],
		);
		expect(await total({ category: 'Big' })).toBe(big.length - 7);
		expect(await total({ category: 'Small' })).toBe(published.length - big.length + 5);
		expect(await total({ category: 'Extra' })).toBe(5);

		await db.query('delete from public.profiles where id = any($1::uuid[])', [
			[...move, ...unpublish],
		]);
		expect(await total()).toBe(PUBLISHED - 7);
		expect(await total({ category: 'Extra' })).toBe(0);
		expect(await memberCounts()).toEqual([visibleAmbassadors - 2, ambassadors.length - 2]);

		await db.query('delete from public.profile_affiliations where profile_id = $1', [gone!.id]);
		expect(await memberCounts()).toEqual([visibleAmbassadors - 3, ambassadors.length - 3]);
	});
});
