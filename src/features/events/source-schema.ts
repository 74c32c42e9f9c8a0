import { z } from 'zod';
import { safeHttpUrl, safeLinkWithHttp } from '../../lib/url.ts';
import { isTimeZone } from '../../lib/time-zone.ts';
import type { Event } from './events.ts';

/** The source's own text when it is an http(s) URL (so rows round-trip unchanged), else ''. */
const safeHttpUrlText = (value: string) => (safeHttpUrl(value) ? value : '');

// Validation of the event rows a source sends (the local table's `data`, Atlas's answers), for
// the functions and the on-demand detail page only. Kept out of events.ts, which the calendar
// islands ship: zod builds its schemas when the module loads, which no bundler can drop, and
// would cost those pages ~24 KB of gzipped script.

// Sources send null for empty fields and may add fields of their own, so a row is read field by
// field: a missing or malformed optional field takes its default instead of rejecting the event.
const textField = z
	.string()
	.nullish()
	.transform((v) => v?.trim() ?? '')
	.catch('');
/**
 * A link from the source: only http(s) survives (a javascript: registration link would run on
 * this origin when clicked). Sponsor links may lack the scheme, so http:// is added first.
 */
const httpUrlField = textField.transform((v) => safeHttpUrlText(v));
const linkField = textField.transform((v) => safeLinkWithHttp(v));
const htmlField = z
	.string()
	.nullish()
	.transform((v) => v ?? '')
	.catch('');
const boolField = (fallback: boolean) =>
	z
		.boolean()
		.nullish()
		.transform((v) => v ?? fallback)
		.catch(fallback);
const countField = (fallback: number) =>
	z.coerce
		.number()
		.int()
		.nonnegative()
		.nullish()
		.transform((v) => v ?? fallback)
		.catch(fallback);
