import { z } from 'zod';
import {
	MEMBER_FIELD_CHOICES,
	MEMBER_CATEGORY_COUNT,
	PUBLISH_WINDOWS,
	describeValue,
	countWithFallback,
	optionalInteger,
	uniqueList,
} from './fields.ts';

export const featuresSchema = z.object({
	/** Show the chamber events calendar; default true. */
	showEvents: z.boolean().default(true),
	/** Show the community events calendar; default true. */
	showCommunityEvents: z.boolean().default(true),
	/** Offer the 'New Members Only' search filter; default true. */
	showNewMembersFilter: z.boolean().default(true),
	/** Show membership level badges; default true. */
	showMembershipLevels: z.boolean().default(true),
	/** Show the home banner carousel; default true. */
	showBanners: z.boolean().default(true),
	/** Show the event type filter box; default true. */
	showEventFilters: z.boolean().default(true),
	/** Show the featured event card; default false. */
	showFeaturedEvent: z.boolean().default(false),
	/** Event shown in the featured card, '' stored as null; default null. */
	featuredEventId: optionalInteger('an event id'),
	/** Show the short description on business cards; default false. */
	showBusinessShortDescription: z.boolean().default(false),
	/** Show '{N} attending' in the event detail header; default true. */
	showEventAttendeeCountInHeader: z.boolean().default(true),
	/** Business badge content: level (membership level) | year ('Member Since {year}'); default 'level'. */
	memberBadgeDisplay: z.enum(['level', 'year']).default('level'),
	/** Business profile layout: classic | modern; default 'classic'. */
	businessDetailLayout: z.enum(['classic', 'modern']).default('classic'),
	/** Offer the List | Map switch on the search page; default true. */
	showMap: z.boolean().default(true),
	/** Offer 'Near me' on the search page (search by distance from the visitor); default true. */
	showNearMe: z.boolean().default(true),
	/** Show the business's main contact name on its profile; default false. */
	showMainContact: z.boolean().default(false),
	/**
	 * Members update their own listing: profiles link to /members/sign-in and a member signs in
	 * by an e-mailed link to the address on file; default false.
	 */
	memberUpdates: z.boolean().default(false),
	/** The fields a member may change; default every one of MEMBER_FIELD_CHOICES. */
	memberFields: uniqueList(MEMBER_FIELD_CHOICES, MEMBER_FIELD_CHOICES),
	/** Of those, the ones that go live without review; default the opening hours (members know them best). */
	memberLiveFields: uniqueList(MEMBER_FIELD_CHOICES, ['hours']),
	/** Editors may approve and return members' requests too (else admins only); default false. */
	memberEditorsApprove: z.boolean().default(false),
	/** The most categories a member may choose, 1-50, anything else falls back to 3; default 3. */
	memberMaxCategories: countWithFallback(MEMBER_CATEGORY_COUNT),
	/**
	 * How often members' changes, syncs and imports are published together, one of
	 * PUBLISH_WINDOWS; default '1h' (a member's change is live within the hour, and a busy month
	 * stays within the deploy budget).
	 */
	publishWindow: z
		.enum(PUBLISH_WINDOWS, {
			error: (iss) =>
				`Expected one of ${PUBLISH_WINDOWS.join(', ')}, received ${describeValue(iss.input)}`,
		})
		.default('1h'),
});

/**
 * The display toggles of `features` an editor may change (Content tab): how content shows, not
 * which parts the site offers. The database holds the same list (public.editor_feature_keys) and
 * refuses editors every other change; tests/db/admin-permissions.test.ts keeps the two equal.
 */
export const EDITOR_FEATURE_KEYS = [
	'showBusinessShortDescription',
	'showEventAttendeeCountInHeader',
	'showFeaturedEvent',
	'featuredEventId',
] as const satisfies readonly (keyof z.output<typeof featuresSchema>)[];
