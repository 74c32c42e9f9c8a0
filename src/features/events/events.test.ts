import { describe, expect, it } from 'vitest';
import {
	attendeeGroups,
	attendingHeaderCount,
	dateRangeLabel,
	defaultRange,
	dropClosed,
	eventPath,
	eventSlug,
	eventsOnDay,
	eventTimeZone,
	extendRange,
	formatPrice,
	isAllDay,
	loadMoreRange,
	mergeEvents,
	priceRange,
	publicEvent,
	publicItems,
	rangeCovers,
	registrationState,
	showAttendees,
	timeLabel,
	withHttp,
	type Event,
} from './events.ts';
import { CHICAGO, sourceEvent } from './test-events.ts';

const event = sourceEvent;

describe('eventSlug and eventPath', () => {
	it('lowercases and turns non-alphanumeric runs into single hyphens, without edge hyphens', () => {
		expect(eventSlug('  Lunch & Learn: Cash-Flow 101!  ')).toBe('lunch-learn-cash-flow-101');
		expect(eventSlug("Pagac's Diner — Ribbon Cutting")).toBe('pagac-s-diner-ribbon-cutting');
		expect(eventSlug('!!!')).toBe('event');
	});

	it('cuts at 60 characters and leaves no hyphen at the cut', () => {
		const long = 'Annual Chamber of Commerce Leadership Awards Banquet and Silent Auction';
		expect(eventSlug(long)).toBe('annual-chamber-of-commerce-leadership-awards-banquet-and-sil');
		expect(eventSlug(long)).toHaveLength(60);
		// Here the 60th character is the hyphen before 'bcd', so the slug ends one earlier.
		expect(eventSlug(`${'a'.repeat(59)} bcd`)).toBe('a'.repeat(59));
		expect(eventSlug('a'.repeat(75))).toBe('a'.repeat(60));
	});

	it('builds /events/{EventId}/{slug}', () => {
		expect(eventPath({ EventId: 41025, EventName: 'Cedar Valley Business Expo' })).toBe(
			'/events/41025/cedar-valley-business-expo',
		);
	});
});

describe('registrationState', () => {
	const base = event({
		EventId: 41025,
		EventName: 'Cedar Valley Business Expo',
		start: '2027-03-15T14:00:00.000Z',
		end: '2027-03-15T22:00:00.000Z',
	});
	const end = new Date(base.EndDateTimeUtc);

	it('is hidden when registration is disabled, even before the event', () => {
		expect(
			registrationState({ ...base, DisableRegistration: true }, new Date(0), 'https://m.example'),
		).toEqual({ state: 'hidden' });
	});

	it('is open up to the very end and passed one millisecond after', () => {
		expect(registrationState(base, end, 'https://members.example.org/')).toEqual({
			state: 'open',
			url: 'https://members.example.org/atlas/events/cedar-valley-business-expo-41025/register',
		});
		expect(
			registrationState(base, new Date(end.getTime() + 1), 'https://members.example.org'),
		).toEqual({ state: 'passed' });
	});

	it('prefers the special registration URL, and hides when there is nowhere to register', () => {
		const special = { ...base, SpecialRegistrationUrl: 'https://gala.example.org/tickets' };
		expect(registrationState(special, end, '')).toEqual({
			state: 'open',
			url: 'https://gala.example.org/tickets',
		});
		expect(registrationState(base, end, '')).toEqual({ state: 'hidden' });
	});
});

describe('prices', () => {
	const item = (UnitPrice: number, IsPublic = true) => ({
		ItemId: UnitPrice,
		ItemName: `Item ${UnitPrice}`,
		Descr: '',
		UnitPrice,
		IsPublic,
		AttendeesForItem: 0,
		Sold: 0,
		MaxQuantity: null,
	});

	it('shows whole US dollars and Free for zero', () => {
		expect(formatPrice(0)).toBe('Free');
		expect(formatPrice(25)).toBe('$25');
		expect(formatPrice(1250)).toBe('$1,250');
		expect(formatPrice(24.6)).toBe('$25');
	});

	it('ranges over public items only', () => {
		expect(priceRange([item(0)])).toBe('Free');
		expect(priceRange([item(25), item(25)])).toBe('$25');
		expect(priceRange([item(100), item(25), item(500, false)])).toBe('$25 – $100');
		expect(priceRange([item(0), item(15)])).toBe('Free – $15');
		expect(priceRange([item(10, false)])).toBeNull();
		expect(publicItems([item(1), item(2, false)]).map((i) => i.UnitPrice)).toEqual([1]);
	});
});

