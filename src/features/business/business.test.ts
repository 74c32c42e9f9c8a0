import { describe, expect, it } from 'vitest';
import {
	addressLine,
	cityStateZip,
	hasAddress,
	jsonForScript,
	localBusinessJsonLd,
	mapLinks,
	metaDescription,
	profilePath,
	safeHttpUrl,
	socialLinks,
	telHref,
	visibleBadge,
	websiteHref,
} from './business.ts';
import { testBusiness } from './test-business.ts';

const business = testBusiness({
	name: "Bella's Café & Bar",
	slug: 'bella-s-caf-bar',
	description: 'Wood-fired pizza in Cedarbrook.',
	website: 'https://bellas.example',
	categories: ['Restaurants', 'Catering'],
	socialMedia: {
		facebook: 'https://facebook.com/bellas',
		myspace: 'https://myspace.com/bellas',
		instagram: 'javascript:alert(1)',
		youtube: 'https://youtube.com/@bellas',
	},
	membershipLevel: 'Executive',
	membership: { level: 'Executive', since: '2011' },
});

describe('badge and website link', () => {
	it('shows the badge text the configuration asks for', () => {
		const on = { memberBadgeDisplay: 'level', showMembershipLevels: true } as const;
		expect(visibleBadge(business, { ...on, memberBadgeDisplay: 'year' })).toBe('Member Since 2011');
		expect(visibleBadge(business, on)).toBe('Executive');
		expect(
			visibleBadge({ ...business, memberSince: '' }, { ...on, memberBadgeDisplay: 'year' }),
		).toBe('Executive');
	});

	it.each(['Business Partner', ' business partner ', 'BUSINESS PARTNER'])(
		'never links the website of the level %j',
		(membershipLevel) => {
			expect(websiteHref({ ...business, membershipLevel })).toBe('');
		},
	);

	it.each(['Trustee', 'Member', 'Business Partner Plus'])(
		'links the website of the level %j',
		(membershipLevel) => {
			expect(websiteHref({ ...business, membershipLevel })).toBe('https://bellas.example/');
		},
	);

	it('hides a level badge when level badges are switched off, never the year', () => {
		const off = { memberBadgeDisplay: 'level', showMembershipLevels: false } as const;
		expect(visibleBadge(business, off)).toBe('');
		expect(visibleBadge(business, { ...off, memberBadgeDisplay: 'year' })).toBe(
			'Member Since 2011',
		);
		expect(visibleBadge(business, { ...off, showMembershipLevels: true })).toBe('Executive');
	});

	it('never links a website that is not http(s)', () => {
		expect(websiteHref({ ...business, website: 'javascript:alert(1)' })).toBe('');
		expect(websiteHref({ ...business, website: '' })).toBe('');
		expect(websiteHref(business)).toBe('https://bellas.example/');
	});
});

describe('links', () => {
	it('builds the profile path, carrying the category', () => {
		expect(profilePath(business)).toBe(
			'/business/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/bella-s-caf-bar',
		);
		expect(profilePath(business, 'Food & Drink')).toBe(
			'/business/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/bella-s-caf-bar?category=Food%20%26%20Drink',
		);
	});

	it.each([
		['(319) 555-0142', 'tel:3195550142'],
		['+1 319.555.0142', 'tel:+13195550142'],
		['319-555-0142 ext. 12', 'tel:3195550142,12'],
		['319-555-0142 x12', 'tel:3195550142,12'],
	])('dials %s as %s', (phone, href) => {
		expect(telHref(phone)).toBe(href);
	});

	it.each([
		['https://a.example/x', 'https://a.example/x'],
		['http://a.example', 'http://a.example/'],
		['javascript:alert(1)', ''],
		['data:text/html,hi', ''],
		['not a url', ''],
		[undefined, ''],
	])('safeHttpUrl(%j) is %j', (url, expected) => {
		expect(safeHttpUrl(url)).toBe(expected);
	});

	it('queries the maps service with the encoded address', () => {
		const links = mapLinks(business);
		const query = encodeURIComponent('12 Main St, Suite 4, Cedarbrook, IA, 52901');
		expect(links.embed).toBe(`https://maps.google.com/maps?q=${query}&output=embed`);
		expect(links.directions).toContain(`destination=${query}`);
		expect(links.view).toContain(`query=${query}`);
		const noStreet = mapLinks({ ...business, address: { ...business.address, street: '' } });
		expect(decodeURIComponent(noStreet.view)).toContain("Bella's Café & Bar, Suite 4, Cedarbrook");
	});
});

