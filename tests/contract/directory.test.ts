import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, db } from '../db/clients.ts';
import { BUSINESSES, startContractSite, type ContractSite } from './site.ts';
import type { StaffChamber } from '../db/fixtures.ts';

// The contract of the public directory's calls: every request the specification's directory part
// defines, sent as it writes it, and the fields its answer names. The product answers more
// (cache headers, extra fields); a row checks only that what the specification names is there.

/**
 * Where the product deliberately leaves the specification's form, with why. A row of the
 * specification that is here has no test: it is not on the product by design.
 */
export const EXCEPTIONS = [
	{
		spec: 'Business card record (business_cards_view): email',
		reason:
			"A business's e-mail address is never public: visitors message it through POST /api/contact-business, which reads the address by the business's id. The view answers acceptsMessages instead.",
	},
	{
		spec: 'Display model of a business: email',
		reason:
			'The same: GET /api/business and GET /api/businesses answer acceptsMessages, never the address.',
	},
	{
		spec: 'A spam-check token (action submit) is obtained before a message is posted',
		reason:
			"A call to the captcha provider (Google's reCAPTCHA), not to this product; the token travels in POST /api/contact-business's recaptchaToken, which the row below sends.",
	},
	{
		spec: 'An embedded maps service is queried by encoded address',
		reason: 'A call to the maps service, not to this product.',
	},
] as const;

let site: ContractSite<StaffChamber<never>>;
/** The site's origin as a page of it sends it (the contact form's requests). */
let origin: string;

beforeAll(async () => {
	site = await startContractSite({ domain: 'contract-directory.test', staff: {} });
	origin = `http://127.0.0.1:${new URL(site.server.url).port}`;
});
afterAll(() => site?.close());

const call = (path: string) => site.server.call(path);
const tenantId = () => site.chambers.tenantId;

/** A {name, count} list, as categories and filter options answer. */
function expectNameCounts(body: unknown, names: string[]) {
	expect(Array.isArray(body)).toBe(true);
	for (const item of body as unknown[]) {
		expect(item).toEqual(
			expect.objectContaining({ name: expect.any(String), count: expect.any(Number) }),
		);
	}
	expect((body as { name: string }[]).map((i) => i.name)).toEqual(expect.arrayContaining(names));
}

