// The member pages' addresses. Zod-free, so a profile page links to them without loading a schema.

/** Where a profile's 'Update this listing' leads: the sign-in page of that business. */
export function signInPath(businessId: string): string {
	return `/members/sign-in?business=${encodeURIComponent(businessId)}`;
}

/** Where the e-mailed link leads: the editor of that business's listing. */
export function listingPath(businessId: string): string {
	return `/members/listing?business=${encodeURIComponent(businessId)}`;
}

/**
 * The browser's member session (supabase-js's storage key), kept apart from a staff session in
 * the same browser; the community's 'Submit an event' reads it too.
 */
export const MEMBER_SESSION_KEY = 'chamber-member-session';
