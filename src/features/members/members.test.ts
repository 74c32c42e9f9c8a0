import { describe, expect, it } from 'vitest';
import {
	BUSINESS_FIELDS,
	changedFields,
	describeIssues,
	describeValue,
	EDITOR_FIELDS,
	emptyBusiness,
	FIELD_GROUPS,
	mayChangeField,
	memberListQuerySchema,
	parseBusinessChanges,
	parseNewBusiness,
	describeLocation,
	NO_LOCATION_STATUS,
	type LocationStatus,
} from './members.ts';
import { businessSchema } from '../tenants/tenant-file.ts';

describe('the fields of a business', () => {
	it('are the tenant file’s, each in exactly one group of the editor', () => {
		const fileFields = Object.keys(businessSchema.shape).filter(
			(f) => f !== 'id' && f !== 'weblink_profile_id',
		);
		expect([...BUSINESS_FIELDS].sort()).toEqual(fileFields.sort());
		const grouped = FIELD_GROUPS.flatMap((g) => g.fields);
		expect([...grouped].sort()).toEqual([...BUSINESS_FIELDS].sort());
	});

	it('an editor may change the descriptive ones only', () => {
		expect(BUSINESS_FIELDS.filter((f) => mayChangeField('editor', f)).sort()).toEqual(
			[...EDITOR_FIELDS].sort(),
		);
		expect(BUSINESS_FIELDS.every((f) => mayChangeField('admin', f))).toBe(true);
	});
});

describe('parseBusinessChanges', () => {
	it('validates each field with the tenant file’s schema and answers the values as stored', () => {
		expect(
			parseBusinessChanges({
				city: '  Lakeside ',
				categories: ['Food', ' ', 'Food', 'Retail'],
				membership_rank: null,
				social_media: [{ platform: ' Facebook', url: 'https://fb.example/x' }],
			}),
		).toEqual({
			ok: true,
			changes: {
				city: 'Lakeside',
				categories: ['Food', 'Retail'],
				membership_rank: null,
				social_media: [{ platform: 'Facebook', url: 'https://fb.example/x' }],
			},
		});
	});

	it('reports every problem with its path, unknown fields too', () => {
		const parsed = parseBusinessChanges({
			city: 'x'.repeat(201),
			listing_position: 0,
			web_content: [{ content_title: 'A' }],
			nickname: 'x',
		});
		expect(parsed.ok).toBe(false);
		if (parsed.ok) return;
		expect(parsed.issues.map((i) => i.path)).toEqual([
			'city',
			'listing_position',
			'web_content[0].content_type',
			'nickname',
		]);
		expect(parsed.issues.map((i) => i.field)).toEqual([
			'city',
			'listing_position',
			'web_content',
			null,
		]);
		expect(describeIssues(parsed.issues)).toMatch(/^city: /);
		expect(parseBusinessChanges(['city']).ok).toBe(false);
	});
});

describe('parseNewBusiness', () => {
	it('needs a name; takes the membership system’s id as digits', () => {
		expect(parseNewBusiness({ report_name: 'Café', weblink_profile_id: 42 })).toEqual({
			ok: true,
			business: { weblinkProfileId: '42', values: { report_name: 'Café' } },
		});
		expect(parseNewBusiness({ report_name: 'Café', weblink_profile_id: '' })).toMatchObject({
			ok: true,
			business: { weblinkProfileId: null },
		});
		const missing = parseNewBusiness({ city: 'Lakeside' });
		expect(missing.ok || missing.issues.map((i) => i.path)).toEqual(['report_name']);
		const bad = parseNewBusiness({ report_name: 'X', weblink_profile_id: 'abc' });
		expect(bad.ok || bad.issues.map((i) => i.path)).toEqual(['weblink_profile_id']);
	});
});

describe('changedFields', () => {
	it('compares values as they would be saved: a trailing space or blank category is no change', () => {
		const saved = { ...emptyBusiness(), report_name: 'Bakery', categories: ['Food'] };
		expect(
			changedFields(saved, { ...saved, report_name: 'Bakery ', categories: ['Food', ''] }),
		).toEqual({});
		expect(changedFields(saved, { ...saved, city: 'Hilltop' })).toEqual({ city: 'Hilltop' });
		// An invalid value is a change (and its problem is shown at the field).
		expect(changedFields(saved, { ...saved, listing_position: Number.NaN })).toEqual({
			listing_position: Number.NaN,
		});
	});
});