describe('withHttp', () => {
	it('adds http:// only when the scheme is missing', () => {
		expect(withHttp('www.example.com/logo.png')).toBe('http://www.example.com/logo.png');
		expect(withHttp('example.com')).toBe('http://example.com');
		expect(withHttp('https://example.com')).toBe('https://example.com');
		expect(withHttp('HTTP://example.com')).toBe('HTTP://example.com');
		expect(withHttp('//cdn.example.com/a.png')).toBe('http://cdn.example.com/a.png');
		expect(withHttp('  ')).toBe('');
	});
});

describe('attendees', () => {
	const attendee = (id: number, registration: number, org: string, first: string, title = '') => ({
		AttendeeId: id,
		RegistrationId: registration,
		RegistrationOrgName: org,
		OrgName: org,
		ItemsDisplay: '',
		FName: first,
		LName: 'Smith',
		Title: title,
	});
	const attendees = [
		attendee(1, 10, 'Acme', 'Ann', 'CEO'),
		attendee(2, 11, 'Birch Bank', 'Bob'),
		attendee(3, 10, 'Acme', 'Cy', 'Sales'),
	];
	const base = event({ start: '2027-03-15T14:00:00Z', end: '2027-03-15T15:00:00Z' });

	it('groups by registration with names and titles', () => {
		expect(attendeeGroups({ Attendees: attendees })).toEqual([
			{
				registrationId: 10,
				name: 'Acme',
				attendees: [
					{ name: 'Ann Smith', title: 'CEO' },
					{ name: 'Cy Smith', title: 'Sales' },
				],
			},
			{ registrationId: 11, name: 'Birch Bank', attendees: [{ name: 'Bob Smith', title: '' }] },
		]);
	});

	it('shows the list only with attendee detail on and the count at the threshold or above', () => {
		const shown = {
			...base,
			Attendees: attendees,
			AttendingAttendees: 3,
			ShowAttendeeDetail: true,
		};
		expect(showAttendees({ ...shown, AttendeeDetailThreshold: 3 })).toBe(true);
		expect(showAttendees({ ...shown, AttendeeDetailThreshold: 4 })).toBe(false);
		expect(showAttendees({ ...shown, ShowAttendeeDetail: false })).toBe(false);
	});

	it("counts '{N} attending' only when shown, positive, at the threshold and not switched off", () => {
		const on = { features: { showEventAttendeeCountInHeader: true } };
		const off = { features: { showEventAttendeeCountInHeader: false } };
		const e = {
			...base,
			ShowAttendeeDetail: true,
			AttendingAttendees: 12,
			AttendeeDetailThreshold: 10,
		};
		expect(attendingHeaderCount(e, on)).toBe(12);
		expect(attendingHeaderCount({ ...e, AttendeeDetailThreshold: 12 }, on)).toBe(12);
		expect(attendingHeaderCount({ ...e, AttendeeDetailThreshold: 13 }, on)).toBeNull();
		expect(
			attendingHeaderCount({ ...e, AttendingAttendees: 0, AttendeeDetailThreshold: 0 }, on),
		).toBeNull();
		expect(attendingHeaderCount({ ...e, ShowAttendeeDetail: false }, on)).toBeNull();
		expect(attendingHeaderCount(e, off)).toBeNull();
	});
});

