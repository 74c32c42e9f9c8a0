import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { z } from 'zod';
import type { Row } from '../../lib/database.ts';
import { isTimeZone } from '../../lib/time-zone.ts';

// The Events tab and /api/admin/events: the fields of an event the chamber keeps itself, who may
// change which, how a change is validated (field by field, then the event as a whole), the list's
// query and what the API answers. Pure logic: the panel, the functions and the tests share it.
// The database holds the same rules on its own (chamber_events' checks, save_chamber_event).

// --- Fields ------------------------------------------------------------------------------------

/** The fields staff change (chamber_events' columns); public.chamber_event_fields(). */
export const EVENT_FIELDS = [
	'calendar',
	'status',
	'name',
	'summary',
	'description',
	'time_zone',
	'all_day',
	'starts_local',
	'ends_local',
	'rrule',
	'venue',
	'address1',
	'address2',
	'city',
	'state',
	'zip',
	'event_type',
	'event_type_color',
	'featured',
	'image_url',
	'registration_url',
	'registration_disabled',
	'registration_opens',
	'registration_closes',
	'tickets',
	'contact_email',
	'show_attendees',
] as const;
export type EventField = (typeof EVENT_FIELDS)[number];

/** The fields one date of a series changes on its own; public.event_occurrence_fields(). */
export const DATE_FIELDS = [
	'name',
	'summary',
	'description',
	'starts_local',
	'ends_local',
	'venue',
	'address1',
	'address2',
	'city',
	'state',
	'zip',
] as const satisfies readonly EventField[];
export type DateField = (typeof DATE_FIELDS)[number];

export type StaffRole = 'super_admin' | 'admin' | 'editor';

/** Editors change every field but `featured` (the site's front rows, as a business's). */
export function mayChangeEventField(role: StaffRole, field: EventField): boolean {
	return role !== 'editor' || field !== 'featured';
}

/** Deleting an event and managing the calendar feeds are for admins and super_admins. */
export function mayManageEvents(role: StaffRole): boolean {
	return role !== 'editor';
}

export const FIELD_LABELS: Readonly<Record<EventField, string>> = {
	calendar: 'Calendar',
	status: 'Status',
	name: 'Title',
	summary: 'Summary',
	description: 'Description',
	time_zone: 'Time zone',
	all_day: 'All day',
	starts_local: 'Starts',
	ends_local: 'Ends',
	rrule: 'Repeats',
	venue: 'Venue',
	address1: 'Address',
	address2: 'Address line 2',
	city: 'City',
	state: 'State',
	zip: 'ZIP',
	event_type: 'Event type',
	event_type_color: 'Event type colour',
	featured: 'Featured',
	image_url: 'Featured image (address)',
	registration_url: 'Registration link',
	registration_disabled: 'No registration',
	registration_opens: 'Registration opens',
	registration_closes: 'Registration closes',
	tickets: 'Tickets',
	contact_email: 'Questions to (e-mail)',
	show_attendees: 'Show who is attending',
};

// --- Values -------------------------------------------------------------------------------------

export const CALENDARS = ['chamber', 'community'] as const;
export type Calendar = (typeof CALENDARS)[number];
const STATUSES = ['draft', 'published', 'cancelled'] as const;
export type EventStatus = (typeof STATUSES)[number];

export const STATUS_LABELS: Readonly<Record<EventStatus, string>> = {
	draft: 'Draft',
	published: 'Published',
	cancelled: 'Cancelled',
};

export const CALENDAR_LABELS: Readonly<Record<Calendar, string>> = {
	chamber: 'Chamber events',
	community: 'Community events',
};

/** Where an event in the tab comes from. */
export const SOURCES = ['staff', 'feed', 'submission', 'file', 'atlas'] as const;
export type EventSource = (typeof SOURCES)[number];

export const SOURCE_LABELS: Readonly<Record<EventSource, string>> = {
	staff: 'Added here',
	feed: 'Calendar feed',
	submission: 'Community submission',
	file: 'Tenant file',
	atlas: 'Membership system',
};

/** A ticket item in the membership system's shape (chamber_events.tickets, held by event_tickets_problem). */
export interface Ticket {
	ItemName: string;
	/** US dollars; 0 shows as 'Free'. */
	UnitPrice: number;
	/** Private items are never shown on the site. */
	IsPublic: boolean;
	Descr: string;
	/** null: unlimited. */
	MaxQuantity: number | null;
}

