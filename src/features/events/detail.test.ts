import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { localDateTime } from '../tenants/tenant-file.ts';
import {
	addressLines,
	detailFreshSeconds,
	directionsUrl,
	eventJsonLd,
	eventMetaDescription,
	featuredImage,
	isoWithOffset,
	mapEmbedUrl,
	registrationPeriod,
} from './detail.ts';
import type { Event } from './events.ts';
import { parseSourceEvents } from './source-schema.ts';

const CHICAGO = 'America/Chicago';

function event(extra: object = {}): Event {
	const start = '2027-01-23T23:30:00.000Z';
	const end = '2027-01-24T04:00:00.000Z';
	const [parsed] = parseSourceEvents(
		[
			{
				EventId: 41036,
				EventName: 'Annual Gala & Awards Night',
				StartDateTimeUtc: start,
				EndDateTimeUtc: end,
				StartDate: localDateTime(start, CHICAGO).date,
				EndDate: localDateTime(end, CHICAGO).date,
				StartTime: '5:30 PM',
				EndTime: '10:00 PM',
				TimeZone: { Abbreviation: 'CST', Name: CHICAGO },
				Venue: 'Grand Prairie Hotel Ballroom',
				Address1: '1200 Lincoln Way',
				Address2: 'Suite 5',
				City: 'Cedarbrook',
				State: 'IA',
				Zip: '52902',
				RegistrationStartDate: '2026-12-24',
				RegistrationEndDate: null,
				Items: [
					{ ItemId: 1, ItemName: 'Individual Ticket', UnitPrice: 125, Sold: 300, MaxQuantity: 300 },
					{ ItemId: 2, ItemName: 'Table of Eight', UnitPrice: 900, Sold: 2, MaxQuantity: 30 },
					{ ItemId: 3, ItemName: 'Sponsor Table', UnitPrice: 0, IsPublic: false },
				],
				...extra,
			},
		],
		'test',
	);
	return parsed!;
}

const config = parseConfig(
	{
		name: 'Cedar Valley Chamber of Commerce',
		slug: 'demo',
		urls: {
			mainWebsite: 'www.cedarvalleychamber.example',
			eventRegistrationBaseUrl: 'https://members.cedarvalleychamber.example',
		},
		logo: { standard: '/demo/logos/chamber.svg' },
	},
	'test',
);

describe('location', () => {
	it('lists the street lines and the city line, and asks maps for the whole address', () => {
		const e = event();
		expect(addressLines(e)).toEqual(['1200 Lincoln Way', 'Suite 5', 'Cedarbrook, IA 52902']);
		expect(mapEmbedUrl(e)).toBe(
			'https://maps.google.com/maps?q=Grand%20Prairie%20Hotel%20Ballroom%2C%201200%20Lincoln%20Way%2C%20Suite%205%2C%20Cedarbrook%2C%20IA%2052902&output=embed',
		);
		expect(directionsUrl(e)).toContain('destination=Grand%20Prairie%20Hotel%20Ballroom%2C');
		expect(addressLines(event({ Address2: '', State: '', Zip: '' }))).toEqual([
			'1200 Lincoln Way',
			'Cedarbrook',
		]);
	});
});

describe('registrationPeriod', () => {
	it("shows the period, with 'Open' when it has no end", () => {
		expect(registrationPeriod(event())).toEqual({ opens: 'December 24, 2026', closes: 'Open' });
		// An instant is read in the event's zone: 03:00Z on the 23rd is still the 22nd in Cedarbrook.
		expect(
			registrationPeriod(
				event({ RegistrationStartDate: null, RegistrationEndDate: '2027-01-23T03:00:00Z' }),
			),
		).toEqual({ opens: null, closes: 'January 22, 2027' });
	});
});

