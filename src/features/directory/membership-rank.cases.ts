import type { MembershipTier } from '../config/config.ts';

/**
 * One table of membership-rank cases, run against both implementations of the
 * rule: membershipRank in directory.ts (unit tests) and public.membership_rank in SQL
 * (tests/db/directory.test.ts).
 */
const RANK_TEST_HIERARCHY: MembershipTier[] = [
	{ name: 'Trustee', rank: 10 },
	{ name: 'Chairman', rank: 9 },
	{ name: 'Executive Partner', rank: 8 },
	{ name: 'Executive', rank: 7 },
	{ name: ' Member ', rank: 3 },
];

export const MEMBERSHIP_RANK_CASES: {
	why: string;
	level: string;
	given: number | null;
	hierarchy: MembershipTier[];
	rank: number;
}[] = [
	{ why: 'a given rank wins', level: 'Trustee', given: 1, hierarchy: RANK_TEST_HIERARCHY, rank: 1 },
	{
		why: 'a given rank of 0 wins',
		level: 'Trustee',
		given: 0,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 0,
	},
	{ why: 'exact name', level: 'Executive', given: null, hierarchy: RANK_TEST_HIERARCHY, rank: 7 },
	{
		why: 'exact name, any case and edge spaces',
		level: '  tRUSTEE ',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 10,
	},
	{
		why: 'a tier name with edge spaces',
		level: 'member',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 3,
	},
	{
		why: 'exact beats partial',
		level: 'Executive Partner',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 8,
	},
	{
		why: 'partial: the longest tier contained wins',
		level: 'Gold Executive Partner',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 8,
	},
	{
		why: 'partial: contained tier',
		level: 'Senior Executive',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 7,
	},
	{
		why: 'partial beats keyword',
		level: 'Board Member',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 3,
	},
	{ why: 'keyword board', level: 'Board Member', given: null, hierarchy: [], rank: 6 },
	{ why: 'keyword untethered', level: 'Untethered Partner', given: null, hierarchy: [], rank: 5 },
	{ why: 'keyword trustee', level: 'Trustee Circle', given: null, hierarchy: [], rank: 4 },
	{ why: 'keyword chairman', level: "Chairman's Club", given: null, hierarchy: [], rank: 3 },
	{ why: 'keyword executive', level: 'Executive Level', given: null, hierarchy: [], rank: 2 },
	{ why: 'keyword corporate', level: 'Corporate Partner', given: null, hierarchy: [], rank: 2 },
	{ why: 'keyword business', level: 'Business Partner', given: null, hierarchy: [], rank: 1 },
	{
		why: 'first keyword in order wins',
		level: 'Business Board',
		given: null,
		hierarchy: [],
		rank: 6,
	},
	{
		why: 'keyword when no tier matches',
		level: 'Business Partner',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 1,
	},
	{
		why: 'nothing matches',
		level: 'Friend of the Chamber',
		given: null,
		hierarchy: RANK_TEST_HIERARCHY,
		rank: 0,
	},
	{ why: 'blank level', level: '   ', given: null, hierarchy: RANK_TEST_HIERARCHY, rank: 0 },
];