describe('the list query and values in one line', () => {
	it('takes filters from the URL and bounds the page size', () => {
		const url = (q: string) => Object.fromEntries(new URLSearchParams(q));
		expect(memberListQuerySchema.parse(url('q=%20bak%20&status=removed&page=2'))).toEqual({
			q: 'bak',
			status: 'removed',
			page: 2,
			pageSize: 25,
			chamber: undefined,
			level: undefined,
			category: undefined,
		});
		expect(memberListQuerySchema.safeParse(url('pageSize=1000')).success).toBe(false);
		expect(memberListQuerySchema.safeParse(url('status=gone')).success).toBe(false);
	});

	it('describes values for the history and the dialogs', () => {
		expect(describeValue('')).toBe('(empty)');
		expect(describeValue(true)).toBe('Yes');
		expect(describeValue(['Food', 'Retail'])).toBe('Food, Retail');
		expect(describeValue([{ platform: 'x', url: 'y' }])).toBe('1 item');
	});
});

describe('describeLocation', () => {
	const status = (over: Partial<LocationStatus> = {}): LocationStatus => ({
		...NO_LOCATION_STATUS,
		...over,
	});
	const request = (over: Partial<NonNullable<LocationStatus['request']>> = {}) => ({
		status: 'pending' as const,
		requestedAt: '2026-12-05T10:00:00Z',
		attempts: 0,
		nextAttemptAt: '2026-12-05T10:00:00Z',
		lastError: null,
		...over,
	});

	it('says who placed the pin and how exactly', () => {
		expect(describeLocation(true, status({ source: 'census', quality: 'exact' }))).toBe(
			'Placed by the US Census Bureau’s geocoder, at the address.',
		);
		expect(describeLocation(true, status({ source: 'nominatim', quality: 'area' }))).toBe(
			'Placed by OpenStreetMap’s geocoder (Nominatim), in the town or ZIP code only.',
		);
		expect(describeLocation(true, status({ source: 'staff', quality: 'manual' }))).toBe(
			'Placed by hand.',
		);
		expect(describeLocation(true, status({ source: 'file', quality: 'supplied' }))).toBe(
			'Placed from the membership system’s file.',
		);
	});

	it('says why there is no pin yet', () => {
		expect(describeLocation(false, status({ request: request() }))).toBe(
			'Waiting for the geocoder to look up the address.',
		);
		expect(
			describeLocation(
				false,
				status({ request: request({ attempts: 2, lastError: 'the geocoder answered HTTP 503' }) }),
			),
		).toBe(
			'Waiting for the geocoder to look up the address. The last try failed (the geocoder answered HTTP 503); it tries again later.',
		);
		expect(
			describeLocation(
				false,
				status({ request: request({ status: 'unmatched', lastError: 'No match' }) }),
			),
		).toBe(
			'The geocoder did not find this address. Place the pin by hand, or correct the address.',
		);
		expect(describeLocation(false, status())).toBe(
			'Not on the map: the listing has no address the geocoder can look up. Place the pin by hand.',
		);
	});

	it('asks staff to place the pin where no geocoder looks addresses up, never to wait for one', () => {
		const waiting = status({ request: request(), geocoding: false });
		expect(describeLocation(false, waiting)).toBe(
			'Not on the map: no geocoder looks addresses up on this site. Place the pin by hand.',
		);
		expect(describeLocation(true, { ...waiting, source: 'file', quality: 'supplied' })).toBe(
			'No geocoder looks addresses up on this site: the pin stays where it is until staff move it.',
		);
		// A geocoder on the site, or one nobody said is missing: the request is waited for.
		for (const geocoding of [true, undefined]) {
			expect(describeLocation(false, status({ request: request(), geocoding }))).toBe(
				'Waiting for the geocoder to look up the address.',
			);
		}
	});
});
