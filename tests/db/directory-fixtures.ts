import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '../../src/lib/database.ts';
import type { Client } from 'pg';
import type { ChamberConfigInput } from '../../src/features/config/config.ts';
import {
	parseTenantFile,
	type BannerInput,
	type BusinessInput,
	type TenantFileInput,
	type TenantUserInput,
} from '../../src/features/tenants/tenant-file.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { randomProfileNumber, randomSlug } from './fixtures.ts';

// A small chamber whose businesses differ in exactly the ways the directory's sorts, filters,
// search and featured rules look at, plus a second chamber with look-alike businesses that
// must never leak into the first one's answers. Slugs are random; dates are relative to today.

/** YYYY-MM-DD of `days` days ago (UTC, as the database's current_date). */
export function daysAgo(days: number): string {
	return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

export const DIRECTORY_HIERARCHY = [
	{ name: 'Trustee', rank: 10 },
	{ name: 'Chairman', rank: 9 },
	{ name: 'Executive Partner', rank: 8 },
	{ name: 'Executive', rank: 7 },
];

export const NAMES = [
	'Alpha Plumbing',
	"Bella's Restaurant",
	'Cedar Law Office',
	'Delta Auto Repair',
	'Echo Bakery',
	'Foxtrot Consulting',
	'Golf Pro Shop',
] as const;
type FixtureName = (typeof NAMES)[number];

function business(
	name: string,
	fields: Partial<BusinessInput> & { keywords?: string; description?: string },
): BusinessInput {
	const { keywords = '', description = `<p>${name} serves Linn County.</p>`, ...rest } = fields;
	return {
		id: randomUUID(),
		report_name: name,
		state: 'IA',
		weblink_profile_id: randomProfileNumber(),
		listings: [
			{
				description,
				short_description: `${name}, a local business.`,
				categories: fields.categories ?? [],
				keywords,
				primary_listing: true,
			},
		],
		...rest,
	};
}

function directoryBusinesses(): BusinessInput[] {
	return [
		business('Alpha Plumbing', {
			membership_level_name: 'Trustee',
			listing_position: 1,
			city: 'Cedarbrook',
			county: 'Linn',
			zip: '52901',
			categories: ['Plumbing'],
			member_since_date: daysAgo(10),
			address1: '100 Main St',
			work_phone: '(319) 555-0101',
			website: 'alphaplumbing.example',
			email: 'office@alphaplumbing.example',
			keywords: 'pipes drains water heaters',
			profile_affiliations: [{ aff_name: 'Women in Business', aff_code: 'WIB', icon_text: 'WIB' }],
		}),
		business("Bella's Restaurant", {
			membership_level_name: 'Gold Executive Partner',
			listing_position: 2,
			city: 'Cedarbrook',
			county: 'Linn',
			zip: '52902',
			categories: ['Restaurants'],
			member_since_date: daysAgo(400),
			address1: '12 River Rd',
			work_phone: '(319) 555-0102',
			email: 'hello@bellas.example',
			keywords: 'pasta pizza',
			description: '<p>Wood-fired <strong>pizza</strong><script>alert(1)</script></p>',
			social_media: [{ platform: 'Facebook', url: 'https://facebook.com/bellas' }],
		}),
		business('Cedar Law Office', {
			membership_level_name: 'Board Member',
			city: 'Marion',
			county: 'Linn',
			zip: '52302',
			categories: ['Legal'],
			member_since_date: daysAgo(30),
			address1: '5 Court St',
			work_phone: '(319) 555-0103',
			keywords: 'attorney wills',
			profile_affiliations: [{ aff_name: 'Young Professionals', aff_code: 'YP' }],
		}),
		business('Delta Auto Repair', {
			membership_level_name: 'Business Partner',
			listing_position: 5,
			city: 'Marion',
			county: 'Benton',
			zip: '52302',
			categories: ['Automotive'],
			member_since_date: daysAgo(1000),
			work_phone: '(319) 555-0104',
			website: 'https://delta.example',
			keywords: 'brakes tires',
		}),
		business('Echo Bakery', {
			membership_level_name: 'Member',
			city: 'Shellsburg',
			county: 'Benton',
			zip: '52332',
			categories: ['Bakeries', 'Restaurants'],
			member_since_date: null,
			address1: '9 Mill St',
			website: 'echobakery.example',
			keywords: 'bread cakes',
			profile_affiliations: [{ aff_name: 'Mem - Sync list', aff_code: 'SYNC' }],
		}),
		business('Foxtrot Consulting', {
			membership_level_name: 'Member',
			membership_rank: 12,
			city: 'Cedarbrook',
			county: 'Linn',
			zip: '52901',
			categories: ['Consulting'],
			member_since_date: daysAgo(95),
			address1: '77 Elm St',
			keywords: 'strategy',
		}),
		business('Golf Pro Shop', {
			membership_level_name: 'Trustee',
			listing_position: 3,
			county: 'Linn',
			zip: '52999',
			categories: ['Sports', 'Retail'],
			member_since_date: daysAgo(2000),
			work_phone: '(319) 555-0107',
			keywords: 'clubs lessons',
		}),
		business('Hidden Tavern', {
			membership_level_name: 'Trustee',
			published: false,
			city: 'Cedarbrook',
			county: 'Linn',
			zip: '52901',
			categories: ['Restaurants', 'Plumbing'],
			member_since_date: daysAgo(5),
			address1: '1 Secret Way',
			work_phone: '(319) 555-0199',
			keywords: 'pizza pipes',
			profile_affiliations: [{ aff_name: 'Women in Business', aff_code: 'WIB' }],
		}),
	];
}

/** Look-alikes in another chamber: same names, categories, towns and groups as tenant A's. */
function otherBusinesses(): BusinessInput[] {
	return directoryBusinesses().map((b) => ({
		...b,
		id: randomUUID(),
		weblink_profile_id: randomProfileNumber(),
		published: true,
		report_name: b.report_name === 'Alpha Plumbing' ? 'Alpha Plumbing' : `${b.report_name} West`,
		email: b.email ? `other.${b.email}` : '',
	}));
}

export function directoryConfig(slug: string, overrides: Partial<ChamberConfigInput> = {}) {
	return {
		name: `Directory Chamber ${slug}`,
		searchPage: { defaultSort: 'membershipHighToLow', membershipHierarchy: DIRECTORY_HIERARCHY },
		featuredBusinesses: { strategy: 'membership', membershipLevels: ['Trustee'], count: 2 },
		...overrides,
	} satisfies Partial<ChamberConfigInput>;
}

export interface DirectoryFixture {
	a: { id: string; slug: string };
	b: { id: string; slug: string };
	/** Tenant A's businesses by name: internal id and weblink profile id. */
	ids: Record<FixtureName | 'Hidden Tavern', { id: string; weblinkProfileId: string }>;
	/** Every business id of tenant B. */
	otherIds: string[];
}

/** Imports tenant A (the directory) and tenant B (look-alikes) with a service-role client. */
export async function seedDirectoryTenants(
	service: SupabaseClient,
	options: {
		prefix?: string;
		config?: Partial<ChamberConfigInput>;
		banners?: BannerInput[];
		/** Staff of tenant A, given its slug (their e-mails are made from it). */
		users?: (slug: string) => TenantUserInput[];
	} = {},
): Promise<DirectoryFixture> {
	const prefix = options.prefix ?? 'dir';
	const slugA = randomSlug(`${prefix}-a`);
	const slugB = randomSlug(`${prefix}-b`);
	const businessesA = directoryBusinesses();
	const businessesB = otherBusinesses();
	const fileA: TenantFileInput = {
		tenant: { slug: slugA, name: `Directory Chamber ${slugA}` },
		config: { slug: slugA, ...directoryConfig(slugA, options.config) },
		businesses: businessesA,
		banners: options.banners ?? [],
		users: options.users?.(slugA) ?? [],
	};
	const fileB: TenantFileInput = {
		tenant: { slug: slugB, name: `Other Chamber ${slugB}` },
		config: { slug: slugB, ...directoryConfig(slugB) },
		businesses: businessesB,
		banners: [
			{ banner_name: 'Other chamber banner', image_url: 'https://other.example/banner.png' },
		],
	};
	const a = await importTenant(service, parseTenantFile(fileA, 'directory fixture A'));
	const b = await importTenant(service, parseTenantFile(fileB, 'directory fixture B'));
	return {
		a: { id: a.tenant_id, slug: slugA },
		b: { id: b.tenant_id, slug: slugB },
		ids: Object.fromEntries(
			businessesA.map((x) => [
				x.report_name,
				{ id: x.id!, weblinkProfileId: x.weblink_profile_id },
			]),
		) as DirectoryFixture['ids'],
		otherIds: businessesB.map((x) => x.id!),
	};
}

export async function removeDirectoryTenants(db: Client, fixture: DirectoryFixture): Promise<void> {
	await db.query('delete from public.tenants where id = any($1::uuid[])', [
		[fixture.a.id, fixture.b.id],
	]);
}
