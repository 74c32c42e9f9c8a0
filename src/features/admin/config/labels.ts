import type {
	ChamberConfig,
	Colors,
	Content,
	Contact,
	Features,
	Fonts,
	FooterLabels,
	Social,
	TextColors,
	UrlKey,
	Urls,
} from '../../config/config.ts';
import { URL_KEYS } from '../../config/config.ts';

// The names of configuration fields, in the words a chamber's staff use: the panel's, and the
// generator's (fieldLabel), so a field is called the same in both.

export const IDENTITY_LABELS: Record<
	keyof Pick<ChamberConfig, 'name' | 'slug' | 'city' | 'state' | 'foundedYear'>,
	string
> = {
	name: 'Chamber name',
	slug: 'Slug',
	city: 'City',
	state: 'State',
	foundedYear: 'Founded year',
};

export const COLOR_LABELS: Record<keyof Colors, string> = {
	primary: 'Primary',
	primaryLight: 'Primary light',
	primaryDark: 'Primary dark',
	secondary: 'Secondary',
	secondaryLight: 'Secondary light',
	secondaryDark: 'Secondary dark',
};

export const FONT_LABELS: Record<keyof Fonts, string> = {
	heading: 'Heading font',
	body: 'Body font',
};

export const CONTACT_LABELS: Record<keyof Contact, string> = {
	address: 'Address',
	addressLine2: 'Address line 2',
	city: 'City',
	state: 'State',
	zip: 'ZIP code',
	country: 'Country',
	phone: 'Phone',
	timeZone: 'Time zone',
	email: 'Email',
};

export const SOCIAL_LABELS: Record<keyof Social, string> = {
	facebook: 'Facebook',
	twitter: 'Twitter / X',
	linkedin: 'LinkedIn',
	instagram: 'Instagram',
	youtube: 'YouTube',
};

/** The URL library: core links first, then the footer resources, then the rest. */
export const URL_LABELS: Record<keyof Urls, string> = {
	mainWebsite: 'Main website',
	joinUrl: 'Join / membership application',
	eventRegistrationBaseUrl: 'Event registration site',
	contactUrl: 'Contact page',
	privacyUrl: 'Privacy policy',
	businessResourcesUrl: 'Small business resources',
	workforceUrl: 'Workforce resources',
	communityGuideUrl: 'Community guide',
	jobBoardUrl: 'Job board',
	aboutUrl: 'About the chamber',
	teamUrl: 'Our team',
	presidentUrl: "President's page",
	boardUrl: 'Board of directors',
	eventsUrl: 'Events on the main website',
	networkingUrl: 'Networking',
	newsUrl: 'News',
	advocacyUrl: 'Advocacy',
	communityMapUrl: 'Community map',
	committeesUrl: 'Committees',
	annualReportUrl: 'Annual report',
};

export const CORE_URLS = [
	'mainWebsite',
	'joinUrl',
	'eventRegistrationBaseUrl',
	'contactUrl',
] as const;
export const FOOTER_RESOURCES = [
	['businessResourcesUrl', 'businessResourcesLabel'],
	['workforceUrl', 'workforceLabel'],
	['communityGuideUrl', 'communityGuideLabel'],
	['jobBoardUrl', 'jobBoardLabel'],
] as const satisfies readonly (readonly [keyof Urls, keyof FooterLabels])[];
export const OTHER_FOOTER_URLS = ['privacyUrl'] as const;
/** Every other URL, in the order of URL_KEYS, so a new URL key cannot be left out of the tab. */
export const LIBRARY_URLS: readonly UrlKey[] = URL_KEYS.filter(
	(key) =>
		!([...CORE_URLS, ...OTHER_FOOTER_URLS] as readonly UrlKey[]).includes(key) &&
		!FOOTER_RESOURCES.some(([url]) => url === key),
);

