import { describe, expect, it } from 'vitest';
import { chamberConfigSchema, SORT_LABELS, SORT_VALUES } from '../config/config.ts';
import {
	affiliationLabel,
	badgeLabel,
	businessListQuerySchema,
	canLinkWebsite,
	categoryIcon,
	completeProfile,
	dropBlankNames,
	isInternalId,
	isNewMember,
	keepAffiliation,
	membershipRank,
	paginationModel,
	pickFeatured,
	plainText,
	rewriteLegacyLogo,
	slugify,
	sortLabel,
	toBusiness,
	withHttps,
	type BusinessCardRecord,
} from './directory.ts';
import { MEMBERSHIP_RANK_CASES } from './membership-rank.cases.ts';

const config = chamberConfigSchema.parse({
	name: 'Cedar Chamber',
	slug: 'cedar',
	urls: { eventRegistrationBaseUrl: 'https://members.cedarchamber.org/events/' },
});

describe('slugify', () => {
	it.each([
		['Alpha Plumbing', 'alpha-plumbing'],
		["Bella's Café & Bar", 'bella-s-caf-bar'],
		['  --Hello,   World!--  ', 'hello-world'],
		['A1 Auto (Marion)', 'a1-auto-marion'],
		['ALL CAPS', 'all-caps'],
		['', ''],
		['***', ''],
	])('%j → %j', (name, slug) => expect(slugify(name)).toBe(slug));
});

describe('withHttps', () => {
	it.each([
		['example.com', 'https://example.com'],
		['www.example.com/path?q=1', 'https://www.example.com/path?q=1'],
		['http://example.com', 'http://example.com'],
		['HTTPS://Example.com', 'HTTPS://Example.com'],
		['  example.com  ', 'https://example.com'],
		['', ''],
		['   ', ''],
	])('%j → %j', (url, result) => expect(withHttps(url)).toBe(result));
});

describe('plainText', () => {
	it.each([
		['<p>Fresh <strong>bread</strong> daily</p>', 'Fresh bread daily'],
		['Fish &amp; chips &ndash; &quot;best&quot; in town&#33;', 'Fish & chips – "best" in town!'],
		['<script>alert(1)</script>Safe', 'Safe'],
		['Line<br>break', 'Line break'],
		['no tags', 'no tags'],
		['', ''],
	])('%j → %j', (html, text) => expect(plainText(html)).toBe(text));
});

describe('keepAffiliation', () => {
	it.each([
		['Women in Business', true],
		['Young Professionals', true],
		['', false],
		['   ', false],
		[null, false],
		['All Profiles', false],
		['Member Profiles 2024', false],
		['MEM TYPE: Gold', false],
		['Mem - Retail', false],
		['Admin Only', false],
		['Sync list', false],
		['Email Verification', false],
		['Renewal confirmation', false],
		['Administrators', false],
	])('%j → %j', (name, keep) => expect(keepAffiliation(name)).toBe(keep));
});

describe('dropBlankNames', () => {
	it('drops blank and missing names, keeps the rest in order', () => {
		const list = [{ name: 'Cedarbrook' }, { name: '' }, { name: '  ' }, { name: 'Marion' }];
		expect(dropBlankNames(list)).toEqual([{ name: 'Cedarbrook' }, { name: 'Marion' }]);
	});
});

describe('isInternalId', () => {
	it.each([
		['6f1c2a4e-1b2c-4d5e-8f90-123456789abc', true],
		['123456', false],
		['a-b', true],
		['', false],
	])('%j → %j', (id, internal) => expect(isInternalId(id)).toBe(internal));
});

describe('membershipRank', () => {
	it.each(MEMBERSHIP_RANK_CASES)('$why: $level → $rank', ({ level, given, hierarchy, rank }) => {
		expect(membershipRank(level, given, hierarchy)).toBe(rank);
	});
});

describe('isNewMember', () => {
	const today = new Date(2026, 10, 22);
	it.each([
		['2026-11-22', true],
		['2026-08-24', true], // 90 days
		['2026-08-23', false], // 91 days
		['2020-01-01', false],
		['', false],
		[null, false],
		['not a date', false],
	])('%j → %j', (date, isNew) => expect(isNewMember(date, today)).toBe(isNew));
});

describe('canLinkWebsite', () => {
	it.each([
		['Business Partner', false],
		['business partner', false],
		['  BUSINESS PARTNER ', false],
		['Trustee', true],
		['Member', true],
		['Business Partner Plus', true],
	])('%j → %j', (membershipLevel, can) => expect(canLinkWebsite({ membershipLevel })).toBe(can));
});