describe('date and time labels', () => {
	it('shows one date and the time with the abbreviation of that date', () => {
		// 17 March 2027 is after the March change: CDT.
		const e = event({ start: '2027-03-17T22:30:00Z', end: '2027-03-18T03:00:00Z' });
		expect(dateRangeLabel(e)).toBe('Wednesday, March 17, 2027');
		expect(timeLabel(e)).toBe('5:30 PM – 10:00 PM CDT');
		const winter = event({ start: '2027-01-12T13:30:00Z', end: '2027-01-12T14:30:00Z' });
		expect(timeLabel(winter)).toBe('7:30 AM – 8:30 AM CST');
	});

	it('computes the abbreviation from the zone, not the stale one the source sent', () => {
		const e = event({
			start: '2027-07-01T14:00:00Z',
			end: '2027-07-01T15:00:00Z',
			TimeZone: { Abbreviation: 'CST' },
		});
		expect(eventTimeZone(e)).toBe(CHICAGO);
		expect(timeLabel(e)).toBe('9:00 AM – 10:00 AM CDT');
	});

	it('shows a range when start and end dates differ, also across a month and a year', () => {
		const expo = event({ start: '2026-12-30T15:00:00Z', end: '2027-01-01T22:00:00Z' });
		expect(dateRangeLabel(expo)).toBe('Wednesday, December 30, 2026 – Friday, January 1, 2027');
		const retreat = event({ start: '2027-03-30T13:00:00Z', end: '2027-04-01T21:00:00Z' });
		expect(dateRangeLabel(retreat)).toBe('Tuesday, March 30 – Thursday, April 1, 2027');
		expect(timeLabel(retreat)).toBe('8:00 AM – 4:00 PM CDT');
	});

	it('names both abbreviations when a daylight-saving change falls inside the event', () => {
		// 14 March 2027, 2:00 AM CST becomes 3:00 AM CDT.
		const night = event({ start: '2027-03-14T07:30:00Z', end: '2027-03-14T08:30:00Z' });
		expect(timeLabel(night)).toBe('1:30 AM CST – 3:30 AM CDT');
		// 7 November 2027, 2:00 AM CDT becomes 1:00 AM CST.
		const back = event({ start: '2027-11-06T14:00:00Z', end: '2027-11-08T22:00:00Z' });
		expect(timeLabel(back)).toBe('9:00 AM CDT – 4:00 PM CST');
	});

	it('writes noon and the half hour after midnight on the 12-hour clock', () => {
		// 12:00 noon to 12:30 at night, CST (UTC-6).
		const e = event({ start: '2027-01-12T18:00:00Z', end: '2027-01-13T06:30:00Z' });
		expect(timeLabel(e)).toBe('12:00 PM – 12:30 AM CST');
		expect(dateRangeLabel(e)).toBe('Tuesday, January 12 – Wednesday, January 13, 2027');
		expect(isAllDay(e)).toBe(false);
	});

	it("labels all-day events 'All Day'", () => {
		const e = event({ start: '2027-03-13T06:00:00Z', end: '2027-03-14T05:59:00Z' });
		expect(isAllDay(e)).toBe(true);
		expect(timeLabel(e)).toBe('All Day');
		expect(dateRangeLabel(e)).toBe('Saturday, March 13, 2027');
	});

	it('falls back to the local fields the source sent when no zone is known', () => {
		const e = event({
			start: '2027-03-15T14:00:00Z',
			end: '2027-03-15T15:00:00Z',
			TimeZone: { Abbreviation: 'XYZ' },
		});
		expect(eventTimeZone(e)).toBeNull();
		expect(timeLabel(e)).toBe('9:00 AM – 10:00 AM XYZ');
		expect(dateRangeLabel(e)).toBe('Monday, March 15, 2027');
	});
});

describe('lists', () => {
	const a = event({ EventId: 1, start: '2027-02-01T14:00:00Z', end: '2027-02-01T15:00:00Z' });
	const b = event({ EventId: 2, start: '2027-01-01T14:00:00Z', end: '2027-01-01T15:00:00Z' });
	const c = event({ EventId: 3, start: '2027-01-01T14:00:00Z', end: '2027-01-01T15:00:00Z' });

	it('drops closed events', () => {
		expect(dropClosed([a, { ...b, Closed: true }, c]).map((e) => e.EventId)).toEqual([1, 3]);
	});

	it('merges without duplicate ids, the newer copy winning, sorted by start then id', () => {
		const renamed = { ...a, EventName: 'Renamed' };
		const merged = mergeEvents([a, c], [renamed, b]);
		expect(merged.map((e) => e.EventId)).toEqual([2, 3, 1]);
		expect(merged.find((e) => e.EventId === 1)?.EventName).toBe('Renamed');
	});
});

