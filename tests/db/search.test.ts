// Runs on: hosted — the search core is SQL (matching_profiles, the directory's functions): proved
// on the production shape.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, service } from './clients.ts';
import { parseTenantFile, type BusinessInput } from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import type { RowUpdate } from '../../src/lib/database.ts';
import { randomSlug } from './fixtures.ts';

// The search core (matching_profiles and the directory's RPCs) against the real migrations: word
// forms, typos, hostile input, filters and tenant isolation, through supabase-js as visitors call it.

let next = 1;
function business(name: string, extra: Partial<BusinessInput> = {}): BusinessInput {
	return { report_name: name, weblink_profile_id: String(700000 + next++), ...extra };
}

const tenantA = randomSlug('search-a');
const tenantB = randomSlug('search-b');
let idA = '';
let idB = '';

async function search(tenantId: string, query: string, filters: Record<string, unknown> = {}) {
	const { data, error } = await anon.rpc('get_businesses_with_listing_position', {
		p_tenant_id: tenantId,
		p_search_query: query,
		p_limit: 100,
		...filters,
	});
	if (error) throw new Error(error.message);
	return (data as { report_name: string }[]).map((b) => b.report_name).sort();
}

async function count(tenantId: string, query: string, filters: Record<string, unknown> = {}) {
	const { data, error } = await anon.rpc('count_businesses_with_category', {
		p_tenant_id: tenantId,
		p_search_query: query,
		...filters,
	});
	if (error) throw new Error(error.message);
	return data as number;
}

/** Imports a chamber of these businesses; answers its id. */
async function importBusinesses(slug: string, name: string, businesses: BusinessInput[]) {
	const file = parseTenantFile({ tenant: { slug, name }, businesses }, `search fixture ${name}`);
	return (await importTenant(service, file)).tenant_id;
}

beforeAll(async () => {
	idA = await importBusinesses(tenantA, 'Search A', [
		business('Bluestem Grill', {
			categories: ['Restaurants & Catering'],
			city: 'Cedarbrook',
			listing_position: 2,
		}),
		business('Main Street Plumbing', {
			categories: ['Construction & Contractors'],
			city: 'Elm Falls',
			listings: [
				{ description: '<p>Emergency <b>pipe</b> repairs</p>', keywords: 'plumber drains' },
			],
		}),
		business('Hometown Dental Care', {
			categories: ['Dental Care'],
			listing_position: 1,
			member_since_date: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
			profile_affiliations: [{ aff_name: 'Women in Business' }],
		}),
		business('Hidden Draft Diner', {
			categories: ['Restaurants & Catering'],
			published: false,
		}),
	]);
	idB = await importBusinesses(tenantB, 'Search B', [
		business('Other Chamber Restaurant', { categories: ['Restaurants & Catering'] }),
	]);
});

afterAll(async () => {
	await service.from('tenants').delete().in('slug', [tenantA, tenantB]);
});

describe('search', () => {
	it('matches word forms through English stemming', async () => {
		expect(await search(idA, 'restaurant')).toEqual(['Bluestem Grill']);
		expect(await search(idA, 'plumbers')).toEqual(['Main Street Plumbing']);
	});

	it('tolerates typos through the tenant vocabulary', async () => {
		expect(await search(idA, 'resturant')).toEqual(['Bluestem Grill']);
		expect(await search(idA, 'dentl')).toEqual(['Hometown Dental Care']);
	});

	it('matches descriptions and keywords', async () => {
		expect(await search(idA, 'pipe repairs')).toEqual(['Main Street Plumbing']);
		expect(await search(idA, 'drains')).toEqual(['Main Street Plumbing']);
	});

	it('never raises on hostile or odd input', async () => {
		for (const text of [
			"'",
			'"unclosed',
			'-',
			'a & | ! (',
			"'; drop table profiles; --",
			'😀',
			'x'.repeat(500),
		]) {
			expect(await count(idA, text)).toBe(0);
		}
		expect(await count(idA, '')).toBe(3);
		expect(await count(idA, '   ')).toBe(3);
	});

	it('never shows unpublished businesses or another chamber’s', async () => {
		expect(await search(idA, 'diner')).toEqual([]);
		expect(await search(idA, 'restaurant')).not.toContain('Other Chamber Restaurant');
		expect(await search(idB, 'restaurant')).toEqual(['Other Chamber Restaurant']);
	});

	it('combines the search with filters', async () => {
		expect(await count(idA, '', { p_category: 'Dental Care' })).toBe(1);
		expect(await count(idA, '', { p_city: 'Elm Falls' })).toBe(1);
		expect(await count(idA, '', { p_new_members_only: true })).toBe(1);
		expect(await count(idA, '', { p_affiliation: 'Women in Business' })).toBe(1);
		expect(await count(idA, 'restaurant', { p_city: 'Elm Falls' })).toBe(0);
	});

	it('orders by listing position, premium (1) first for asc', async () => {
		const { data } = await anon.rpc('get_businesses_with_listing_position', {
			p_tenant_id: idA,
			p_sort_direction: 'asc',
		});
		expect((data as { report_name: string }[]).map((b) => b.report_name)).toEqual([
			'Hometown Dental Care',
			'Bluestem Grill',
			'Main Street Plumbing',
		]);
	});

	it('shuffles within a position the same way for the same seed', async () => {
		const order = async (seed: number) => {
			const { data } = await anon.rpc('get_businesses_with_listing_position_randomized', {
				p_tenant_id: idA,
				p_seed: seed,
			});
			return (data as { id: string }[]).map((b) => b.id);
		};
		expect(await order(0.25)).toEqual(await order(0.25));
		expect((await order(0.25)).slice(0, 2)).toEqual((await order(0.75)).slice(0, 2));
	});
});

