import type { ChamberConfig } from '../config/config.ts';
import type { Business, BusinessAddress } from '../directory/directory.ts';
import { badgeLabel, canLinkWebsite } from '../directory/rules.ts';
import { safeHttpUrl } from '../../lib/url.ts';
import { hasOpeningTimes, openingHoursSpecification } from './hours/opening-hours.ts';

/**
 * Presentation rules of the business card and profile (docs/behaviour.md#business-card):
 * badge, links, maps, metadata. Pure, and with no runtime import of directory.ts or
 * config.ts: the search island ships this module, and those modules build zod schemas at load
 * time that no bundler can drop; the directory rules come from the zod-free rules.ts.
 */

/** What a business card shows; the island receives only these fields, not the whole record. */
export type CardBusiness = Pick<
	Business,
	| 'id'
	| 'slug'
	| 'name'
	| 'description'
	| 'logoUrl'
	| 'website'
	| 'phone'
	| 'address'
	| 'membershipLevel'
	| 'memberSince'
	| 'distance'
>;

/** The configuration a card needs, picked on the server so the browser never gets the config. */
export interface CardSettings {
	memberBadgeDisplay: ChamberConfig['features']['memberBadgeDisplay'];
	/** features.showMembershipLevels: false hides the level badge ('Member Since' still shows). */
	showMembershipLevels: boolean;
	showBusinessShortDescription: boolean;
}

export function toCardBusiness(business: Business): CardBusiness {
	const { id, slug, name, description, logoUrl, website, phone, address } = business;
	const { membershipLevel, memberSince, distance } = business;
	return {
		id,
		slug,
		name,
		description,
		logoUrl,
		website,
		phone,
		address,
		membershipLevel,
		memberSince,
		...(distance !== undefined && { distance }),
	};
}

/** The slug segment of a profile URL; a name with no letter or digit still needs one. */
export function profileSlug(business: Pick<Business, 'slug'>): string {
	return business.slug || 'business';
}

/** /business/{id}/{slug}, carrying the search's category over to the breadcrumb. */
export function profilePath(business: Pick<Business, 'id' | 'slug'>, category?: string): string {
	const path = `/business/${encodeURIComponent(business.id)}/${profileSlug(business)}`;
	return category ? `${path}?category=${encodeURIComponent(category)}` : path;
}

export function searchPath(params: Record<string, string> = {}): string {
	const query = new URLSearchParams(params).toString();
	return query ? `/search?${query}` : '/search';
}

/** tel: link of a phone number as written ('(319) 555-0100 ext. 4' → 'tel:3195550100,4'). */
export function telHref(phone: string): string {
	const [main = '', extension] = phone.split(/\s*(?:ext\.?|x)\s*/i);
	const digits = main.replace(/[^\d+]/g, '');
	const ext = extension?.replace(/\D/g, '');
	return `tel:${digits}${ext ? `,${ext}` : ''}`;
}

/** Only http(s) URLs become links; anything else (javascript:, data:, junk) is dropped. */
export { safeHttpUrl } from '../../lib/url.ts';

export function hasAddress(address: BusinessAddress): boolean {
	return Boolean(address.street.trim() || address.city.trim());
}

/** 'Cedarbrook, IA 52901' with whatever parts exist. */
export function cityStateZip(address: Pick<BusinessAddress, 'city' | 'state' | 'zip'>): string {
	const cityState = [address.city, address.state].filter(Boolean).join(', ');
	return [cityState, address.zip].filter(Boolean).join(' ');
}

/** The card's one-line address: street, city, state zip. */
export function addressLine(address: BusinessAddress): string {
	return [address.street, cityStateZip(address)].filter(Boolean).join(', ');
}

function addressQuery(business: Pick<Business, 'name' | 'address'>): string {
	const { street, street2, city, state, zip } = business.address;
	const parts = [street, street2, city, state, zip].filter(Boolean);
	// Without a street the name finds the place better than a bare town.
	return (street ? parts : [business.name, ...parts]).join(', ');
}

