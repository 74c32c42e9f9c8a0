import { tz } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { ChamberConfig } from '../config/config.ts';
import {
	eventTimeZone,
	publicItems,
	registrationState,
	withHttp,
	type Event,
	type RegistrationState,
} from './events.ts';

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
	const logo = config.logo.standard ? new URL(config.logo.standard, pageUrl).href : undefined;
	return {
		'@context': 'https://schema.org',
		'@type': 'Event',
		name: event.EventName,
		description: options.description,
		url: pageUrl,
		startDate: isoWithOffset(event.StartDateTimeUtc, event),
		endDate: isoWithOffset(event.EndDateTimeUtc, event),
		eventStatus: 'https://schema.org/EventScheduled',
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
		...(logo ? { image: [logo] } : {}),
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
