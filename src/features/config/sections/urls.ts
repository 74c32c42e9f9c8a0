import { z } from 'zod';
import { safeUrl } from './fields.ts';

export const urlsSchema = z.object({
	/** The chamber's main website (logo link, fallback link target); default ''. */
	mainWebsite: safeUrl(),
	/** Membership application page (Join Today button); default ''. */
	joinUrl: safeUrl(),
	/** About-the-chamber page; default ''. */
	aboutUrl: safeUrl(),
	/** Staff/team page; default ''. */
	teamUrl: safeUrl(),
	/** President's page; default ''. */
	presidentUrl: safeUrl(),
	/** Board of directors page; default ''. */
	boardUrl: safeUrl(),
	/** External events page on the main website; default ''. */
	eventsUrl: safeUrl(),
	/** Networking page; default ''. */
	networkingUrl: safeUrl(),
	/** News page; default ''. */
	newsUrl: safeUrl(),
	/** Advocacy page; default ''. */
	advocacyUrl: safeUrl(),
	/** Privacy policy page (footer); default ''. */
	privacyUrl: safeUrl(),
	/** Footer resource link: small business resources; default ''. */
	businessResourcesUrl: safeUrl(),
	/** Footer resource link: workforce resources; default ''. */
	workforceUrl: safeUrl(),
	/** Footer resource link: community guide; default ''. */
	communityGuideUrl: safeUrl(),
	/** Community map page; default ''. */
	communityMapUrl: safeUrl(),
	/** Footer resource link: job board; default ''. */
	jobBoardUrl: safeUrl(),
	/** Committees page; default ''. */
	committeesUrl: safeUrl(),
	/** Annual report page; default ''. */
	annualReportUrl: safeUrl(),
	/** Contact page; default ''. */
	contactUrl: safeUrl(),
	/** Base of the external event registration site (also prefixes relative banner images); default ''. */
	eventRegistrationBaseUrl: safeUrl(),
});
