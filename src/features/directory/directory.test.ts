import { describe, expect, it } from 'vitest';
import { chamberConfigSchema } from '../config/config.ts';
import {
	affiliationLabel,
	businessListQuerySchema,
	categoryIcon,
	toBusiness,
	type BusinessCardRecord,
} from './directory.ts';
import { plainText } from './text.ts';

const config = chamberConfigSchema.parse({
	name: 'Cedar Chamber',
	slug: 'cedar',
	urls: { eventRegistrationBaseUrl: 'https://members.cedarchamber.org/events/' },
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
		accepts_messages: true,
		featured: true,
		categories: ['Restaurants', ' ', 'Catering '],
		membership_rank: null,
		membership_level_name: 'Executive',
		member_since: [{ member_since_date: '2026-10-01', member_since_year: 2026 }],
		member_since_year: 2026,
		weblink_profile_id: '4242',
		main_related_profile_name: 'Bella Rossi',
		latitude: 41.9779,
		longitude: -91.6656,
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
			acceptsMessages: true,
			phone: '(319) 555-0100',
			hours: null,
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
			latitude: 41.9779,
			longitude: -91.6656,
		});
	});

	it('has no place for a business nobody placed yet', () => {
		const placed = toBusiness(record({ latitude: null, longitude: null }), config, today);
		expect([placed.latitude, placed.longitude]).toEqual([null, null]);
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
