import { calendarOn, EVENTS_CALENDARS, eventsLanding, resolveUrl } from '../config/config.ts';
import type { ChamberConfig } from '../config/config.ts';
import { socialLinks, type CardSettings, type SocialNetwork } from '../business/business.ts';

/**
 * What the header and footer show, derived from the configuration
 * (docs/behaviour.md#header-and-footer).
 * Pure: the Astro components only render these lists. A link whose target does not resolve
 * (an unconfigured URL key, an unsafe scheme) is left out rather than rendered as a dead link.
 */

export interface SiteLink {
	label: string;
	href: string;
	/** Opens in a new tab (external links, the join page). */
	external: boolean;
}

export type NavEntry =
	| ({ type: 'link'; id: string } & SiteLink)
	| { type: 'dropdown'; id: string; label: string; items: SiteLink[] };

type NavSource = Pick<ChamberConfig, 'navigation' | 'urls' | 'content' | 'features'>;

/**
 * The calendar a same-site link opens, when it opens one (`/events`, `/events-list/?x` …). The
 * default menu's `/events` is not here: it follows the default calendar.
 */
function calendarOf(url: string) {
	const path = /^\/([\w-]+)\/?(?:[?#].*)?$/.exec(url)?.[1];
	return EVENTS_CALENDARS.find((calendar) => calendar === path);
}

/**
 * The header menu: URL keys resolved, the Events link following the default calendar, links to
 * a calendar whose area is switched off left out (features.showEvents, showCommunityEvents).
 */
export function navigationEntries(config: NavSource): NavEntry[] {
	const link = (label: string, url: string, isInternal: boolean): SiteLink | null => {
		const calendar = calendarOf(url);
		if (calendar && !calendarOn(calendar, config.features)) return null;
		const href = resolveUrl(url, config.urls);
		return href ? { label, href, external: !isInternal } : null;
	};
	const entries: NavEntry[] = [];
	for (const item of config.navigation.menuItems) {
		if (item.type === 'dropdown') {
			const items = (item.items ?? [])
				.map((sub) => link(sub.label, sub.url, sub.isInternal))
				.filter((sub) => sub !== null);
			if (items.length > 0) {
				entries.push({ type: 'dropdown', id: item.id, label: item.label, items });
			}
			continue;
		}
		// The default menu's Events item says /events; the chamber's default calendar decides.
		const url = item.url === '/events' ? eventsLanding(config) : item.url;
		if (url === null) continue;
		const resolved = link(item.label, url, item.isInternal);
		if (resolved) entries.push({ type: 'link', id: item.id, ...resolved });
	}
	return entries;
}

export interface SocialLink extends SiteLink {
	network: SocialNetwork;
}

/** The footer's social icons: only the networks the chamber configured. */
export function chamberSocialLinks(config: Pick<ChamberConfig, 'social' | 'name'>): SocialLink[] {
	return socialLinks(config.social).map(({ network, label, url }) => ({
		network,
		href: url,
		external: true,
		label: `${config.name} on ${label}`,
	}));
}

/** Footer Quick Links; no Events link when both events areas are off. */
export function quickLinks(
	config: Pick<ChamberConfig, 'content' | 'urls' | 'features'>,
): SiteLink[] {
	const join = resolveUrl(config.urls.joinUrl, config.urls);
	const events = eventsLanding(config);
	return [
		{ label: 'Directory Home', href: '/', external: false },
		{ label: 'Search Directory', href: '/search', external: false },
		...(events ? [{ label: 'Events', href: events, external: false }] : []),
		...(join ? [{ label: 'Join the Chamber', href: join, external: true }] : []),
	];
}

/** Footer Resources: the four configured external links with their configured labels. */
export function resourceLinks(config: Pick<ChamberConfig, 'footerLabels' | 'urls'>): SiteLink[] {
	const { footerLabels: labels, urls } = config;
	return [
		{ label: labels.businessResourcesLabel, url: urls.businessResourcesUrl },
		{ label: labels.workforceLabel, url: urls.workforceUrl },
		{ label: labels.communityGuideLabel, url: urls.communityGuideUrl },
		{ label: labels.jobBoardLabel, url: urls.jobBoardUrl },
	].flatMap(({ label, url }) => {
		const href = resolveUrl(url, urls);
		return href ? [{ label, href, external: true }] : [];
	});
}

/** The configuration a business card needs (home, category pages, search, profiles). */
export function cardSettings(config: Pick<ChamberConfig, 'features'>): CardSettings {
	return {
		memberBadgeDisplay: config.features.memberBadgeDisplay,
		showMembershipLevels: config.features.showMembershipLevels,
		showBusinessShortDescription: config.features.showBusinessShortDescription,
	};
}
