import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { z } from 'zod';
import type { Row } from '../../lib/database.ts';
import { eventPath } from '../events/paths.ts';
import { FIELD_SCHEMAS, type EventField } from './chamber-events.ts';
import { SUBMISSION_LIMITS as L } from './submission-limits.ts';

// The community's 'Submit an event' (/community-events) and its review in the Events tab: what a
// visitor sends (validated by the function; the database holds the same bounds in
// event_submission_problem), what the queue lists, what staff send to approve or decline, and the
// e-mails that tell the submitter. Pure: the function, the panel and the tests share it.

/** The fields of a submitted event, named as chamber_events' columns. */
/** Each is one of EventFields: the type names the fields, and the compiler checks them. */
type OfEventField<T extends EventField> = T;
export type SubmittedField = OfEventField<
	| 'name'
	| 'description'
	| 'all_day'
	| 'starts_local'
	| 'ends_local'
	| 'venue'
	| 'address1'
	| 'city'
	| 'state'
	| 'zip'
	| 'registration_url'
	| 'contact_email'
>;

const text = (max: number, label: string) =>
	z
		.string({ error: `${label}: expected a text` })
		.trim()
		.max(max, { error: `${label}: at most ${max} characters` });

const localDateTime = (label: string) =>
	z
		.string({ error: `${label} is required` })
		.trim()
		.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { error: `${label}: expected a date and time` })
		.refine((v) => isValid(parseISO(v)), { error: `${label}: not a real date and time` });

/** The event as the visitor submits it (description as plain text). */
const submittedEventSchema = z
	.object({
		/** The event's title. */
		name: text(L.name, 'Title').min(1, { error: 'Title is required' }),
		/** Plain text; kept as HTML (escaped, its paragraphs kept) when approved. */
		description: text(L.description, 'Description').default(''),
		/** A whole day (or days): starts at 00:00 of the first, ends 23:59 of the last. */
		all_day: z.boolean().default(false),
		/** On the chamber's wall clock, 'yyyy-mm-ddThh:mm'. */
		starts_local: localDateTime('Start'),
		ends_local: localDateTime('End'),
		venue: text(L.venue, 'Venue').default(''),
		address1: text(L.address1, 'Address').default(''),
		city: text(L.city, 'City').default(''),
		state: text(L.state, 'State').default(''),
		zip: text(L.zip, 'ZIP').default(''),
		/** Where to register or read more: shown on the event's page. */
		registration_url: FIELD_SCHEMAS.registration_url.default(''),
		/** Where visitors send questions: shown on the event's page. */
		contact_email: FIELD_SCHEMAS.contact_email.default(''),
	})
	.strict()
	.transform((event, ctx) => {
		const whole = event.all_day
			? {
					...event,
					starts_local: `${event.starts_local.slice(0, 10)}T00:00`,
					ends_local: `${event.ends_local.slice(0, 10)}T23:59`,
				}
			: event;
		if (whole.ends_local < whole.starts_local) {
			ctx.addIssue({ code: 'custom', path: ['ends_local'], message: 'End: before the start' });
			return z.NEVER;
		}
		return whole;
	});
type SubmittedEvent = z.output<typeof submittedEventSchema>;

/** POST /api/event-submissions. */
export const submissionBodySchema = z.object({
	/** Who submits: for the chamber's reply only, never shown. */
	submitterName: text(L.submitterName, 'Your name').min(1, { error: 'Your name is required' }),
	/** Where the chamber's answer goes; a member signed in by their link sends theirs. */
	submitterEmail: z
		.string({ error: 'Your e-mail is required' })
		.trim()
		.max(L.submitterEmail)
		.pipe(z.email({ error: 'Your e-mail: expected an e-mail address' })),
	event: submittedEventSchema,
	/** reCAPTCHA v3 token, when the chamber has a site key. */
	recaptchaToken: z.string().max(4000).optional(),
	/** A hidden field people leave empty. */
	website: z.string().max(200).optional(),
});
export type SubmissionBody = z.output<typeof submissionBodySchema>;