describe('ranges', () => {
	it('defaults to 3 months back and 6 months ahead', () => {
		expect(defaultRange('2026-11-30')).toEqual({ startDate: '2026-08-30', endDate: '2027-05-30' });
	});

	it('loads three more months on the needed side, adjacent to what is loaded', () => {
		const loaded = { startDate: '2026-08-30', endDate: '2027-05-30' };
		expect(loadMoreRange(loaded, 'before')).toEqual({
			startDate: '2026-05-30',
			endDate: '2026-08-29',
		});
		expect(loadMoreRange(loaded, 'after')).toEqual({
			startDate: '2027-05-31',
			endDate: '2027-08-30',
		});
		// Month ends clamp rather than overflow.
		expect(loadMoreRange({ startDate: '2027-05-31', endDate: '2027-11-30' }, 'after')).toEqual({
			startDate: '2027-12-01',
			endDate: '2028-02-29',
		});
		const grown = extendRange(loaded, loadMoreRange(loaded, 'before'));
		expect(grown).toEqual({ startDate: '2026-05-30', endDate: '2027-05-30' });
		expect(rangeCovers(grown, '2026-06-01', '2026-06-30')).toBe(true);
		expect(rangeCovers(grown, '2027-05-01', '2027-05-31')).toBe(false);
	});
});

describe('eventsOnDay', () => {
	const ids = (events: Event[]) => events.map((e) => e.EventId);

	it('places a multi-day event on each of its days across a month boundary', () => {
		// 30 January 3:00 PM to 1 February 4:00 PM CST.
		const e = event({ EventId: 5, start: '2027-01-30T21:00:00Z', end: '2027-02-01T22:00:00Z' });
		for (const day of ['2027-01-30', '2027-01-31', '2027-02-01']) {
			expect(ids(eventsOnDay([e], day, CHICAGO))).toEqual([5]);
		}
		expect(eventsOnDay([e], '2027-01-29', CHICAGO)).toEqual([]);
		expect(eventsOnDay([e], '2027-02-02', CHICAGO)).toEqual([]);
	});

	it('places an all-day event on its local day only, though it spans two UTC dates', () => {
		const e = event({ EventId: 6, start: '2027-03-13T06:00:00Z', end: '2027-03-14T05:59:00Z' });
		expect(ids(eventsOnDay([e], '2027-03-13', CHICAGO))).toEqual([6]);
		expect(eventsOnDay([e], '2027-03-14', CHICAGO)).toEqual([]);
		// The same instants on a UTC calendar fall on both days.
		expect(ids(eventsOnDay([e], '2027-03-14', 'UTC'))).toEqual([6]);
	});

	it('handles the March change: an all-day event on the 23-hour day', () => {
		// 14 March 2027 runs 00:00 CST (06:00Z) to 23:59 CDT (04:59Z next day).
		const e = event({ EventId: 7, start: '2027-03-14T06:00:00Z', end: '2027-03-15T04:59:00Z' });
		expect(timeLabel(e)).toBe('All Day');
		expect(ids(eventsOnDay([e], '2027-03-14', CHICAGO))).toEqual([7]);
		expect(eventsOnDay([e], '2027-03-13', CHICAGO)).toEqual([]);
		expect(eventsOnDay([e], '2027-03-15', CHICAGO)).toEqual([]);
	});

	it('handles the November change: an evening event and a multi-day event over it', () => {
		// 7 November 2027 has 25 hours; 11:00 PM CST that night is 05:00Z on the 8th.
		const late = event({ EventId: 8, start: '2027-11-08T04:00:00Z', end: '2027-11-08T05:00:00Z' });
		expect(timeLabel(late)).toBe('10:00 PM – 11:00 PM CST');
		expect(ids(eventsOnDay([late], '2027-11-07', CHICAGO))).toEqual([8]);
		expect(eventsOnDay([late], '2027-11-08', CHICAGO)).toEqual([]);
		const show = event({ EventId: 9, start: '2027-11-06T14:00:00Z', end: '2027-11-08T22:00:00Z' });
		for (const day of ['2027-11-06', '2027-11-07', '2027-11-08']) {
			expect(ids(eventsOnDay([show, late], day, CHICAGO))).toContain(9);
		}
	});

	it('does not carry an event that ends exactly at midnight into the next day', () => {
		const e = event({ EventId: 10, start: '2027-01-06T02:00:00Z', end: '2027-01-06T06:00:00Z' });
		expect(ids(eventsOnDay([e], '2027-01-05', CHICAGO))).toEqual([10]);
		expect(eventsOnDay([e], '2027-01-06', CHICAGO)).toEqual([]);
	});

	it('sorts the day by start', () => {
		const late = event({ EventId: 11, start: '2027-01-05T23:00:00Z', end: '2027-01-05T23:30:00Z' });
		const early = event({
			EventId: 12,
			start: '2027-01-05T14:00:00Z',
			end: '2027-01-05T15:00:00Z',
		});
		expect(ids(eventsOnDay([late, early], '2027-01-05', CHICAGO))).toEqual([12, 11]);
	});
});

