import { existsSync, readFileSync, statSync } from 'node:fs';
import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { DEMO_TIME_ZONE, generateTenant } from '../../../tenants/demo/generate.ts';
import { CATEGORY_ICON_KEYS, categoryIcon } from '../directory/directory.ts';
import {
	TenantFileError,
	parseTenantFile,
	type TenantFile,
	type TenantFileInput,
} from './tenant-file.ts';

const root = new URL('../../../', import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const publicFile = (path: string) => new URL(`public${path}`, root);

// A fixed day whose -3/+6 month window spans both DST changes.
const TODAY = new Date('2026-05-20T15:00:00Z');
const LEVELS = [
	'Trustee',
	'Chairman',
	'Executive Partner',
	'Executive',
	'Corporate Partner',
	'Corporate',
	'Business Partner',
	'Member',
];

function localDay(date: Date, days = 0, months = 0): string {
	const now = new TZDate(date.getTime(), DEMO_TIME_ZONE);
	const day = new TZDate(now.getFullYear(), now.getMonth(), now.getDate(), DEMO_TIME_ZONE);
	return format(addDays(addMonths(day, months), days), 'yyyy-MM-dd');
}

function errorOf(run: () => unknown): TenantFileError {
	try {
		run();
	} catch (error) {
		if (error instanceof TenantFileError) return error;
		throw error;
	}
	throw new Error('expected a TenantFileError');
}

describe('generateTenant (demo chamber)', () => {
	const input = generateTenant({ today: TODAY });
	const demo: TenantFile = parseTenantFile(input, 'tenants/demo');
	const allEvents = [...demo.events, ...demo.communityEvents];

	it('is deterministic for the same options and calendar day', () => {
		const laterSameDay = new Date('2026-05-20T23:30:00Z'); // 6:30 PM in Chicago
		expect(generateTenant({ today: laterSameDay })).toEqual(input);
		expect(generateTenant({ today: TODAY, seed: 7 })).not.toEqual(input);
	});

	it('describes the demo chamber', () => {
		expect(demo.tenant).toEqual({ slug: 'demo', name: 'Cedar Valley Chamber of Commerce' });
		expect(demo.config.slug).toBe('demo');
		expect(demo.config.urls.joinUrl).toMatch(/^https:\/\/www\.cedarvalleychamber\.example\//);
		expect(Object.values(demo.config.urls).every((url) => url.startsWith('https://'))).toBe(true);
		expect(demo.config.navigation.menuItems.some((item) => item.type === 'dropdown')).toBe(true);
		expect(demo.config.featuredBusinesses.strategy).toBe('membership');
		expect(demo.config.searchPage.membershipHierarchy.map((t) => [t.name, t.rank])).toEqual(
			LEVELS.map((name, i) => [name, 10 - i]),
		);
		expect(demo.users.map((u) => [u.email, u.role])).toEqual([
			['super@demo.test', 'super_admin'],
			['admin@demo.test', 'admin'],
			['editor@demo.test', 'editor'],
		]);
		expect(demo.users.every((u) => u.password === 'demo-password')).toBe(true);
	});

	it('has ~300 businesses in ~40 categories, including the exact-name ones', () => {
		expect(demo.businesses).toHaveLength(300);
		const counts = new Map<string, number>();
		for (const b of demo.businesses) {
			expect(b.categories.length).toBeGreaterThanOrEqual(1);
			expect(b.categories.length).toBeLessThanOrEqual(3);
			for (const c of b.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
		}
		expect(counts.size).toBeGreaterThanOrEqual(38);
		expect(counts.size).toBeLessThanOrEqual(45);
		for (const exact of ['Chamber of Commerce', 'Maps', 'Newspapers', 'Youth Sports']) {
			expect(counts.has(exact)).toBe(true);
		}
		// Every category icon is shown by some category, the fallback for unknown names included.
		const icons = [...counts.keys()].map(categoryIcon);
		for (const icon of CATEGORY_ICON_KEYS) expect(icons, icon).toContain(icon);
		const sorted = [...counts.values()].sort((a, b) => b - a);
		expect(sorted[0]!).toBeGreaterThan(5 * sorted[sorted.length - 1]!);
		expect(new Set(demo.businesses.map((b) => b.report_name)).size).toBe(300);
	});

	it('uses every membership level, mostly Member, with few explicit ranks', () => {
		const levels = demo.businesses.map((b) => b.membership_level_name);
		for (const level of LEVELS) expect(levels).toContain(level);
		const members = levels.filter((l) => l === 'Member').length;
		expect(members / levels.length).toBeGreaterThan(0.4);
		const ranked = demo.businesses.filter((b) => b.membership_rank !== undefined).length;
		expect(ranked).toBeGreaterThan(0);
		expect(ranked).toBeLessThan(demo.businesses.length / 3);
	});

	it('has 5-15 % new members (joined within 90 days), the rest over 30 years', () => {
		const cutoff = localDay(TODAY, -90);
		const dates = demo.businesses.map((b) => b.member_since_date);
		const share = dates.filter((d) => d !== null && d > cutoff).length / dates.length;
		expect(share).toBeGreaterThanOrEqual(0.05);
		expect(share).toBeLessThanOrEqual(0.15);
		const years = dates.filter((d) => d !== null).map((d) => Number(d.slice(0, 4)));
		expect(Math.min(...years)).toBeLessThanOrEqual(2000);
		expect(dates.every((d) => d === null || d <= localDay(TODAY))).toBe(true);
	});

	it('exercises the directory rules with its business data', () => {
		const b = demo.businesses;
		expect(new Set(b.map((x) => x.city)).size).toBeGreaterThanOrEqual(5); // 5 towns and ''
		expect(new Set(b.map((x) => x.county)).size).toBe(3);
		expect(b.some((x) => x.website !== '' && !/^https?:\/\//.test(x.website))).toBe(true);
		expect(b.every((x) => x.email === '' || x.email.endsWith('.example'))).toBe(true);
		// The feeds' string form is in the input and reads as "no links".
		const none = input.businesses!.findIndex((x) => x.social_media === 'None');
		expect(none).toBeGreaterThanOrEqual(0);
		expect(b[none]!.social_media).toEqual([]);
		expect(b.some((x) => x.social_media.some((s) => s.platform === 'tiktok'))).toBe(true);
		const affiliations = new Set(b.flatMap((x) => x.profile_affiliations.map((a) => a.aff_name)));
		for (const name of ['Women in Business', 'All Profiles', 'Mem Type - Gold', 'Admin Sync', '']) {
			expect(affiliations.has(name), name).toBe(true);
		}
		const html = b.map((x) => x.listings[0]?.description ?? '').join('');
		for (const tag of ['<p>', '<strong>', '<em>', '<ul>', '<li>', '<a href=', '<h3>', '<table>']) {
			expect(html).toContain(tag);
		}
		expect(b.some((x) => x.web_content.length > 0)).toBe(true);
		expect(b.some((x) => x.listing_position !== undefined)).toBe(true);
	});

	it('references logo and banner files that exist and are small', () => {
		const logos = demo.businesses.map((b) => b.logo_url);
		expect(logos.filter((l) => l !== '').length / logos.length).toBeGreaterThan(0.5);
		const files = new Set([
			...logos.filter((l) => l !== ''),
			...demo.banners.map((b) => b.image_url),
			demo.config.logo.standard,
			demo.config.logo.stacked,
			demo.config.logo.favicon,
		]);
		expect(files.size).toBeGreaterThanOrEqual(20);
		for (const file of files) {
			expect(existsSync(publicFile(file)), file).toBe(true);
			expect(statSync(publicFile(file)).size).toBeLessThan(2048);
		}
		for (const n of [1, 2, 3]) {
			const svg = readFileSync(publicFile(`/demo/banners/banner-${n}.svg`), 'utf8');
			expect(svg).toContain('viewBox="0 0 970 90"');
			expect(svg).toContain('<title>');
		}
	});

	it('spreads ~100 events over the -3/+6 month window with every case present', () => {
		expect(demo.events.length).toBeGreaterThanOrEqual(50);
		expect(demo.events.length).toBeLessThanOrEqual(70);
		expect(demo.communityEvents.length).toBeGreaterThanOrEqual(30);
		expect(demo.communityEvents.length).toBeLessThanOrEqual(50);
		const from = localDay(TODAY, 0, -3);
		const to = localDay(TODAY, 0, 6);
		for (const e of allEvents) {
			expect(e.StartDate >= from && e.EndDate <= to, `${e.EventName} ${e.StartDate}`).toBe(true);
		}
		expect(allEvents.some((e) => e.StartDate < localDay(TODAY))).toBe(true);
		expect(allEvents.some((e) => e.StartDate > localDay(TODAY))).toBe(true);

		const multiDay = allEvents.filter((e) => e.StartDate !== e.EndDate);
		expect(multiDay.length).toBeGreaterThanOrEqual(3);
		expect(multiDay.some((e) => e.StartDate.slice(0, 7) !== e.EndDate.slice(0, 7))).toBe(true);
		expect(allEvents.some((e) => e.StartTime === '12:00 AM' && e.EndTime === '11:59 PM')).toBe(
			true,
		);
		expect(allEvents.filter((e) => e.Closed).length).toBeGreaterThanOrEqual(3);
		expect(allEvents.some((e) => e.DisableRegistration)).toBe(true);
		expect(allEvents.some((e) => e.SpecialRegistrationUrl !== '')).toBe(true);

		const items = allEvents.flatMap((e) => e.Items);
		expect(items.some((i) => i.UnitPrice === 0)).toBe(true);
		expect(items.some((i) => i.UnitPrice > 0)).toBe(true);
		expect(items.some((i) => !i.IsPublic)).toBe(true);

		const sponsors = allEvents.flatMap((e) => e.Sponsors);
		expect(
			sponsors.some((s) => s.SponsorWebsite !== '' && !/^https?:/.test(s.SponsorWebsite)),
		).toBe(true);
		expect(
			sponsors.some((s) => s.SponsorLogoUrl !== '' && !/^https?:/.test(s.SponsorLogoUrl)),
		).toBe(true);
		expect(sponsors.some((s) => s.HideSponsorOrgName)).toBe(true);

		const detailed = allEvents.filter((e) => e.ShowAttendeeDetail && e.Attendees.length > 0);
		expect(detailed.some((e) => e.AttendingAttendees >= e.AttendeeDetailThreshold)).toBe(true);
		expect(detailed.some((e) => e.AttendingAttendees < e.AttendeeDetailThreshold)).toBe(true);
		expect(
			detailed.some(
				(e) => new Set(e.Attendees.map((a) => a.RegistrationId)).size < e.Attendees.length,
			),
		).toBe(true);

		const featured = demo.events.filter((e) => e.FeaturedEvent);
		expect(featured).toHaveLength(1);
		expect(demo.config.features.featuredEventId).toBe(featured[0]!.EventId);
		expect(new Set(allEvents.map((e) => e.TimeZone.Abbreviation))).toEqual(new Set(['CST', 'CDT']));
		expect(new Set(demo.communityEvents.map((e) => e.EventType))).toContain('Community');
	});

	it('keeps calendars populated relative to any today', () => {
		const today = new Date();
		const tenant = parseTenantFile(generateTenant({ businesses: 20, today }), 'tenants/demo');
		expect(tenant.businesses).toHaveLength(20);
		const upcoming = tenant.events.filter((e) => !e.Closed && e.StartDate >= localDay(today));
		expect(upcoming.length).toBeGreaterThan(20);
		expect(tenant.communityEvents.some((e) => e.StartDate >= localDay(today))).toBe(true);
	});

	it('gives other slugs their own logins', () => {
		const other = generateTenant({ slug: 'big', businesses: 10, today: TODAY });
		expect(other.users?.map((u) => u.email)).toEqual([
			'super@big.test',
			'admin@big.test',
			'editor@big.test',
		]);
		expect(parseTenantFile(other, 'big').config.slug).toBe('big');
	});
});

describe('tenant files in tenants/', () => {
	it('parses example.json', () => {
		const example = parseTenantFile(readJson('tenants/example.json'), 'tenants/example.json');
		expect(example.tenant.slug).toBe('example');
		expect(example.businesses).toHaveLength(5);
		expect(example.banners).toHaveLength(2);
		expect(example.events).toHaveLength(3);
		expect(example.communityEvents).toHaveLength(2);
		expect(example.users).toHaveLength(1);
		// Blank category names are dropped, defaults filled in.
		expect(example.businesses[0]!.categories).toEqual([
			'Restaurants & Catering',
			'Retail Shopping',
		]);
		expect(example.businesses[4]).toMatchObject({
			membership_level_name: 'Member',
			member_since_date: null,
			is_member: true,
			published: true,
			listings: [],
			social_media: [],
		});
		expect(example.businesses[1]!.social_media).toEqual([]);
		expect(example.businesses[0]!.id).toBeDefined();
		expect(example.events[0]!.AttendingAttendees).toBe(3);
		expect(
			[...example.events, ...example.communityEvents].every((e) => e.StartDate.startsWith('2027')),
		).toBe(true);
	});

	it('parses riverside.json', () => {
		const riverside = parseTenantFile(readJson('tenants/riverside.json'), 'tenants/riverside.json');
		expect(riverside.tenant.slug).toBe('riverside');
		expect(riverside.config.slug).toBe('riverside');
		expect(riverside.config.name).toBe('Riverside Area Chamber');
		expect(riverside.businesses.length).toBeGreaterThanOrEqual(10);
		expect(riverside.users.map((u) => [u.email, u.role, u.password])).toEqual([
			['admin@riverside.test', 'admin', 'demo-password'],
			['editor@riverside.test', 'editor', 'demo-password'],
		]);
		const demo = parseTenantFile(generateTenant({ businesses: 60, today: TODAY }), 'demo');
		const demoCategories = new Set(demo.businesses.flatMap((b) => b.categories));
		const shared = riverside.businesses
			.flatMap((b) => b.categories)
			.filter((c) => demoCategories.has(c));
		expect(new Set(shared).size).toBeGreaterThanOrEqual(2);
		expect(riverside.config.colors.primary).not.toBe(demo.config.colors.primary);
	});
});

describe('parseTenantFile errors', () => {
	const example = () => readJson('tenants/example.json') as TenantFileInput;

	it('names the source and the JSON path of the first error', () => {
		const broken = example();
		broken.businesses![1]!.report_name = '';
		const error = errorOf(() => parseTenantFile(broken, 'tenants/example.json'));
		expect(error.path).toBe('businesses[1].report_name');
		expect(error.message).toBe(
			'tenants/example.json: businesses[1].report_name: A business needs a name',
		);
	});

	it('reports a duplicate weblink_profile_id at the duplicate', () => {
		const broken = example();
		broken.businesses![3]!.weblink_profile_id = broken.businesses![1]!.weblink_profile_id;
		const error = errorOf(() => parseTenantFile(broken, 'tenants/example.json'));
		expect(error.path).toBe('businesses[3].weblink_profile_id');
		expect(error.message).toContain('businesses[3].weblink_profile_id: Duplicate');
		expect(error.message).toContain('businesses[1]');
	});

	it('rejects a config slug that differs from the tenant slug', () => {
		const broken = example();
		broken.config = { ...broken.config, slug: 'other' };
		expect(errorOf(() => parseTenantFile(broken, 'x')).path).toBe('config.slug');
		const { slug: _slug, ...withoutSlug } = example().config!;
		expect(parseTenantFile({ ...example(), config: withoutSlug }, 'x').config.slug).toBe('example');
	});

	it('checks events: local times against the instants, order, unique ids', () => {
		const shifted = example();
		shifted.events![0]!.StartTime = '9:00 AM';
		expect(errorOf(() => parseTenantFile(shifted, 'x')).path).toBe('events[0].StartTime');

		const backwards = example();
		const first = backwards.events![1]!;
		[first.StartDateTimeUtc, first.EndDateTimeUtc] = [first.EndDateTimeUtc, first.StartDateTimeUtc];
		expect(errorOf(() => parseTenantFile(backwards, 'x')).path).toBe('events[1].EndDateTimeUtc');

		const duplicate = example();
		duplicate.communityEvents![1]!.EventId = duplicate.communityEvents![0]!.EventId;
		expect(errorOf(() => parseTenantFile(duplicate, 'x')).path).toBe('communityEvents[1].EventId');
	});

	it('checks users, slugs and unknown sections', () => {
		const users = example();
		users.users = [
			...users.users!,
			{ email: 'ADMIN@example.test', password: 'secret', role: 'editor' },
		];
		expect(errorOf(() => parseTenantFile(users, 'x')).path).toBe('users[1].email');

		const short = example();
		short.users![0]!.password = '12345';
		expect(errorOf(() => parseTenantFile(short, 'x')).path).toBe('users[0].password');

		const slug = example();
		slug.tenant.slug = 'Bad--Slug';
		expect(errorOf(() => parseTenantFile(slug, 'x')).path).toBe('tenant.slug');

		const extra = { ...example(), bussinesses: [] };
		expect(errorOf(() => parseTenantFile(extra, 'x')).message).toContain('bussinesses');

		const social = example();
		social.businesses![0]!.social_media = [{ platform: 'facebook' } as never];
		expect(errorOf(() => parseTenantFile(social, 'x')).path).toBe(
			'businesses[0].social_media[0].url',
		);
	});
});

describe('ids the membership system exports as numbers or strings', () => {
	const example = () => readJson('tenants/example.json') as TenantFileInput;

	/** The same file with every source id written the other way (number ↔ string). */
	function flipped(input: TenantFileInput): TenantFileInput {
		const flip = (value: unknown) => (typeof value === 'number' ? String(value) : Number(value));
		const copy = structuredClone(input) as Record<string, unknown[]> & TenantFileInput;
		for (const business of copy.businesses ?? []) {
			business.weblink_profile_id = flip(business.weblink_profile_id) as never;
		}
		for (const event of [...(copy.events ?? []), ...(copy.communityEvents ?? [])]) {
			event.EventId = flip(event.EventId) as never;
			for (const item of event.Items ?? []) item.ItemId = flip(item.ItemId) as never;
			for (const sponsor of event.Sponsors ?? [])
				sponsor.SponserId = flip(sponsor.SponserId) as never;
			for (const attendee of event.Attendees ?? []) {
				attendee.AttendeeId = flip(attendee.AttendeeId) as never;
				attendee.RegistrationId = flip(attendee.RegistrationId) as never;
			}
		}
		return copy;
	}

	it('parses to the same data whichever way the ids are written', () => {
		const input = example();
		const asGiven = parseTenantFile(input, 'x');
		const other = parseTenantFile(flipped(input), 'x');
		expect(other).toEqual(asGiven);
		expect(typeof asGiven.events[0]!.EventId).toBe('number');
		expect(typeof asGiven.businesses[0]!.weblink_profile_id).toBe('string');
	});

	it('stores profile and banner numbers without leading zeros, uuids in lower case', () => {
		const input = example();
		input.businesses![0]!.weblink_profile_id = '000123';
		input.banners = [
			{ id: 42, banner_name: 'A', image_url: '/a.png' },
			{ id: '0042', banner_name: 'B', image_url: '/b.png' },
			{ id: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', banner_name: 'C', image_url: '/c.png' },
		] as never;
		const file = parseTenantFile(input, 'x');
		expect(file.businesses[0]!.weblink_profile_id).toBe('123');
		expect(file.banners.map((b) => b.id)).toEqual([
			'42',
			'42',
			'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
		]);
	});

	it('refuses ids that are no whole numbers', () => {
		const input = example();
		input.events![0]!.EventId = '12a' as never;
		expect(errorOf(() => parseTenantFile(input, 'x')).path).toBe('events[0].EventId');
		const zero = example();
		zero.events![0]!.EventId = '0' as never;
		expect(errorOf(() => parseTenantFile(zero, 'x')).path).toBe('events[0].EventId');
		const profile = example();
		profile.businesses![0]!.weblink_profile_id = 12.5 as never;
		expect(errorOf(() => parseTenantFile(profile, 'x')).path).toBe(
			'businesses[0].weblink_profile_id',
		);
	});

	it('takes a user without a password (they set theirs through the reset e-mail)', () => {
		const input = example();
		input.users = [{ email: 'new@example.test', role: 'admin' }];
		expect(parseTenantFile(input, 'x').users).toEqual([
			{ email: 'new@example.test', role: 'admin' },
		]);
	});
});
