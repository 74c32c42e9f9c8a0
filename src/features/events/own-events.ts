import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { Row } from '../../lib/database.ts';
import { localDateTime } from '../tenants/tenant-file.ts';
import type { Event } from './events.ts';
import { parseSourceEvent } from './source-schema.ts';

// The chamber's own events (kept in the Events tab, read from its calendar feeds, approved from
// the community's submissions) in the membership system's shape, so the calendars, the detail
// page and the calendar files read them as they read every other event. Server only.

/**
 * Public EventIds of the chamber's own events start here (the database's chamber_event_ids);
 * the membership system's and the tenant file's are smaller, so an id says which source has it.
 */
const OWN_EVENT_ID_MIN = 900_000_000;

export function isOwnEventId(id: number): boolean {
	return id >= OWN_EVENT_ID_MIN;
}

/** The columns of chamber_events a visitor's row carries (chamber_event_public_row). */
type PublicEventColumn =
	| 'name'
	| 'summary'
	| 'description'
	| 'time_zone'
	| 'all_day'
	| 'venue'
	| 'address1'
	| 'address2'
	| 'city'
	| 'state'
	| 'zip'
	| 'event_type'
	| 'event_type_color'
	| 'featured'
	| 'image_url'
	| 'registration_url'
	| 'registration_disabled'
	| 'registration_opens'
	| 'registration_closes'
	| 'contact_email'
	| 'show_attendees';

/**
 * One date of an own event as public_chamber_events answers it: the occurrence's columns and the
 * series' (typed by the generated schema), narrowed where a check holds more than the type says.
 */
export type OwnEventRow = Pick<
	Row<'chamber_event_occurrences'>,
	'event_id' | 'cancelled' | 'start_utc' | 'end_utc'
> &
	Pick<Row<'chamber_events'>, PublicEventColumn> & {
		calendar: 'chamber' | 'community';
		origin: 'staff' | 'feed' | 'submission';
		tickets: {
			ItemId?: number;
			ItemName: string;
			UnitPrice: number;
			IsPublic: boolean;
			Descr?: string;
			MaxQuantity?: number | null;
		}[];
	};

/** The zone's abbreviation at an instant ('CST', 'CDT'), as the membership system sends it. */
function abbreviation(instant: string, zone: string): string {
	return format(new TZDate(Date.parse(instant), zone), 'zzz');
}

/**
 * An own event's date in the Atlas shape, plus what only own events say: Cancelled (the event
 * or this date is cancelled: still listed, its page says so), Summary and ImageUrl. Null (with
 * a warning) when the row would not be a valid event.
 */
export function ownEventToSource(row: OwnEventRow): Event | null {
	const start = localDateTime(row.start_utc, row.time_zone);
	const end = localDateTime(row.end_utc, row.time_zone);
	return parseSourceEvent(
		{
			EventId: row.event_id,
			EventName: row.name,
			Descr: row.description,
			StartDateTimeUtc: new Date(row.start_utc).toISOString(),
			EndDateTimeUtc: new Date(row.end_utc).toISOString(),
			StartDate: start.date,
			EndDate: end.date,
			StartTime: start.time,
			EndTime: end.time,
			TimeZone: { Abbreviation: abbreviation(row.start_utc, row.time_zone), Name: row.time_zone },
			Venue: row.venue,
			Address1: row.address1,
			Address2: row.address2,
			City: row.city,
			State: row.state,
			Zip: row.zip,
			EventType: row.event_type,
			EventTypeColor: row.event_type_color,
			FeaturedEvent: row.featured,
			Closed: false,
			Cancelled: row.cancelled,
			DisableRegistration: row.registration_disabled,
			SpecialRegistrationUrl: row.registration_url,
			RegistrationStartDate: row.registration_opens,
			RegistrationEndDate: row.registration_closes,
			SendQuestionsToEmail: row.contact_email,
			ShowAttendeeDetail: row.show_attendees,
			AttendeeDetailThreshold: 0,
			AttendingAttendees: 0,
			Attendees: [],
			Items: row.tickets.map((item, index) => ({
				ItemId: item.ItemId ?? index + 1,
				ItemName: item.ItemName,
				Descr: item.Descr ?? '',
				UnitPrice: item.UnitPrice,
				IsPublic: item.IsPublic,
				AttendeesForItem: 0,
				Sold: 0,
				MaxQuantity: item.MaxQuantity ?? null,
			})),
			Sponsors: [],
			Summary: row.summary,
			ImageUrl: row.image_url,
		},
		`the chamber's own events (EventId ${row.event_id})`,
	);
}