const sample = sourceEvent({ start: '2030-03-01T15:00:00Z', end: '2030-03-01T17:00:00Z' });

describe('links from the events source (script from outside data)', () => {
	it('never turns a javascript: or data: link into an href', () => {
		for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,<b>x']) {
			expect(withHttp(bad)).toBe('');
			const state = registrationState(
				{ ...sample, SpecialRegistrationUrl: bad, DisableRegistration: false },
				new Date('2000-01-01T00:00:00Z'),
				'',
			);
			expect(state).toEqual({ state: 'hidden' });
		}
	});

	it('falls back to the registration site when the special link is not http(s)', () => {
		const state = registrationState(
			{ ...sample, SpecialRegistrationUrl: 'javascript:alert(1)', DisableRegistration: false },
			new Date('2000-01-01T00:00:00Z'),
			'https://members.example.org',
		);
		expect(state).toMatchObject({ state: 'open' });
		expect(state.state === 'open' && state.url).toMatch(
			/^https:\/\/members\.example\.org\/atlas\//,
		);
	});
});

describe('publicEvent (private data stays private)', () => {
	const attendee = {
		AttendeeId: 1,
		RegistrationId: 9,
		RegistrationOrgName: 'Acme',
		OrgName: 'Acme',
		ItemsDisplay: 'VIP dinner',
		FName: 'Dana',
		LName: 'Lee',
		Title: 'Owner',
	};
	const withAttendees = {
		...sample,
		Attendees: [attendee],
		AttendingAttendees: 1,
		Items: [
			{
				ItemId: 1,
				ItemName: 'Guest',
				Descr: '',
				UnitPrice: 25,
				IsPublic: true,
				AttendeesForItem: 0,
				Sold: 0,
				MaxQuantity: null,
			},
			{
				ItemId: 2,
				ItemName: 'Staff',
				Descr: '',
				UnitPrice: 0,
				IsPublic: false,
				AttendeesForItem: 0,
				Sold: 0,
				MaxQuantity: null,
			},
		],
		SecretField: 'internal',
	} as Event;

	it('keeps attendees only when ShowAttendeeDetail is on and the threshold is met', () => {
		expect(publicEvent({ ...withAttendees, ShowAttendeeDetail: false }).Attendees).toEqual([]);
		expect(
			publicEvent({ ...withAttendees, ShowAttendeeDetail: true, AttendeeDetailThreshold: 2 })
				.Attendees,
		).toEqual([]);
		expect(
			publicEvent({ ...withAttendees, ShowAttendeeDetail: true, AttendeeDetailThreshold: 1 })
				.Attendees,
		).toEqual([{ ...attendee, ItemsDisplay: '' }]);
	});

	it('answers the named fields only, and public ticket items only', () => {
		const answer = publicEvent(withAttendees) as Record<string, unknown>;
		expect(answer).not.toHaveProperty('SecretField');
		expect((answer.Items as { ItemName: string }[]).map((i) => i.ItemName)).toEqual(['Guest']);
	});
});
