import { describe, expect, it } from 'vitest';
import { chamberConfigSchema } from '../config/config.ts';
import { MEMBERSHIP_RANK_CASES } from './membership-rank.cases.ts';
import {
	DEFAULT_RANDOM_SEED,
	NEW_MEMBER_DAYS,
	PAGE_SIZE,
	SORT_LABELS,
	SORT_VALUES,
	badgeLabel,
	canLinkWebsite,
	completeProfile,
	dropBlankNames,
	isInternalId,
	isNewMember,
	keepAffiliation,
	membershipRank,
	paginationModel,
	pickFeatured,
	rewriteLegacyLogo,
	slugify,
	sortLabel,
	usableRandomSeed,
	withHttps,
} from './rules.ts';

const config = chamberConfigSchema.parse({
	name: 'Cedar Chamber',
	slug: 'cedar',
	urls: { eventRegistrationBaseUrl: 'https://members.cedarchamber.org/events/' },
});

describe('constants', () => {
	it('pages hold 24 businesses, members are new for 90 days, the default seed is 0.5', () => {
		expect(PAGE_SIZE).toBe(24);
		expect(NEW_MEMBER_DAYS).toBe(90);
		expect(DEFAULT_RANDOM_SEED).toBe(0.5);
	});
});

describe('usableRandomSeed', () => {
	it.each([
		['0.25', 0.25],
		['0', 0],
		['1', 1],
		[' 0.75 ', 0.75],
	])('uses %j as %j', (value, seed) => expect(usableRandomSeed(value)).toBe(seed));

	it.each(['1.5', '2', '-0.1', 'abc', '', '   ', 'NaN', 'Infinity', null, undefined])(
		'falls back to 0.5 for %j',
		(value) => expect(usableRandomSeed(value)).toBe(DEFAULT_RANDOM_SEED),
	);
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
		['level', 'Business Partner', '', 'Business Partner'],
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
		[3, 13, [1, 2, 3, 4, 'ellipsis', 13]],
		[5, 13, [1, 'ellipsis', 4, 5, 6, 'ellipsis', 13]],
		[13, 13, [1, 'ellipsis', 12, 13]],
	] as const)('page %d of %d → %j', (current, total, model) =>
		expect(paginationModel(current, total)).toEqual(model),
	);

	it('always shows the first, the last and the current page with its neighbours, in order', () => {
		for (let total = 0; total <= 30; total++) {
			for (let current = -1; current <= total + 2; current++) {
				const model = paginationModel(current, total);
				const pages = model.filter((item): item is number => item !== 'ellipsis');
				expect(pages).toEqual([...pages].sort((a, b) => a - b));
				if (total <= 7) {
					expect(model).toEqual(Array.from({ length: total }, (_, i) => i + 1));
					continue;
				}
				const page = Math.min(Math.max(1, current), total);
				const wanted = [1, page - 1, page, page + 1, total].filter((p) => p >= 1 && p <= total);
				expect(pages).toEqual([...new Set(wanted)].sort((a, b) => a - b));
				// An ellipsis stands exactly where pages are left out.
				model.forEach((item, i) => {
					if (item !== 'ellipsis') return;
					const before = model[i - 1] as number;
					const after = model[i + 1] as number;
					expect(after - before).toBeGreaterThan(1);
				});
				pages.slice(1).forEach((p, i) => {
					if (p - (pages[i] as number) > 1) expect(model).toContain('ellipsis');
				});
			}
		}
	});
});

describe('sorts', () => {
	it('has 9 values, each labelled', () => {
		expect(SORT_VALUES).toHaveLength(9);
		expect(Object.keys(SORT_LABELS).sort()).toEqual([...SORT_VALUES].sort());
		expect(SORT_LABELS.nameAsc).toBe('Name A-Z');
		expect(SORT_LABELS.membershipHighToLow).toBe('Membership Level (High to Low)');
		expect(SORT_LABELS.listingPositionHighToLowRandom).toBe('Premium First, Randomized');
		expect(SORT_LABELS.listingPositionLowToHighRandom).toBe('Basic First, Randomized');
	});
});

describe('sortLabel', () => {
	it('names every sort, with the texts the page shows', () => {
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
