import { z } from 'zod';
import { SORT_VALUES } from '../../directory/rules.ts';
import { FILTER_VALUES, MAX_LENGTH, describeValue, label, uniqueList } from './fields.ts';

export const membershipTierSchema = z.object({
	/** Membership level name as stored on profiles, e.g. 'Trustee'. */
	name: label('Expected a membership level name'),
	/** Sort rank, higher ranks first. */
	rank: z.number().int().nonnegative(),
});

const sortValue = z.enum(SORT_VALUES, {
	error: (iss) => `Expected one of ${SORT_VALUES.join(', ')}, received ${describeValue(iss.input)}`,
});

export const searchPageSchema = z.object({
	/** Initial sort of /search; default 'membershipHighToLow'. */
	defaultSort: sortValue.default('membershipHighToLow'),
	/** Sorts offered in the dropdown; default nameAsc, nameDesc, membershipHighToLow, membershipLowToHigh, random. */
	availableSorts: uniqueList(SORT_VALUES, [
		'nameAsc',
		'nameDesc',
		'membershipHighToLow',
		'membershipLowToHigh',
		'random',
	]),
	/** Show the 'Sort by' dropdown; default true. */
	showSortDropdown: z.boolean().default(true),
	/** Show the 'More Filters' panel; default true. */
	showFilters: z.boolean().default(true),
	/** Filters in the panel, subset of city | county | zip | affiliation; default city, county, zip. */
	availableFilters: uniqueList(FILTER_VALUES, ['city', 'county', 'zip']),
	/** Level ranking for sorting; default Trustee 10, Chairman 9, Executive Partner 8, Executive 7, Corporate Partner 6, Corporate 5, Business Partner 4, Member 3. */
	membershipHierarchy: z
		.array(membershipTierSchema)
		.max(MAX_LENGTH.items)
		.default(() => [
			{ name: 'Trustee', rank: 10 },
			{ name: 'Chairman', rank: 9 },
			{ name: 'Executive Partner', rank: 8 },
			{ name: 'Executive', rank: 7 },
			{ name: 'Corporate Partner', rank: 6 },
			{ name: 'Corporate', rank: 5 },
			{ name: 'Business Partner', rank: 4 },
			{ name: 'Member', rank: 3 },
		]),
});