/** A row of chamber_events, as the generated schema types it. */
type EventRow = Row<'chamber_events'>;

/**
 * An event's fields as the database keeps them (chamber_event_document): the columns of
 * chamber_events that staff change, their types from the generated schema, narrowed where a
 * check holds more than the type says. Local times are 'yyyy-mm-ddThh:mm' on the event's wall
 * clock (all day: 00:00 of the first day to 23:59 of the last); rrule is an iCalendar RRULE, null
 * for a one-off; description is HTML, sanitised when shown; registration_opens and _closes are
 * 'yyyy-mm-dd' or null.
 */
export type EventValues = Omit<Pick<EventRow, EventField>, 'calendar' | 'status' | 'tickets'> & {
	calendar: Calendar;
	status: EventStatus;
	tickets: Ticket[];
};

export type EventChanges = Partial<EventValues>;

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const HEX = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

const text = (max: number) =>
	z
		.string({ error: 'Expected a text' })
		.trim()
		.max(max, { error: `At most ${max} characters` });
const httpUrlOrBlank = z
	.string()
	.trim()
	.max(2000)
	.refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), {
		error: 'Expected an http(s) address like https://example.org/…',
	});
const localDateTime = z
	.string()
	.trim()
	.regex(LOCAL_DATE_TIME, { error: 'Expected a date and time like 2027-03-02T18:00' })
	// A calendar's check: 2027-02-30 is no day (Date.parse would roll it over to March).
	.refine((v) => isValid(parseISO(v)), { error: 'Not a real date and time' });
const dateOrNull = z
	.string()
	.trim()
	.regex(DATE, { error: 'Expected a date like 2027-03-02' })
	.refine((v) => isValid(parseISO(v)), { error: 'Not a real date' })
	.nullable();

const ticketSchema = z.object({
	ItemName: z.string().trim().min(1, { error: 'A ticket needs a name' }).max(200),
	UnitPrice: z
		.number({ error: 'Expected a price in dollars' })
		.min(0, { error: 'A price is 0 or more' })
		.max(100_000),
	IsPublic: z.boolean(),
	Descr: z.string().trim().max(2000).default(''),
	MaxQuantity: z.number().int().min(0).nullable().default(null),
});

/** Each field's schema, the same bounds as chamber_events' checks. */
export const FIELD_SCHEMAS = {
	calendar: z.enum(CALENDARS, { error: 'Expected chamber or community' }),
	status: z.enum(STATUSES, { error: 'Expected draft, published or cancelled' }),
	name: text(200).min(1, { error: 'An event needs a title' }),
	summary: text(300),
	description: z.string().max(20_000, { error: 'At most 20,000 characters' }),
	time_zone: z.string().trim().refine(isTimeZone, { error: 'Not a time zone' }),
	all_day: z.boolean(),
	starts_local: localDateTime,
	ends_local: localDateTime,
	rrule: z
		.string()
		.trim()
		.max(500)
		.regex(/^(FREQ=(DAILY|WEEKLY|MONTHLY|YEARLY)(;[A-Z]+=[A-Za-z0-9,:+-]+)*)?$/, {
			error: 'Expected an iCalendar repeat rule like FREQ=WEEKLY;BYDAY=TU;COUNT=10',
		})
		.nullable()
		.transform((v) => v || null),
	venue: text(200),
	address1: text(200),
	address2: text(200),
	city: text(200),
	state: text(200),
	zip: text(20),
	event_type: text(60),
	event_type_color: z.string().trim().regex(HEX, { error: 'Expected a hex colour like #0d3e63' }),
	featured: z.boolean(),
	image_url: httpUrlOrBlank,
	registration_url: httpUrlOrBlank,
	registration_disabled: z.boolean(),
	registration_opens: dateOrNull,
	registration_closes: dateOrNull,
	tickets: z.array(ticketSchema).max(50, { error: 'At most 50 tickets' }),
	contact_email: z
		.string()
		.trim()
		.max(254)
		.refine((v) => v === '' || z.email().safeParse(v).success, {
			error: 'Expected an e-mail address',
		}),
	show_attendees: z.boolean(),
} satisfies Record<EventField, z.ZodType>;