describe('completeProfile', () => {
	const address = (street: string) => ({ street, street2: '', city: 'X', state: '', zip: '' });
	it.each([
		['555-0100', '', '1 Main St', true],
		['', 'https://a.example', '1 Main St', true],
		['555-0100', 'https://a.example', '1 Main St', true],
		['', '', '1 Main St', false],
		['555-0100', '', '', false],
		['  ', '  ', '1 Main St', false],
	])('phone %j, website %j, street %j → %j', (phone, website, street, complete) =>
		expect(completeProfile({ phone, website, address: address(street) })).toBe(complete),
	);
});

describe('badgeLabel', () => {
	it.each([
		['level', 'Trustee', '2015', 'Trustee'],
		['year', 'Trustee', '2015', 'Member Since 2015'],
		['year', 'Trustee', '', 'Trustee'],
	] as const)('%s, %j, %j → %j', (display, membershipLevel, memberSince, label) =>
		expect(badgeLabel({ membershipLevel, memberSince }, display)).toBe(label),
	);
});

describe('rewriteLegacyLogo', () => {
	it.each([
		[
			'https://weblink.weblinkconnect.com/images/logos/42.png',
			'https://members.cedarchamber.org/images/logos/42.png',
		],
		['http://weblinkconnect.com/x.jpg?v=2', 'https://members.cedarchamber.org/x.jpg?v=2'],
		[
			'https://cedar.growthzoneapp.com/ap/CloudFile/Download/abc',
			'https://members.cedarchamber.org/ap/CloudFile/Download/abc',
		],
		['https://images.chambermaster.com/logo.png', 'https://members.cedarchamber.org/logo.png'],
		['https://cdn.example.com/logo.png', 'https://cdn.example.com/logo.png'],
		['https://notweblinkconnect.com/logo.png', 'https://notweblinkconnect.com/logo.png'],
		['/demo/logos/logo-01.svg', '/demo/logos/logo-01.svg'],
		['logos/relative.png', 'logos/relative.png'],
		['', ''],
	])('%j → %j', (url, result) => expect(rewriteLegacyLogo(url, config)).toBe(result));

	it('leaves legacy logos alone when the chamber has no external host', () => {
		const bare = chamberConfigSchema.parse({ name: 'X', slug: 'x' });
		const url = 'https://weblink.weblinkconnect.com/images/logos/42.png';
		expect(rewriteLegacyLogo(url, bare)).toBe(url);
	});
});

describe('paginationModel', () => {
	it.each([
		[1, 0, []],
		[1, 1, [1]],
		[4, 7, [1, 2, 3, 4, 5, 6, 7]],
		[1, 8, [1, 2, 'ellipsis', 8]],
		[2, 8, [1, 2, 3, 'ellipsis', 8]],
		[3, 8, [1, 2, 3, 4, 'ellipsis', 8]],
		[4, 8, [1, 'ellipsis', 3, 4, 5, 'ellipsis', 8]],
		[6, 8, [1, 'ellipsis', 5, 6, 7, 8]],
		[8, 8, [1, 'ellipsis', 7, 8]],
		[50, 100, [1, 'ellipsis', 49, 50, 51, 'ellipsis', 100]],
		[0, 10, [1, 2, 'ellipsis', 10]],
		[99, 10, [1, 'ellipsis', 9, 10]],
	] as const)('page %d of %d → %j', (current, total, model) =>
		expect(paginationModel(current, total)).toEqual(model),
	);
});

describe('sortLabel', () => {
	it('names every sort, with the spec texts', () => {
		for (const sort of SORT_VALUES) expect(sortLabel(sort)).toBe(SORT_LABELS[sort]);
		expect(sortLabel('nameAsc')).toBe('Name A-Z');
		expect(sortLabel('listingPositionHighToLowRandom')).toBe('Premium First, Randomized');
		expect(sortLabel('listingPositionLowToHighRandom')).toBe('Basic First, Randomized');
	});
});

describe('pickFeatured', () => {
	/** A repeatable random source (mulberry32). */
	function seeded(seed: number): () => number {
		let a = seed;
		return () => {
			a = (a + 0x6d2b79f5) | 0;
			let t = Math.imul(a ^ (a >>> 15), 1 | a);
			t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
			return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
		};
	}
	const candidates = Array.from({ length: 20 }, (_, i) => `b${i}`);

	it('takes count distinct candidates', () => {
		const picked = pickFeatured(candidates, 3, seeded(1));
		expect(picked).toHaveLength(3);
		expect(new Set(picked).size).toBe(3);
		for (const p of picked) expect(candidates).toContain(p);
	});

	it('shuffles: different random sources pick differently, the same one the same', () => {
		expect(pickFeatured(candidates, 5, seeded(1))).toEqual(pickFeatured(candidates, 5, seeded(1)));
		expect(pickFeatured(candidates, 5, seeded(1))).not.toEqual(
			pickFeatured(candidates, 5, seeded(2)),
		);
	});

	it('reaches every candidate over many visits', () => {
		const seen = new Set<string>();
		const random = seeded(7);
		for (let i = 0; i < 200; i++) for (const p of pickFeatured(candidates, 2, random)) seen.add(p);
		expect(seen.size).toBe(candidates.length);
	});

	it('returns all when there are fewer candidates than count, and never changes the input', () => {
		const few = ['a', 'b'];
		expect(pickFeatured(few, 5).sort()).toEqual(['a', 'b']);
		expect(few).toEqual(['a', 'b']);
		expect(pickFeatured(few, 0)).toEqual([]);
	});
});