const idField = z.coerce.number().int().positive();
/** Atlas sends instants with or without the Z; StartDateTimeUtc is UTC either way. */
const utcInstant = z
	.string()
	.trim()
	.transform((value, ctx) => {
		const withZone = /(?:Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`;
		const time = Date.parse(withZone);
		if (Number.isNaN(time)) {
			ctx.addIssue({ code: 'custom', message: `Expected an ISO instant, received ${value}` });
			return z.NEVER;
		}
		return new Date(time).toISOString();
	});
/** 'yyyy-MM-dd', also when the source sends a date-time ('2027-03-15T00:00:00'). */
const localDate = z
	.string()
	.nullish()
	.transform((v) => (v && /^\d{4}-\d\d-\d\d/.test(v) ? v.slice(0, 10) : ''))
	.catch('');
const optionalDate = z
	.string()
	.nullish()
	.transform((v) => (v && /^\d{4}-\d\d-\d\d/.test(v) ? v : null))
	.catch(null);
const colour = z
	.string()
	.trim()
	.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/)
	.catch('#0d3e63');

/** Rows of a list: each valid one kept, each bad one dropped (never the whole list). */
function tolerantList<T extends z.ZodType>(row: T) {
	return z
		.array(z.unknown())
		.nullish()
		.catch([])
		.transform((rows) =>
			(rows ?? []).flatMap((r) => {
				const parsed = row.safeParse(r);
				return parsed.success ? [parsed.data as z.output<T>] : [];
			}),
		);
}

const sourceItemSchema = z.looseObject({
	ItemId: z.coerce.number().int().nonnegative(),
	ItemName: textField,
	Descr: htmlField,
	UnitPrice: z.coerce
		.number()
		.nonnegative()
		.nullish()
		.transform((v) => v ?? 0)
		.catch(0),
	IsPublic: boolField(true),
	AttendeesForItem: countField(0),
	Sold: countField(0),
	MaxQuantity: z.coerce
		.number()
		.int()
		.nonnegative()
		.nullish()
		.transform((v) => v ?? null)
		.catch(null),
});

const sourceAttendeeSchema = z.looseObject({
	AttendeeId: z.coerce.number().int().nonnegative(),
	RegistrationId: z.coerce.number().int().nonnegative(),
	RegistrationOrgName: textField,
	OrgName: textField,
	ItemsDisplay: textField,
	FName: textField,
	LName: textField,
	Title: textField,
});

const sourceSponsorSchema = z.looseObject({
	SponserId: z.coerce.number().int().nonnegative(),
	SponsorName: textField,
	SponsorLogoUrl: linkField,
	SponsorWebsite: linkField,
	SponsorMessage: htmlField,
	HideSponsorOrgName: boolField(false),
});

/**
 * One event row from a source (the local table's `data` or an Atlas response). Tolerant: the id,
 * name and the two instants are required, every other field falls back to its default, nested
 * rows that do not validate are dropped one by one, and unknown fields are kept.
 */
const sourceEventSchema = z
	.looseObject({
		EventId: idField,
		EventName: z.string().trim().min(1),
		Descr: htmlField,
		StartDateTimeUtc: utcInstant,
		EndDateTimeUtc: utcInstant,
		StartDate: localDate,
		EndDate: localDate,
		StartTime: textField,
		EndTime: textField,
		TimeZone: z
			.looseObject({
				Abbreviation: textField,
				Name: z.string().trim().refine(isTimeZone).optional().catch(undefined),
			})
			.nullish()
			.transform((v) => v ?? { Abbreviation: '' })
			.catch({ Abbreviation: '' }),
		Venue: textField,
		Address1: textField,
		Address2: textField,
		City: textField,
		State: textField,
		Zip: textField,
		EventType: textField,
		EventTypeColor: colour,
		FeaturedEvent: boolField(false),
		Closed: boolField(false),
		DisableRegistration: boolField(false),
		SpecialRegistrationUrl: httpUrlField,
		RegistrationStartDate: optionalDate,
		RegistrationEndDate: optionalDate,
		SendQuestionsToEmail: textField,
		ShowAttendeeDetail: boolField(false),
		AttendeeDetailThreshold: countField(0),
		AttendingAttendees: z.coerce.number().int().nonnegative().nullish().catch(undefined),
		Attendees: tolerantList(sourceAttendeeSchema),
		Items: tolerantList(sourceItemSchema),
		Sponsors: tolerantList(sourceSponsorSchema),
		// The chamber's own events only (OwnEventFields): absent elsewhere, and left out then.
		Cancelled: z.boolean().optional().catch(undefined),
		Summary: z.string().trim().max(300).optional().catch(undefined),
		ImageUrl: z
			.string()
			.trim()
			.optional()
			.transform((v) => (v ? safeHttpUrlText(v) || undefined : undefined))
			.catch(undefined),
	})
	.refine((e) => Date.parse(e.EndDateTimeUtc) >= Date.parse(e.StartDateTimeUtc), {
		message: 'Ends before it starts',
		path: ['EndDateTimeUtc'],
	})
	.transform((e): Event => ({
		...e,
		AttendingAttendees: e.AttendingAttendees ?? e.Attendees.length,
	}));

/**
 * Validates a source's rows: the valid ones come back, each invalid one is dropped with a warning
 * naming it, so one bad record never hides a whole calendar.
 */
export function parseSourceEvents(rows: readonly unknown[], source: string): Event[] {
	return rows.flatMap((row, index) => {
		const event = parseSourceEvent(row, `${source}[${index}]`);
		return event ? [event] : [];
	});
}

/** One row, or null (with a warning) when it is not a usable event. */
export function parseSourceEvent(row: unknown, source: string): Event | null {
	const parsed = sourceEventSchema.safeParse(row);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	const id =
		row && typeof row === 'object' && 'EventId' in row ? ` (EventId ${String(row.EventId)})` : '';
	console.warn(
		`Dropped an invalid event from ${source}${id}: ${issue?.path.join('.') || 'row'}: ${issue?.message}`,
	);
	return null;
}