describe('the calls it makes', () => {
	it.each(['config', 'categories', 'events', 'community_events', 'event_details'])(
		'GET /api/cache-version?type=%s → {version}',
		async (type) => {
			const answer = await call(`/api/cache-version?type=${type}`);
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual(expect.objectContaining({ version: expect.any(Number) }));
		},
	);

	it('GET /api/categories → list of {name, count}', async () => {
		const answer = await call('/api/categories');
		expect(answer.status).toBe(200);
		expectNameCounts(answer.body, ['Restaurants', 'Retail']);
	});

	it('GET /api/categories?v={version} → list of {name, count}', async () => {
		const { version } = (await call('/api/cache-version?type=categories')).body;
		const answer = await call(`/api/categories?v=${version}`);
		expect(answer.status).toBe(200);
		expectNameCounts(answer.body, ['Restaurants']);
	});

	it('GET /api/banners → banners list', async () => {
		const answer = await call('/api/banners');
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual([
			expect.objectContaining({
				id: expect.any(String),
				banner_name: 'Contract banner',
				image_url: '/demo/banners/banner-1.svg',
				navigate_url: expect.any(String),
				target: expect.any(String),
				alternate_text: expect.any(String),
			}),
		]);
	});

	it('GET /api/banner-image?url={encoded image url} → the proxied image', async () => {
		const url = encodeURIComponent('/demo/banners/banner-1.svg');
		// As an <img> asks for it: redirects followed.
		const response = await fetch(`${site.server.url}/api/banner-image?url=${url}`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
		expect(await response.text()).toContain('<svg');
	});

	it.each([
		['cities', ['Cedarbrook', 'Marion']],
		['counties', ['Linn']],
		['zips', ['52901', '52302']],
		['affiliations', ['Women in Business']],
	])('GET /api/filter-options?type=%s → list of {name, count}', async (type, names) => {
		const answer = await call(`/api/filter-options?type=${type}`);
		expect(answer.status).toBe(200);
		expectNameCounts(answer.body, names);
	});

	it('GET /api/filter-options?type=cities&category=&search= → list of {name, count}', async () => {
		const answer = await call(
			'/api/filter-options?type=cities&category=Restaurants&search=Contract',
		);
		expect(answer.status).toBe(200);
		expectNameCounts(answer.body, ['Cedarbrook']);
	});

	it('POST /api/contact-business {name, email, message, businessName, recaptchaToken} → {success}', async () => {
		const answer = await site.server.call('/api/contact-business', {
			body: {
				name: 'Ada Visitor',
				email: 'ada@example.com',
				message: 'Do you cater weddings? (contract)',
				businessName: BUSINESSES.bistro.report_name,
				recaptchaToken: '',
			},
			headers: { origin },
			from: '127.0.0.21',
		});
		expect(answer).toEqual({ status: 200, body: { success: true } });
		const { rows } = await db.query(
			'select business_id from public.contact_messages where tenant_id = $1 and message = $2',
			[tenantId(), 'Do you cater weddings? (contract)'],
		);
		expect(rows).toEqual([{ business_id: BUSINESSES.bistro.id }]);
	});

	it('POST /api/contact-business, refused → {success: false, error}', async () => {
		const answer = await site.server.call('/api/contact-business', {
			body: {
				name: 'Ada Visitor',
				email: 'ada@example.com',
				message: 'Hello',
				businessName: 'No Such Business',
				recaptchaToken: '',
			},
			headers: { origin },
			from: '127.0.0.22',
		});
		expect(answer.status).toBeGreaterThanOrEqual(400);
		expect(answer.body).toEqual({ success: false, error: expect.any(String) });
	});

	it('the business list call (page, pageSize 24, searchQuery, category, city, county, zip, affiliation, newMembersOnly, sortBy, randomSeed) → {businesses, total, totalPages}', async () => {
		const query = new URLSearchParams({
			page: '1',
			pageSize: '24',
			searchQuery: 'Contract',
			category: 'Restaurants',
			city: 'Cedarbrook',
			county: 'Linn',
			zip: '52901',
			affiliation: 'Women in Business',
			newMembersOnly: 'false',
			sortBy: 'nameAsc',
			randomSeed: '0.5',
		});
		const answer = await call(`/api/businesses?${query}`);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			businesses: [expect.objectContaining({ name: 'Contract Bistro' })],
			total: 1,
			totalPages: 1,
		});
	});

	it('Business profile by id plus category → the display model', async () => {
		const answer = await call(`/api/business?id=${BUSINESSES.bistro.id}&category=Restaurants`);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual(
			expect.objectContaining({
				id: BUSINESSES.bistro.id,
				name: 'Contract Bistro',
				description: expect.any(String),
				longDescription: expect.stringContaining('<p>'),
				logo: expect.any(String),
				logoUrl: expect.any(String),
				website: 'https://example.com',
				phone: '319-555-0100',
				mainContactName: expect.any(String),
				address: {
					street: '12 Main Street',
					street2: expect.any(String),
					city: 'Cedarbrook',
					state: 'IA',
					zip: '52901',
				},
				categories: ['Restaurants'],
				featured: true,
				socialMedia: { facebook: 'https://facebook.com/example' },
				membershipLevel: 'Trustee',
				memberSince: expect.stringMatching(/^\d{4}$/),
				membership: { level: 'Trustee', since: expect.stringMatching(/^\d{4}$/) },
				isNewMember: false,
				badges: [expect.objectContaining({ affCode: 'WIB' })],
			}),
		);
	});
});