describe('categoryIcon', () => {
	it.each([
		['Chamber of Commerce', 'chamber'],
		['chamber of commerce', 'chamber'],
		['Maps', 'maps'],
		['Newspapers', 'newspapers'],
		['Youth Sports', 'youth-sports'],
		['Attorneys & Legal Services', 'legal'],
		['Law Firms', 'legal'],
		['Lawn Care', 'default'],
		['Accounting & Tax', 'accounting'],
		['Medical Clinics', 'medical'],
		['Health & Wellness', 'medical'],
		['Dentists', 'dental'],
		['Dental Care', 'dental'],
		['Banks', 'banking'],
		['Banking & Credit Unions', 'banking'],
		['Insurance Agents', 'insurance'],
		['Real Estate', 'real-estate'],
		['Construction & Contractors', 'construction'],
		['Plumbing', 'construction'],
		['Automotive Repair', 'automotive'],
		['Auto Dealers', 'automotive'],
		['Autograph Shops', 'retail'],
		['Information Technology', 'technology'],
		['Marketing & Advertising', 'marketing'],
		['Restaurants', 'restaurants'],
		['Restaurant', 'restaurants'],
		['Food & Beverage', 'restaurants'],
		['Fine Dining', 'restaurants'],
		['Hotels & Lodging', 'hotels'],
		['Retail Shopping', 'retail'],
		['Education', 'education'],
		['Fitness Centers', 'fitness'],
		['Manufacturing', 'manufacturing'],
		['Transportation', 'transport'],
		['Associations', 'association'],
		['Government Offices', 'government'],
		['Churches', 'church'],
		['Entertainment', 'entertainment'],
		['Sports Clubs', 'sports'],
		['Golf Courses', 'golf'],
		['Museums', 'museum'],
		['Music Lessons', 'music'],
		['Photography', 'photography'],
		['Cleaning Services', 'cleaning'],
		['Security Systems', 'security'],
		['Self Storage', 'storage'],
		['Waste Management', 'waste'],
		['Pet Grooming', 'pets'],
		['Travel Agencies', 'travel'],
		['Water Treatment', 'water'],
		['Utilities', 'utilities'],
		['Miscellaneous', 'default'],
		['', 'default'],
	])('%j → %j', (name, icon) => expect(categoryIcon(name)).toBe(icon));
});

describe('affiliationLabel', () => {
	it('uses the icon text, else the name', () => {
		expect(affiliationLabel({ icon_text: 'WIB', aff_name: 'Women in Business' })).toBe('WIB');
		expect(affiliationLabel({ icon_text: ' ', aff_name: 'Women in Business' })).toBe(
			'Women in Business',
		);
	});
});

function record(overrides: Partial<BusinessCardRecord> = {}): BusinessCardRecord {
	return {
		tenant_id: 't',
		id: '6f1c2a4e-1b2c-4d5e-8f90-123456789abc',
		report_name: "Bella's Restaurant",
		city: 'Cedarbrook',
		county: 'Linn',
		zip: '52901',
		address1: '1 Main St',
		address2: 'Suite 2',
		state: 'IA',
		work_phone: '(319) 555-0100',
		website: 'bellas.example',
		email: 'info@bellas.example',
		featured: true,
		categories: ['Restaurants', ' ', 'Catering '],
		membership_rank: null,
		membership_level_name: 'Executive',
		member_since: [{ member_since_date: '2026-10-01', member_since_year: 2026 }],
		member_since_year: 2026,
		weblink_profile_id: '4242',
		main_related_profile_name: 'Bella Rossi',
		listings: [
			{
				description: '<p>Old listing</p>',
				short_description: 'Old',
				categories: [],
				active: false,
				primary_listing: true,
			},
			{
				description: '<p>Second</p>',
				short_description: 'Second',
				categories: [],
				active: true,
				primary_listing: false,
			},
			{
				description: '<p>Pasta &amp; <em>pizza</em></p>',
				short_description: '<b>Pasta</b> &amp; pizza',
				categories: [],
				active: true,
				primary_listing: true,
			},
		],
		social_media: [
			{ platform: 'Facebook', url: 'https://facebook.com/bellas' },
			{ platform: 'instagram', url: 'https://instagram.com/bellas' },
			{ platform: 'FACEBOOK', url: 'https://facebook.com/duplicate' },
		],
		profile_affiliations: [
			{
				icon: 'star',
				icon_text: 'WIB',
				icon_url: 'https://cedarchamber.org/wib',
				aff_code: 'WIB',
				aff_name: 'Women in Business',
				list_available_on_website: true,
				profile_id: 'p',
				member_count: 3,
			},
			{
				icon: '',
				icon_text: '',
				icon_url: '',
				aff_code: 'SYNC',
				aff_name: 'Sync list',
				list_available_on_website: true,
				profile_id: 'p',
				member_count: 30,
			},
			{
				icon: '',
				icon_text: 'Hidden',
				icon_url: '',
				aff_code: 'H',
				aff_name: 'Hidden group',
				list_available_on_website: false,
				profile_id: 'p',
				member_count: 1,
			},
		],
		web_content: [],
		logo_url: 'https://weblink.weblinkconnect.com/logos/bellas.png',
		...overrides,
	};
}