export const TEXT_COLOR_LABELS: Record<keyof TextColors, string> = {
	heading: 'Heading',
	body: 'Body',
	link: 'Link',
	linkHover: 'Link hover',
	onDarkHeading: 'Heading on dark',
	onDarkBody: 'Body on dark',
};

export const CONTENT_LABELS: Record<keyof Content, string> = {
	heroTitle: 'Hero title',
	heroSubtitle: 'Hero subtitle',
	directoryTitle: 'Directory title',
	featuredTitle: 'Featured businesses title',
	categoriesTitle: 'Categories title',
	whyJoinTitle: 'Why join title',
	whyJoinText: 'Why join text',
	whyJoinButtonText: 'Why join button text',
	footerTagline: 'Footer tagline',
	copyrightText: 'Copyright text',
	sidebarTitle: 'Business page sidebar title',
	sidebarTagline: 'Business page sidebar tagline',
	sidebarButtonText: 'Business page sidebar button text',
	eventsTabLabel: 'Events tab label',
	communityEventsTabLabel: 'Community events tab label',
	defaultEventsCalendar: 'Default events calendar',
	metaDescription: 'Meta description',
	metaKeywords: 'Meta keywords',
};

export const FEATURE_LABELS: Record<keyof Features, string> = {
	showEvents: 'Show chamber events',
	showCommunityEvents: 'Show community events',
	showNewMembersFilter: "Offer the 'New Members Only' filter",
	showMembershipLevels: 'Show membership level badges',
	showBanners: 'Show the home page banners',
	showEventFilters: 'Show the event type filters',
	showFeaturedEvent: 'Show the featured event',
	featuredEventId: 'Featured event ID',
	showBusinessShortDescription: 'Show short descriptions on business cards',
	showEventAttendeeCountInHeader: 'Show the attendee count on event pages',
	memberBadgeDisplay: 'Member badge shows',
	businessDetailLayout: 'Business page layout',
	showMap: 'Offer the List | Map switch on the search page',
	showNearMe: 'Offer Near me on the search page (search by distance from the visitor)',
	showMainContact: "Show the business's main contact",
	memberUpdates: "Let members update their own listing ('Update this listing' on profiles)",
	memberFields: 'Fields members may change',
	memberLiveFields: 'Fields that go live without review',
	memberEditorsApprove: "Editors may approve members' requests",
	memberMaxCategories: 'Most categories a member may choose',
	publishWindow: "Members' changes, syncs and imports go live",
};

const SECTION_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
	colors: COLOR_LABELS,
	fonts: FONT_LABELS,
	textColors: TEXT_COLOR_LABELS,
	contact: CONTACT_LABELS,
	social: SOCIAL_LABELS,
	urls: URL_LABELS,
	content: CONTENT_LABELS,
	features: FEATURE_LABELS,
};

/** The label of a configuration field by its path ('name', 'content.heroTitle'). */
export function fieldLabel(path: string): string {
	const [section, field] = path.split('.');
	const label = field
		? SECTION_LABELS[section!]?.[field]
		: (IDENTITY_LABELS as Record<string, string>)[section!];
	if (!label) throw new Error(`No label for the configuration field ${path}`);
	return label;
}

/** The tab a section's fields are on, for messages that name a field out of its tab. */
const SECTION_TITLES: Readonly<Record<string, string>> = {
	colors: 'Colours',
	fonts: 'Fonts',
	textColors: 'Text colours',
	contact: 'Contact',
	social: 'Social',
	urls: 'URLs',
	content: 'Content',
	features: 'Display',
};

/**
 * A configuration field as people read it out of its tab ('Content: Hero title'), for messages
 * such as the conflict dialog; the path itself ('navigation') where no label exists.
 */
export function fieldTitle(path: string): string {
	const [section, field] = path.split('.', 2) as [string, string | undefined];
	if (field === undefined) return (IDENTITY_LABELS as Record<string, string>)[section] ?? path;
	const label = SECTION_LABELS[section]?.[field];
	return label ? `${SECTION_TITLES[section] ?? section}: ${label}` : path;
}
