import { chamberConfigSchema } from './config.ts';
import type { ChamberConfig, ChamberConfigInput } from './config.ts';

// Used when a tenant has no chamber_config row. It is deliberately not
// cached by callers, so a row created later takes effect on the next load.
const PLACEHOLDER_INPUT: ChamberConfigInput = {
	name: 'Chamber of Commerce',
	// The placeholder has no chamber of its own; a fixed slug keeps the schema's slug rule intact.
	slug: 'placeholder',
	membershipLevels: {
		featured: ['trustee', 'chairman'],
		canLinkWebsite: ['trustee', 'chairman', 'executive', 'corporate'],
	},
	featuredBusinesses: {
		strategy: 'membership',
		count: 2,
		membershipLevels: ['trustee', 'chairman'],
		requireCompleteProfile: true,
	},
	categoryDisplay: { count: 8, sortBy: 'popularity' },
	searchPage: {
		defaultSort: 'nameAsc',
		membershipHierarchy: [
			{ name: 'Trustee', rank: 4 },
			{ name: 'Chairman', rank: 3 },
			{ name: 'Executive', rank: 2 },
			{ name: 'Business Partner', rank: 1 },
		],
	},
};

function deepFreeze<T>(value: T): T {
	if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
		for (const child of Object.values(value)) deepFreeze(child);
		Object.freeze(value);
	}
	return value;
}

/** Complete placeholder config; frozen because every tenant without a row shares this object. */
export const PLACEHOLDER_CONFIG: ChamberConfig = deepFreeze(
	chamberConfigSchema.parse(PLACEHOLDER_INPUT),
);