describe('structured data', () => {
	const now = new Date('2027-01-01T00:00:00Z');
	const pageUrl = 'https://events.example.org/events/41036/annual-gala-awards-night';

	it('gives start and end with the offset of the event zone', () => {
		expect(isoWithOffset('2027-01-23T23:30:00.000Z', event())).toBe('2027-01-23T17:30:00-06:00');
		expect(isoWithOffset('2027-07-01T15:00:00.000Z', event())).toBe('2027-07-01T10:00:00-05:00');
		expect(
			isoWithOffset('2027-07-01T15:00:00.000Z', event({ TimeZone: { Abbreviation: '' } })),
		).toBe('2027-07-01T15:00:00Z');
	});

	it('describes a schema.org Event: place, public offers, the chamber as organizer', () => {
		const data = eventJsonLd(event(), { config, pageUrl, description: 'Dinner and awards.', now });
		expect(data).toEqual({
			'@context': 'https://schema.org',
			'@type': 'Event',
			name: 'Annual Gala & Awards Night',
			description: 'Dinner and awards.',
			url: pageUrl,
			startDate: '2027-01-23T17:30:00-06:00',
			endDate: '2027-01-23T22:00:00-06:00',
			eventStatus: 'https://schema.org/EventScheduled',
			eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
			location: {
				'@type': 'Place',
				name: 'Grand Prairie Hotel Ballroom',
				address: {
					'@type': 'PostalAddress',
					streetAddress: '1200 Lincoln Way, Suite 5',
					addressLocality: 'Cedarbrook',
					addressRegion: 'IA',
					postalCode: '52902',
					addressCountry: 'US',
				},
			},
			offers: [
				{
					'@type': 'Offer',
					name: 'Individual Ticket',
					price: '125.00',
					priceCurrency: 'USD',
					url: 'https://members.cedarvalleychamber.example/atlas/events/annual-gala-awards-night-41036/register',
					availability: 'https://schema.org/SoldOut',
					validFrom: '2026-12-24',
				},
				expect.objectContaining({
					name: 'Table of Eight',
					price: '900.00',
					availability: 'https://schema.org/InStock',
				}),
			],
			organizer: {
				'@type': 'Organization',
				name: 'Cedar Valley Chamber of Commerce',
				url: 'http://www.cedarvalleychamber.example',
			},
			image: ['https://events.example.org/demo/logos/chamber.svg'],
		});
	});

	it('shows an own event’s image in place of the chamber’s logo, and says when it is cancelled', () => {
		const data = eventJsonLd(
			event({ ImageUrl: 'https://images.example.org/gala.jpg', Cancelled: true }),
			{ config, pageUrl, description: '', now },
		);
		expect(data.image).toEqual(['https://images.example.org/gala.jpg']);
		expect(data.eventStatus).toBe('https://schema.org/EventCancelled');
		// An address that is not http(s) is no image: the logo stays.
		const unsafe = { ...event(), ImageUrl: 'javascript:alert(1)' };
		expect(featuredImage(unsafe)).toBe('');
		expect(eventJsonLd(unsafe, { config, pageUrl, description: '', now }).image).toEqual([
			'https://events.example.org/demo/logos/chamber.svg',
		]);
	});

	it('offers the page itself once registration is hidden', () => {
		const data = eventJsonLd(event({ DisableRegistration: true }), {
			config,
			pageUrl,
			description: '',
			now,
		});
		expect((data.offers as { url: string }[])[0]?.url).toBe(pageUrl);
	});
});

describe('eventMetaDescription', () => {
	it('is the summary where the event has one, else the description’s sentences, else its name', () => {
		const descr = '<h2>An Evening</h2><p>Dinner and awards.</p>';
		expect(
			eventMetaDescription(
				event({ Summary: 'Dinner, dancing and the year’s awards', Descr: descr }),
			),
		).toBe('Dinner, dancing and the year’s awards');
		expect(eventMetaDescription(event({ Descr: descr }))).toBe('An Evening. Dinner and awards.');
		expect(eventMetaDescription(event({ Summary: '   ', Descr: '' }))).toBe(
			'Annual Gala & Awards Night',
		);
		const long = eventMetaDescription(event({ Summary: 'word '.repeat(60).trim() }));
		expect([...long]).toHaveLength(160);
		expect(long.endsWith('…')).toBe(true);
	});
});

describe('detailFreshSeconds', () => {
	const e = event();
	const end = Date.parse(e.EndDateTimeUtc);

	it('keeps a page a day, but never past the end of the event', () => {
		expect(detailFreshSeconds(e, new Date(end - 3 * 86_400_000))).toBe(86_400);
		expect(detailFreshSeconds(e, new Date(end - 3_600_000))).toBe(3_600);
		expect(detailFreshSeconds(e, new Date(end - 5_000))).toBe(60);
		expect(detailFreshSeconds(e, new Date(end + 1))).toBe(86_400);
	});
});
