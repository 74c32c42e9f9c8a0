import { tz } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { ChamberConfig } from '../config/config.ts';
import { safeHttpUrl } from '../../lib/url.ts';
import {
	eventTimeZone,
	isCancelled,
	publicItems,
	registrationState,
	withHttp,
	type Event,
	type RegistrationState,
} from './events.ts';
import { summaryText, truncate } from './text.ts';

// What the event detail page shows beyond the shared rules: address lines, map links, the
// registration period, the structured data and how long the CDN may keep the page.

/** The address under the venue: street lines, then 'City, ST 12345'. */
export function addressLines(event: Event): string[] {
	const stateZip = [event.State, event.Zip].filter(Boolean).join(' ');
	const cityLine = [event.City, stateZip].filter(Boolean).join(', ');
	return [event.Address1, event.Address2, cityLine].filter(Boolean);
}

/** The one-line address the map and directions are asked for. */
function mapQuery(event: Event): string {
	return [event.Venue, ...addressLines(event)].filter(Boolean).join(', ');
}

/** Embedded map of the address (no API key needed). */
export function mapEmbedUrl(event: Event): string {
	return `https://maps.google.com/maps?q=${encodeURIComponent(mapQuery(event))}&output=embed`;
}

/** 'Get Directions' opens the maps service with the address as the destination. */
export function directionsUrl(event: Event): string {
	return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(mapQuery(event))}`;
}

/**
 * A registration date as the chamber writes it: 'March 15, 2027'. Date-only values are shown as
 * they are; instants are read in the event's time zone.
 */
function registrationDateLabel(value: string, event: Event): string {
	if (/^\d{4}-\d\d-\d\d$/.test(value)) {
		return format(new Date(`${value}T12:00:00Z`), 'MMMM d, yyyy', { in: tz('UTC') });
	}
	const zone = eventTimeZone(event) ?? 'UTC';
	return format(new Date(value), 'MMMM d, yyyy', { in: tz(zone) });
}

/** Registration Information: the period, with 'Open' when it has no end. */
export function registrationPeriod(event: Event): { opens: string | null; closes: string } {
	return {
		opens: event.RegistrationStartDate
			? registrationDateLabel(event.RegistrationStartDate, event)
			: null,
		closes: event.RegistrationEndDate
			? registrationDateLabel(event.RegistrationEndDate, event)
			: 'Open',
	};
}

/**
 * The event's featured image (only the chamber's own events have one), or ''. Shown from its own
 * host as members' and sponsors' logos are: http(s) only, checked here too, not only by the
 * source schema, as it becomes a `src` and the page's link preview.
 */
export function featuredImage(event: Pick<Event, 'ImageUrl'>): string {
	return safeHttpUrl(event.ImageUrl);
}

/**
 * The page's meta description (160 characters): the event's summary, written for lists and search
 * engines, else its description's first sentences, else its name.
 */
export function eventMetaDescription(
	event: Pick<Event, 'Summary' | 'Descr' | 'EventName'>,
): string {
	const summary = event.Summary?.trim();
	return (summary ? truncate(summary, 160) : summaryText(event.Descr, 160)) || event.EventName;
}

/** ISO 8601 with the offset of the event's zone, e.g. 2027-03-15T17:30:00-05:00. */
export function isoWithOffset(instant: string, event: Event): string {
	const zone = eventTimeZone(event);
	if (!zone) return new Date(instant).toISOString().replace('.000Z', 'Z');
	return format(new Date(instant), "yyyy-MM-dd'T'HH:mm:ssXXX", { in: tz(zone) });
}

/** A schema.org Event for search engines (JSON-LD). */
export function eventJsonLd(
	event: Event,
	options: { config: ChamberConfig; pageUrl: string; description: string; now: Date },
): Record<string, unknown> {
	const { config, pageUrl } = options;
	const registration: RegistrationState = registrationState(
		event,
		options.now,
		config.urls.eventRegistrationBaseUrl,
	);
	const offerUrl = registration.state === 'open' ? registration.url : pageUrl;
	// The event's own image where it has one; else the chamber's logo stands for it.
	const image =
		featuredImage(event) ||
		(config.logo.standard ? new URL(config.logo.standard, pageUrl).href : '');
	return {
		'@context': 'https://schema.org',
		'@type': 'Event',
		name: event.EventName,
		description: options.description,
		url: pageUrl,
		startDate: isoWithOffset(event.StartDateTimeUtc, event),
		endDate: isoWithOffset(event.EndDateTimeUtc, event),
		eventStatus: isCancelled(event)
			? 'https://schema.org/EventCancelled'
			: 'https://schema.org/EventScheduled',
		eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
		location: {
			'@type': 'Place',
			name: event.Venue || event.City || config.city,
			address: {
				'@type': 'PostalAddress',
				streetAddress: [event.Address1, event.Address2].filter(Boolean).join(', '),
				addressLocality: event.City,
				addressRegion: event.State,
				postalCode: event.Zip,
				addressCountry: 'US',
			},
		},
		offers: publicItems(event.Items).map((item) => ({
			'@type': 'Offer',
			name: item.ItemName,
			price: item.UnitPrice.toFixed(2),
			priceCurrency: 'USD',
			url: offerUrl,
			availability:
				item.MaxQuantity !== null && item.Sold >= item.MaxQuantity
					? 'https://schema.org/SoldOut'
					: 'https://schema.org/InStock',
			...(event.RegistrationStartDate ? { validFrom: event.RegistrationStartDate } : {}),
		})),
		organizer: {
			'@type': 'Organization',
			name: config.name,
			...(config.urls.mainWebsite ? { url: withHttp(config.urls.mainWebsite) } : {}),
		},
		...(image ? { image: [image] } : {}),
	};
}

const DAY_SECONDS = 86_400;

/**
 * Seconds the CDN may serve the page fresh: a day, but never past the end of the event, whose
 * 'Register Now' then becomes 'Event Has Passed' (at least a minute, so it still caches).
 */
export function detailFreshSeconds(event: Event, now: Date): number {
	const untilEnd = Math.ceil((Date.parse(event.EndDateTimeUtc) - now.getTime()) / 1000);
	if (untilEnd <= 0) return DAY_SECONDS;
	return Math.max(60, Math.min(DAY_SECONDS, untilEnd));
}