export interface FieldIssue {
	/** The field and where inside it: tickets[0].UnitPrice. */
	path: string;
	field: EventField | null;
	message: string;
}

function isField(key: string): key is EventField {
	return (EVENT_FIELDS as readonly string[]).includes(key);
}

export type ParsedChanges =
	{ ok: true; changes: EventChanges } | { ok: false; issues: FieldIssue[] };

/** Validates changed fields, each with its own schema; every problem with its path. */
export function parseEventChanges(input: unknown): ParsedChanges {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return {
			ok: false,
			issues: [{ path: '', field: null, message: 'Expected the changed fields' }],
		};
	}
	const changes: Record<string, unknown> = {};
	const issues: FieldIssue[] = [];
	for (const [key, value] of Object.entries(input)) {
		if (!isField(key)) {
			issues.push({ path: key, field: null, message: 'Not a field of an event' });
			continue;
		}
		const parsed = FIELD_SCHEMAS[key].safeParse(value);
		if (parsed.success) changes[key] = parsed.data;
		else {
			for (const issue of parsed.error.issues) {
				const inner = issue.path
					.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
					.join('');
				issues.push({ path: `${key}${inner}`, field: key, message: issue.message });
			}
		}
	}
	return issues.length ? { ok: false, issues } : { ok: true, changes: changes as EventChanges };
}

/**
 * What must hold between fields of a whole event: it ends after it starts, an all-day event runs
 * from 00:00 to 23:59 of its days, registration closes after it opens.
 */
export function eventIssues(event: EventValues): FieldIssue[] {
	const issues: FieldIssue[] = [];
	if (event.ends_local < event.starts_local) {
		issues.push({ path: 'ends_local', field: 'ends_local', message: 'Ends before it starts' });
	}
	if (
		event.all_day &&
		(!event.starts_local.endsWith('T00:00') || !event.ends_local.endsWith('T23:59'))
	) {
		issues.push({
			path: 'all_day',
			field: 'all_day',
			message: 'An all-day event runs from the start of its first day to the end of its last',
		});
	}
	if (
		event.registration_opens &&
		event.registration_closes &&
		event.registration_closes < event.registration_opens
	) {
		issues.push({
			path: 'registration_closes',
			field: 'registration_closes',
			message: 'Registration closes before it opens',
		});
	}
	return issues;
}

/** The fields of `draft` that differ from `loaded`. */
export function changedFields(loaded: EventValues, draft: EventValues): EventChanges {
	const changes: Record<string, unknown> = {};
	for (const field of EVENT_FIELDS) {
		if (JSON.stringify(loaded[field]) !== JSON.stringify(draft[field])) {
			changes[field] = draft[field];
		}
	}
	return changes as EventChanges;
}