describe('toBusiness', () => {
	const today = new Date(2026, 10, 22);

	it('maps a card record to the display model', () => {
		expect(toBusiness(record(), config, today)).toEqual({
			id: '6f1c2a4e-1b2c-4d5e-8f90-123456789abc',
			weblinkProfileId: '4242',
			name: "Bella's Restaurant",
			slug: 'bella-s-restaurant',
			description: 'Pasta & pizza',
			longDescription: '<p>Pasta &amp; <em>pizza</em></p>',
			logo: 'https://weblink.weblinkconnect.com/logos/bellas.png',
			logoUrl: 'https://members.cedarchamber.org/logos/bellas.png',
			website: 'https://bellas.example',
			email: 'info@bellas.example',
			phone: '(319) 555-0100',
			mainContactName: 'Bella Rossi',
			address: {
				street: '1 Main St',
				street2: 'Suite 2',
				city: 'Cedarbrook',
				state: 'IA',
				zip: '52901',
			},
			county: 'Linn',
			categories: ['Restaurants', 'Catering'],
			featured: true,
			socialMedia: {
				facebook: 'https://facebook.com/bellas',
				instagram: 'https://instagram.com/bellas',
			},
			membershipLevel: 'Executive',
			membershipRank: 7,
			memberSince: '2026',
			membership: { level: 'Executive', since: '2026' },
			isNewMember: true,
			badges: [
				{ icon: 'star', iconText: 'WIB', iconUrl: 'https://cedarchamber.org/wib', affCode: 'WIB' },
			],
		});
	});

	it('falls back: level Member, no listing, no member-since, social media None', () => {
		const business = toBusiness(
			record({
				membership_level_name: '  ',
				membership_rank: 12,
				listings: [],
				member_since: [],
				member_since_year: null,
				social_media: 'None',
				website: '',
				logo_url: '',
			}),
			config,
			today,
		);
		expect(business.membershipLevel).toBe('Member');
		expect(business.membershipRank).toBe(12);
		expect(business.description).toBe('');
		expect(business.longDescription).toBe('');
		expect(business.memberSince).toBe('');
		expect(business.isNewMember).toBe(false);
		expect(business.socialMedia).toBe('None');
		expect(business.website).toBe('');
		expect(business.logoUrl).toBe('');
	});

	it('takes the first active listing when none is primary, and its description as plain text', () => {
		const business = toBusiness(
			record({
				listings: [
					{
						description: '<p>A &lt;b&gt; day</p>',
						short_description: '',
						categories: [],
						active: true,
						primary_listing: false,
					},
				],
			}),
			config,
			today,
		);
		expect(business.description).toBe('A <b> day');
		expect(business.longDescription).toBe('<p>A &lt;b&gt; day</p>');
	});
});

describe('businessListQuerySchema', () => {
	it('reads the URL parameters with defaults', () => {
		expect(businessListQuerySchema.parse({})).toEqual({
			page: 1,
			pageSize: 24,
			newMembersOnly: false,
			randomSeed: 0.5,
		});
		const q = businessListQuerySchema.parse({
			page: '3',
			searchQuery: '  pizza ',
			newMembersOnly: 'true',
			sortBy: 'random',
			randomSeed: '0.25',
		});
		expect(q).toMatchObject({
			page: 3,
			searchQuery: 'pizza',
			newMembersOnly: true,
			randomSeed: 0.25,
		});
	});

	it('uses a stored seed only when it is a number from 0 to 1', () => {
		for (const seed of ['2', '-0.1', 'abc', '']) {
			expect(businessListQuerySchema.parse({ randomSeed: seed }).randomSeed).toBe(0.5);
		}
		expect(businessListQuerySchema.parse({ randomSeed: '0' }).randomSeed).toBe(0);
		expect(businessListQuerySchema.parse({ randomSeed: '1' }).randomSeed).toBe(1);
	});
});