describe('spelling suggestions (the search vocabulary)', () => {
	const tenantC = randomSlug('search-words');
	let idC = '';

	/** The lexemes of search_tsquery's answer for some text, as a visitor can ask for it. */
	async function lexemes(tenantId: string, text: string): Promise<string[]> {
		const { data, error } = await anon.rpc('search_tsquery', {
			p_tenant_id: tenantId,
			p_search_query: text,
		});
		if (error) throw new Error(error.message);
		return [...String(data ?? '').matchAll(/'([a-z0-9]+)'/g)].map((m) => m[1] ?? '');
	}

	/**
	 * The close spellings (stemmed, as the query holds them) offered for a word: what the query
	 * holds beyond the typed word itself, which is all it holds for a chamber without words.
	 */
	async function suggestions(word: string): Promise<string[]> {
		const typed = await lexemes(randomUUID(), word);
		return (await lexemes(idC, word)).filter((w) => !typed.includes(w)).sort();
	}

	async function setBusiness(name: string, change: RowUpdate<'profiles'>) {
		const { error } = await service
			.from('profiles')
			.update(change)
			.eq('tenant_id', idC)
			.eq('report_name', name);
		if (error) throw new Error(error.message);
	}

	beforeAll(async () => {
		idC = await importBusinesses(tenantC, 'Search words', [
			business('Quokka Kennels', { categories: ['Pets'] }),
			business('Marmalade Bakery', { categories: ['Food'] }),
			business('Marmalade Preserves', { categories: ['Food'], published: false }),
			business('Zeppelin Tours', { categories: ['Travel'], published: false }),
			business('Walrus Repairs', { categories: ['Services'] }),
			business('Lantern Studio', { categories: ['Arts'] }),
		]);
	});

	afterAll(async () => {
		await service.from('tenants').delete().eq('slug', tenantC);
	});

	it('suggests words of published businesses only', async () => {
		expect(await suggestions('quoka')).toEqual(['quokka']);
		expect(await suggestions('zepelin')).toEqual([]);
		expect(await search(idC, 'quoka')).toEqual(['Quokka Kennels']);
	});

	it('suggests a word once its business is published, and not after it is unpublished', async () => {
		await setBusiness('Zeppelin Tours', { published: true });
		expect(await suggestions('zepelin')).toEqual(['zeppelin']);
		expect(await search(idC, 'zepelin')).toEqual(['Zeppelin Tours']);
		await setBusiness('Zeppelin Tours', { published: false });
		expect(await suggestions('zepelin')).toEqual([]);
	});

	it('keeps a word while another published business still uses it', async () => {
		await setBusiness('Marmalade Preserves', { published: true });
		await setBusiness('Marmalade Bakery', { published: false });
		expect(await suggestions('marmalde')).toEqual(['marmalad']);
		await setBusiness('Marmalade Preserves', { published: false });
		expect(await suggestions('marmalde')).toEqual([]);
	});

	it('forgets the words of a deleted business and the old name of a renamed one', async () => {
		const { error } = await service
			.from('profiles')
			.delete()
			.eq('tenant_id', idC)
			.eq('report_name', 'Walrus Repairs');
		expect(error).toBeNull();
		expect(await suggestions('walrs')).toEqual([]);
		await setBusiness('Lantern Studio', { report_name: 'Beacon Studio' });
		expect(await suggestions('lanterm')).toEqual([]);
		expect(await suggestions('beacn')).toEqual(['beacon']);
	});

	it('reads at most the first 200 characters and 10 words of a query', async () => {
		const { data } = await anon.rpc('search_tsquery', {
			p_tenant_id: idC,
			p_search_query: Array.from({ length: 30 }, (_, i) => `word${i}`).join(' '),
		});
		expect(String(data).split('&')).toHaveLength(10);
		const { data: long, error } = await anon.rpc('search_tsquery', {
			p_tenant_id: idC,
			p_search_query: `${'x'.repeat(197)} quokka`,
		});
		expect(error).toBeNull();
		expect(String(long)).not.toContain('quokka');
	});
});