/** The queue's states. */
export const SUBMISSION_STATUSES = ['pending', 'approved', 'declined'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const submissionListQuerySchema = z.object({
	chamber: z
		.string()
		.regex(/^[a-z0-9-]{1,80}$/)
		.optional(),
	status: z.enum(SUBMISSION_STATUSES).default('pending'),
});

/** A submission as the review queue lists it (staff read event_submissions under RLS). */
export type SubmissionRow = Pick<
	Row<'event_submissions'>,
	| 'id'
	| 'submitter_name'
	| 'submitter_email'
	| 'note'
	| 'created_at'
	| 'reviewed_at'
	| 'reviewed_by'
	| 'event_series_id'
	| 'member_user_id'
> & {
	status: SubmissionStatus;
	event: SubmittedEvent & { time_zone: string };
};

export const SUBMISSION_COLUMNS =
	'id, status, submitter_name, submitter_email, event, note, created_at, reviewed_at, reviewed_by, event_series_id, member_user_id';

/** What approving sends: staff's edits over the submission (none: as submitted), a note. */
export const approveBodySchema = z.object({
	changes: z
		.object({
			name: FIELD_SCHEMAS.name.optional(),
			/** Plain text, as the visitor's. */
			description: text(L.description, 'Description').optional(),
			all_day: FIELD_SCHEMAS.all_day.optional(),
			starts_local: FIELD_SCHEMAS.starts_local.optional(),
			ends_local: FIELD_SCHEMAS.ends_local.optional(),
			venue: FIELD_SCHEMAS.venue.optional(),
			address1: FIELD_SCHEMAS.address1.optional(),
			city: FIELD_SCHEMAS.city.optional(),
			state: FIELD_SCHEMAS.state.optional(),
			zip: FIELD_SCHEMAS.zip.optional(),
			registration_url: FIELD_SCHEMAS.registration_url.optional(),
			contact_email: FIELD_SCHEMAS.contact_email.optional(),
		} satisfies Record<SubmittedField, z.ZodType>)
		.strict()
		.default({}),
	note: z.string().trim().max(1000, { error: 'note: at most 1000 characters' }).default(''),
});

export const declineBodySchema = z.object({
	note: z.string().trim().max(1000, { error: 'note: at most 1000 characters' }).default(''),
});

/** review_event_submission's answer. */
export interface ReviewAnswer {
	id: string;
	status: 'approved' | 'declined';
	eventSeriesId: string | null;
	eventId: number | null;
	name: string;
	submitterName: string;
	submitterEmail: string;
}

/** The e-mail to the submitter: approved (with the event's page), or declined (with the note). */
export function reviewMail(
	answer: ReviewAnswer,
	chamber: { name: string; siteUrl: string },
	note: string,
): { subject: string; text: string } {
	const hello = `Hello ${answer.submitterName},`;
	const noteLines = note ? ['', 'A note from the chamber:', '', note] : [];
	if (answer.status === 'approved') {
		const page =
			answer.eventId !== null
				? `${chamber.siteUrl.replace(/\/+$/, '')}${eventPath({ EventId: answer.eventId, EventName: answer.name })}`
				: `${chamber.siteUrl.replace(/\/+$/, '')}/community-events`;
		return {
			subject: `Your event is on the ${chamber.name} calendar: ${answer.name}`,
			text: [
				hello,
				'',
				`${chamber.name} approved the event you submitted, “${answer.name}”. It is on the community calendar now:`,
				'',
				page,
				...noteLines,
			].join('\n'),
		};
	}
	return {
		subject: `Your event for the ${chamber.name} calendar: ${answer.name}`,
		text: [
			hello,
			'',
			`${chamber.name} reviewed the event you submitted, “${answer.name}”, and did not add it to the community calendar.`,
			...noteLines,
			'',
			'You may submit it again with the changes the note asks for.',
		].join('\n'),
	};
}