describe('address', () => {
	it('has an address line only with a street or a city', () => {
		expect(hasAddress(business.address)).toBe(true);
		expect(hasAddress({ ...business.address, street: '', city: '' })).toBe(false);
		expect(hasAddress({ ...business.address, street: '' })).toBe(true);
	});

	it('writes the parts that exist', () => {
		expect(addressLine(business.address)).toBe('12 Main St, Cedarbrook, IA 52901');
		expect(cityStateZip({ city: '', state: 'IA', zip: '52901' })).toBe('IA 52901');
	});
});

describe('socialLinks', () => {
	it('keeps only the five known networks with http(s) URLs, in a fixed order', () => {
		expect(socialLinks(business.socialMedia)).toEqual([
			{ network: 'facebook', label: 'Facebook', url: 'https://facebook.com/bellas' },
			{ network: 'youtube', label: 'YouTube', url: 'https://youtube.com/@bellas' },
		]);
		expect(socialLinks('None')).toEqual([]);
	});
});

describe('metadata', () => {
	it('uses the short description, or a sentence about the business', () => {
		expect(metaDescription(business, 'Cedar Chamber')).toBe('Wood-fired pizza in Cedarbrook.');
		expect(metaDescription({ ...business, description: '' }, 'Cedar Chamber')).toBe(
			"Bella's Café & Bar (Restaurants, Catering) in Cedarbrook, a member of Cedar Chamber.",
		);
	});

	it('keeps the description within 160 characters, cut at a word', () => {
		const long = metaDescription({ ...business, description: 'word '.repeat(60) }, 'X');
		expect(long.length).toBeLessThanOrEqual(160);
		expect(long.endsWith('word…')).toBe(true);
	});

	it('describes a LocalBusiness with address, phone, image and social profiles', () => {
		const data = localBusinessJsonLd(
			business,
			'https://x.example/business/1/b',
			'https://x.example/l.svg',
		);
		expect(data).toMatchObject({
			'@type': 'LocalBusiness',
			name: "Bella's Café & Bar",
			url: 'https://x.example/business/1/b',
			image: 'https://x.example/l.svg',
			telephone: '(319) 555-0142',
			address: {
				streetAddress: '12 Main St, Suite 4',
				addressLocality: 'Cedarbrook',
				postalCode: '52901',
			},
			sameAs: ['https://facebook.com/bellas', 'https://youtube.com/@bellas'],
		});
	});

	it('places the business with geo coordinates, and leaves geo out while it has no place', () => {
		const placed = localBusinessJsonLd(business, 'https://x.example/b', '');
		expect(placed.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 41.977, longitude: -91.666 });
		const unplaced = localBusinessJsonLd(
			{ ...business, latitude: null, longitude: null },
			'https://x.example/b',
			'',
		);
		expect(unplaced).not.toHaveProperty('geo');
	});

	it("gives the week's opening times as openingHoursSpecification, and none without times", () => {
		const hours = {
			mon: [{ open: '09:00', close: '17:00' }],
			tue: [],
			wed: [],
			thu: [],
			fri: [
				{ open: '09:00', close: '12:00' },
				{ open: '18:00', close: '24:00' },
			],
			sat: [],
			sun: [],
			note: 'By appointment',
		};
		const data = localBusinessJsonLd({ ...business, hours }, 'https://x.example/b', '');
		expect(data.openingHoursSpecification).toEqual([
			{
				'@type': 'OpeningHoursSpecification',
				dayOfWeek: 'https://schema.org/Monday',
				opens: '09:00',
				closes: '17:00',
			},
			{
				'@type': 'OpeningHoursSpecification',
				dayOfWeek: 'https://schema.org/Friday',
				opens: '09:00',
				closes: '12:00',
			},
			{
				'@type': 'OpeningHoursSpecification',
				dayOfWeek: 'https://schema.org/Friday',
				opens: '18:00',
				closes: '23:59',
			},
		]);
		const noteOnly = { ...hours, mon: [], fri: [] };
		expect(
			localBusinessJsonLd({ ...business, hours: noteOnly }, 'https://x.example/b', ''),
		).not.toHaveProperty('openingHoursSpecification');
		expect(localBusinessJsonLd(business, 'https://x.example/b', '')).not.toHaveProperty(
			'openingHoursSpecification',
		);
	});

	it('cannot close its script element', () => {
		expect(jsonForScript({ name: '</script><script>alert(1)</script>' })).not.toContain(
			'</script>',
		);
	});
});
