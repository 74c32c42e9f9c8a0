import type { Business } from '../directory/directory.ts';

/** A complete listing for the business tests; each test overrides what it is about. */
export function testBusiness(overrides: Partial<Business> = {}): Business {
	return {
		id: '5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11',
		weblinkProfileId: '104233',
		name: 'Bella Café',
		slug: 'bella-caf',
		description: 'Wood-fired pizza.',
		longDescription: '<p>Wood-fired pizza.</p>',
		logo: '',
		logoUrl: '',
		website: 'https://bella.example',
		acceptsMessages: true,
		phone: '(319) 555-0142',
		mainContactName: 'Ana Bell',
		address: {
			street: '12 Main St',
			street2: 'Suite 4',
			city: 'Cedarbrook',
			state: 'IA',
			zip: '52901',
		},
		county: 'Linn',
		categories: ['Restaurants & Catering', 'Bakeries'],
		featured: false,
		socialMedia: {},
		membershipLevel: 'Trustee',
		memberSince: '2011',
		membership: { level: 'Trustee', since: '2011' },
		isNewMember: false,
		badges: [],
		latitude: 41.977,
		longitude: -91.666,
		...overrides,
	};
}