/** Maps links (the maps service is queried by the encoded address). */
export function mapLinks(business: Pick<Business, 'name' | 'address'>) {
	const query = encodeURIComponent(addressQuery(business));
	return {
		embed: `https://maps.google.com/maps?q=${query}&output=embed`,
		directions: `https://www.google.com/maps/dir/?api=1&destination=${query}`,
		view: `https://www.google.com/maps/search/?api=1&query=${query}`,
	};
}

export const SOCIAL_NETWORKS = ['facebook', 'twitter', 'linkedin', 'instagram', 'youtube'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

const NETWORK_LABELS: Record<SocialNetwork, string> = {
	facebook: 'Facebook',
	twitter: 'Twitter',
	linkedin: 'LinkedIn',
	instagram: 'Instagram',
	youtube: 'YouTube',
};

/** The five known networks with a usable URL, in a fixed order; other platforms are ignored. */
export function socialLinks(
	socialMedia: Business['socialMedia'],
): { network: SocialNetwork; label: string; url: string }[] {
	if (socialMedia === 'None') return [];
	return SOCIAL_NETWORKS.flatMap((network) => {
		const url = safeHttpUrl(socialMedia[network]);
		return url ? [{ network, label: NETWORK_LABELS[network], url }] : [];
	});
}

/** Meta description ≤ 160 characters: the short description, or a sentence about the business. */
export function metaDescription(
	business: Pick<Business, 'name' | 'description' | 'categories' | 'address'>,
	chamberName: string,
): string {
	const short = business.description.replace(/\s+/g, ' ').trim();
	const sentence = short
		? short
		: [
				business.name,
				business.categories.length ? ` (${business.categories.slice(0, 3).join(', ')})` : '',
				business.address.city ? ` in ${business.address.city}` : '',
				`, a member of ${chamberName}.`,
			].join('');
	if (sentence.length <= 160) return sentence;
	const cut = sentence.slice(0, 159);
	return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 120)).trimEnd()}…`;
}

/** schema.org LocalBusiness of a profile (structured data in the page head). */
export function localBusinessJsonLd(business: Business, canonicalUrl: string, imageUrl: string) {
	const { street, street2, city, state, zip } = business.address;
	const sameAs = socialLinks(business.socialMedia).map((s) => s.url);
	return {
		'@context': 'https://schema.org',
		'@type': 'LocalBusiness',
		'@id': canonicalUrl,
		name: business.name,
		url: canonicalUrl,
		...(imageUrl && { image: imageUrl }),
		...(business.phone && { telephone: business.phone }),
		...(business.description && { description: business.description }),
		...((street || city) && {
			address: {
				'@type': 'PostalAddress',
				streetAddress: [street, street2].filter(Boolean).join(', '),
				addressLocality: city,
				addressRegion: state,
				postalCode: zip,
				addressCountry: 'US',
			},
		}),
		...(business.latitude !== null &&
			business.longitude !== null && {
				geo: {
					'@type': 'GeoCoordinates',
					latitude: business.latitude,
					longitude: business.longitude,
				},
			}),
		...(sameAs.length > 0 && { sameAs }),
		...(hasOpeningTimes(business.hours ?? null) && {
			openingHoursSpecification: openingHoursSpecification(business.hours ?? null),
		}),
	};
}

/**
 * JSON for a <script type="application/ld+json"> block: '<' is escaped so no text from the
 * database can close the script element.
 */
export function jsonForScript(value: unknown): string {
	return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The badge a card or profile shows: badgeLabel, or none when level badges are switched off. */
export function visibleBadge(
	business: Pick<Business, 'membershipLevel' | 'memberSince'>,
	settings: Pick<CardSettings, 'memberBadgeDisplay' | 'showMembershipLevels'>,
): string {
	const showsYear = settings.memberBadgeDisplay === 'year' && business.memberSince !== '';
	return showsYear || settings.showMembershipLevels
		? badgeLabel(business, settings.memberBadgeDisplay)
		: '';
}

/**
 * The website link of a card or profile: '' when there is none, when it is not http(s), or for
 * the level Business Partner, whose website is never linked (canLinkWebsite).
 */
export function websiteHref(business: Pick<Business, 'website' | 'membershipLevel'>): string {
	return canLinkWebsite(business) ? safeHttpUrl(business.website) : '';
}