describe('other calls: direct data-service reads and remote procedures, with the anon key', () => {
	it('Configuration read: the chamber configuration table, all columns, by tenant, single row', async () => {
		const { data, error } = await anon
			.from('chamber_config')
			.select('*')
			.eq('tenant_id', tenantId())
			.single();
		expect(error).toBeNull();
		expect(data).toEqual(
			expect.objectContaining({
				name: expect.any(String),
				slug: site.chambers.slug,
				colors: expect.any(Object),
				navigation: expect.any(Object),
			}),
		);
	});

	it('Configuration read with no row: code PGRST116', async () => {
		const { error } = await anon
			.from('chamber_config')
			.select('*')
			.eq('tenant_id', '00000000-0000-0000-0000-000000000000')
			.single();
		expect(error?.code).toBe('PGRST116');
	});

	it('business_cards_view: list with an exact count, filterable by featured, city, county, zip, ids and category', async () => {
		const { data, count, error } = await anon
			.from('business_cards_view')
			.select('*', { count: 'exact' })
			.eq('tenant_id', tenantId())
			.eq('featured', true)
			.eq('city', 'Cedarbrook')
			.eq('county', 'Linn')
			.eq('zip', '52901')
			.in('id', [BUSINESSES.bistro.id, BUSINESSES.hardware.id])
			.contains('categories', ['Restaurants']);
		expect(error).toBeNull();
		expect(count).toBe(1);
		expect(data?.[0]).toEqual(
			expect.objectContaining({
				id: BUSINESSES.bistro.id,
				report_name: 'Contract Bistro',
				city: 'Cedarbrook',
				county: 'Linn',
				zip: '52901',
				address1: '12 Main Street',
				address2: expect.any(String),
				state: 'IA',
				work_phone: '319-555-0100',
				website: 'example.com',
				featured: true,
				categories: ['Restaurants'],
				membership_rank: expect.any(Number),
				membership_level_name: 'Trustee',
				member_since: [
					expect.objectContaining({
						member_since_date: expect.any(String),
						member_since_year: expect.any(Number),
					}),
				],
				member_since_year: expect.any(Number),
				weblink_profile_id: BUSINESSES.bistro.weblink_profile_id,
				main_related_profile_name: expect.any(String),
				listings: [
					expect.objectContaining({
						description: expect.any(String),
						short_description: expect.any(String),
						categories: ['Restaurants'],
						active: true,
						primary_listing: true,
					}),
				],
				social_media: [{ platform: 'facebook', url: 'https://facebook.com/example' }],
				profile_affiliations: [
					expect.objectContaining({
						icon: expect.any(String),
						icon_text: expect.any(String),
						icon_url: expect.any(String),
						aff_code: 'WIB',
						aff_name: 'Women in Business',
						list_available_on_website: true,
					}),
				],
				web_content: [
					expect.objectContaining({
						content_type: 'image',
						content_title: 'Storefront',
						full_url: 'https://example.com/a.jpg',
						rel_url: expect.any(String),
					}),
				],
				logo_url: expect.any(String),
			}),
		);
	});

	it('business_detail_view: single row by id, by weblink_profile_id, or the first whose report_name starts with the name', async () => {
		const byId = await anon
			.from('business_detail_view')
			.select('*')
			.eq('tenant_id', tenantId())
			.eq('id', BUSINESSES.hardware.id)
			.single();
		expect(byId.data?.report_name).toBe('Contract Hardware');
		const byProfile = await anon
			.from('business_detail_view')
			.select('*')
			.eq('tenant_id', tenantId())
			.eq('weblink_profile_id', BUSINESSES.hardware.weblink_profile_id)
			.single();
		expect(byProfile.data?.id).toBe(BUSINESSES.hardware.id);
		const byName = await anon
			.from('business_detail_view')
			.select('*')
			.eq('tenant_id', tenantId())
			.ilike('report_name', 'Contract Hard%')
			.limit(1)
			.single();
		expect(byName.data?.id).toBe(BUSINESSES.hardware.id);
	});

	it('listings: profile_id matching keywords containing the search text', async () => {
		const { data, error } = await anon
			.from('listings')
			.select('profile_id')
			.eq('tenant_id', tenantId())
			.ilike('keywords', '%catering%');
		expect(error).toBeNull();
		expect(data?.map((r) => r.profile_id).sort()).toEqual(
			Object.values(BUSINESSES)
				.map((b) => b.id)
				.sort(),
		);
	});

	it('profile_affiliations: profile_id where aff_name matches and list_available_on_website is true', async () => {
		const { data, error } = await anon
			.from('profile_affiliations')
			.select('profile_id')
			.eq('tenant_id', tenantId())
			.eq('aff_name', 'Women in Business')
			.eq('list_available_on_website', true);
		expect(error).toBeNull();
		expect(data).toEqual([{ profile_id: BUSINESSES.bistro.id }]);
	});

	it('profiles: distinct membership_level_name where is_member is true', async () => {
		const { data, error } = await anon
			.from('profiles')
			.select('membership_level_name')
			.eq('tenant_id', tenantId())
			.eq('is_member', true);
		expect(error).toBeNull();
		expect(new Set(data?.map((r) => r.membership_level_name))).toEqual(
			new Set(['Trustee', 'Executive', 'Business Partner']),
		);
	});

	const filters = {
		p_category: 'Restaurants',
		p_search_query: 'Contract',
		p_city: 'Cedarbrook',
		p_county: 'Linn',
		p_zip: '52901',
		p_new_members_only: false,
	};

	it('count_businesses_with_category(tenant, category, search query, city, county, zip, new-members-only flag)', async () => {
		const { data, error } = await anon.rpc('count_businesses_with_category', {
			p_tenant_id: tenantId(),
			...filters,
		});
		expect(error).toBeNull();
		expect(data).toBe(2);
	});

	it('get_businesses_with_listing_position(same plus sort direction, limit, offset)', async () => {
		const { data, error } = await anon.rpc('get_businesses_with_listing_position', {
			p_tenant_id: tenantId(),
			...filters,
			p_sort_direction: 'asc',
			p_limit: 24,
			p_offset: 0,
		});
		expect(error).toBeNull();
		expect(data?.map((b) => b.report_name)).toEqual(['Contract Bistro', 'Contract Newcomer']);
	});

	it('get_businesses_with_listing_position_randomized(same plus seed)', async () => {
		const { data, error } = await anon.rpc('get_businesses_with_listing_position_randomized', {
			p_tenant_id: tenantId(),
			...filters,
			p_sort_direction: 'asc',
			p_limit: 24,
			p_offset: 0,
			p_seed: 0.5,
		});
		expect(error).toBeNull();
		expect(data?.map((b) => b.report_name).sort()).toEqual([
			'Contract Bistro',
			'Contract Newcomer',
		]);
	});

	it('get_affiliation_counts(tenant, minimum count 1)', async () => {
		const { data, error } = await anon.rpc('get_affiliation_counts', {
			p_tenant_id: tenantId(),
			p_min_count: 1,
		});
		expect(error).toBeNull();
		expect(data).toEqual([{ name: 'Women in Business', count: 1 }]);
	});
});