/** 'title: An event needs a title; tickets[0].UnitPrice: A price is 0 or more'. */
export function describeIssues(issues: readonly FieldIssue[]): string {
	return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

/** A new event's values: today's evening in the chamber's zone, a one-off, published. */
export function emptyEvent(timeZone: string, day: string): EventValues {
	return {
		calendar: 'chamber',
		status: 'published',
		name: '',
		summary: '',
		description: '',
		time_zone: timeZone,
		all_day: false,
		starts_local: `${day}T18:00`,
		ends_local: `${day}T20:00`,
		rrule: null,
		venue: '',
		address1: '',
		address2: '',
		city: '',
		state: '',
		zip: '',
		event_type: '',
		event_type_color: '#0d3e63',
		featured: false,
		image_url: '',
		registration_url: '',
		registration_disabled: true,
		registration_opens: null,
		registration_closes: null,
		tickets: [],
		contact_email: '',
		show_attendees: false,
	};
}

// --- The API ------------------------------------------------------------------------------------

export const WHEN = ['upcoming', 'past', 'cancelled', 'draft'] as const;
export type When = (typeof WHEN)[number];

export const WHEN_LABELS: Readonly<Record<When, string>> = {
	upcoming: 'Upcoming',
	past: 'Past',
	cancelled: 'Cancelled',
	draft: 'Drafts',
};

export const PAGE_SIZES = [25, 50, 100] as const;

const blankAsUnset = (value: unknown) =>
	typeof value === 'string' && value.trim() === '' ? undefined : value;

/** GET /api/admin/events's query (and `chamber` on every address of the tab). */
export const eventListQuerySchema = z.object({
	/** Another chamber's slug (super_admins). */
	chamber: z.preprocess(
		blankAsUnset,
		z
			.string()
			.regex(/^[a-z0-9-]{1,80}$/)
			.optional(),
	),
	/** Part of the title, any case. */
	q: z.preprocess(blankAsUnset, z.string().trim().max(200).optional()),
	when: z.preprocess(blankAsUnset, z.enum(WHEN).optional()),
	/** The event type, exactly. */
	type: z.preprocess(blankAsUnset, z.string().trim().max(60).optional()),
	source: z.preprocess(blankAsUnset, z.enum(SOURCES).optional()),
	page: z.coerce.number().int().min(1).max(10_000).default(1),
	pageSize: z.coerce
		.number()
		.int()
		.refine((n) => (PAGE_SIZES as readonly number[]).includes(n), {
			error: 'pageSize: 25, 50 or 100',
		})
		.default(25),
});
export type EventListQuery = z.output<typeof eventListQuerySchema>;

/** One row of the tab's list. */
export interface EventListRow {
	/** A uuid for the chamber's own; 'file:{EventId}' and 'atlas:{EventId}' for the read-only. */
	id: string;
	name: string;
	calendar: Calendar;
	source: EventSource;
	status: EventStatus;
	eventType: string;
	recurring: boolean;
	/** How many dates (a series'). */
	dates: number;
	/** The next date's (else the last's) public EventId and instants. */
	eventId: number | null;
	startUtc: string | null;
	endUtc: string | null;
	feedName: string | null;
	updatedAt: string | null;
	updatedBy: string | null;
	readOnly: boolean;
}

export interface EventListResult {
	events: EventListRow[];
	total: number;
}

/** One date of a series as the tab shows it. */
export interface EventDate {
	key: string;
	eventId: number;
	start: string;
	end: string;
	cancelled: boolean;
	changes: Partial<Record<DateField, string>>;
	changedHere: boolean;
}

/** GET /api/admin/events/{id}. */
export interface EventDetail {
	id: string;
	event: EventValues;
	version: number;
	source: Exclude<EventSource, 'file' | 'atlas'>;
	feed: { id: string; name: string } | null;
	/** A feed's event: the fields changed here, with the feed's own value. */
	overrides: { field: EventField; feedValue: unknown }[];
	createdAt: string;
	createdBy: string;
	updatedAt: string;
	updatedBy: string;
	dates: EventDate[];
}

/** What a write answers. */
export interface Saved {
	id: string;
	version: number;
	/** The date's EventId (a date's change). */
	eventId?: number;
}

/** PATCH /api/admin/events/{id}: the changed fields made from `version`. */
export const eventPatchSchema = z.object({
	version: z.number().int().min(1),
	changes: z.record(z.string(), z.unknown()),
});

/** PATCH /api/admin/events/{id}/dates/{key}: one date's own changes and whether it is cancelled. */
export const datePatchSchema = z.object({
	version: z.number().int().min(1),
	changes: z
		.object({
			name: FIELD_SCHEMAS.name.optional(),
			summary: FIELD_SCHEMAS.summary.optional(),
			description: FIELD_SCHEMAS.description.optional(),
			starts_local: FIELD_SCHEMAS.starts_local.optional(),
			ends_local: FIELD_SCHEMAS.ends_local.optional(),
			venue: FIELD_SCHEMAS.venue.optional(),
			address1: FIELD_SCHEMAS.address1.optional(),
			address2: FIELD_SCHEMAS.address2.optional(),
			city: FIELD_SCHEMAS.city.optional(),
			state: FIELD_SCHEMAS.state.optional(),
			zip: FIELD_SCHEMAS.zip.optional(),
		} satisfies Record<DateField, z.ZodType>)
		.strict()
		.default({}),
	cancelled: z.boolean().default(false),
});

/** A history entry (the audit log), newest first. */
export interface HistoryEntry {
	id: number;
	at: string;
	actor: string;
	field: string;
	oldValue: unknown;
	newValue: unknown;
}

/** Staff's name for who changed something: an e-mail, or where it came from. */
export function actorLabel(actor: string | null | undefined): string {
	if (!actor) return '';
	if (actor === 'feed') return 'Calendar feed';
	if (actor === 'service_role' || actor === 'database') return 'The server';
	return actor;
}
