import { eventsPath, resolveUrl } from '../config/config.ts';
import type { ChamberConfig } from '../config/config.ts';

/**
 * What the header and footer show, derived from the configuration (spec 01 §2 Header, Footer).
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

type NavSource = Pick<ChamberConfig, 'navigation' | 'urls' | 'content'>;

/** The header menu: URL keys resolved, the Events link following the default calendar. */
export function navigationEntries(config: NavSource): NavEntry[] {
	const link = (label: string, url: string, isInternal: boolean): SiteLink | null => {
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
		const url = item.url === '/events' ? eventsPath(config.content.defaultEventsCalendar) : item.url;
		const resolved = link(item.label, url, item.isInternal);
		if (resolved) entries.push({ type: 'link', id: item.id, ...resolved });
	}
	return entries;
}

export const SOCIAL_NETWORKS = ['facebook', 'twitter', 'linkedin', 'instagram', 'youtube'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

const NETWORK_NAMES: Readonly<Record<SocialNetwork, string>> = {
	facebook: 'Facebook',
	twitter: 'Twitter',
	linkedin: 'LinkedIn',
	instagram: 'Instagram',
	youtube: 'YouTube',
};

export interface SocialLink extends SiteLink {
	network: SocialNetwork;
}

/** The footer's social icons: only the networks the chamber configured. */
export function socialLinks(config: Pick<ChamberConfig, 'social' | 'urls' | 'name'>): SocialLink[] {
	return SOCIAL_NETWORKS.flatMap((network) => {
		const href = resolveUrl(config.social[network], config.urls);
		const label = `${config.name} on ${NETWORK_NAMES[network]}`;
		return href ? [{ network, href, external: true, label }] : [];
	});
}

/** Footer Quick Links (spec 01 §2 Footer). */
export function quickLinks(config: Pick<ChamberConfig, 'content' | 'urls'>): SiteLink[] {
	const join = resolveUrl(config.urls.joinUrl, config.urls);
	return [
		{ label: 'Directory Home', href: '/', external: false },
		{ label: 'Search Directory', href: '/search', external: false },
		{ label: 'Events', href: eventsPath(config.content.defaultEventsCalendar), external: false },
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

/** 'tel:' target of a phone number as people write it: (319) 555-0100 → tel:3195550100. */
export function telHref(phone: string): string {
	return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/**
 * JSON for a `<script type="application/ld+json">`: `<` is escaped so no text in the data can
 * close the script element.
 */
export function jsonLdText(data: unknown): string {
	return JSON.stringify(data).replace(/</g, '\\u003c');
}
