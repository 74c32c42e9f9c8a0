import { z } from 'zod';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { ADMIN_ROLES, PASSWORD_MIN_LENGTH, type AdminRole } from '../auth/auth.ts';
import { chamberConfigSchema, type ChamberConfig } from '../config/config.ts';
import { openingHoursSchema } from '../business/hours/hours.ts';
import { locationSchema } from '../geo/geo.ts';
import { isTimeZone } from '../../lib/time-zone.ts';

// One tenant import file (tenants/*.json, tenants/demo/generate.ts): the chamber configuration
// plus the directory, banner, event and admin-user data of one chamber. Pure logic, no I/O.
//
// Record objects strip unknown keys instead of rejecting them, so exports from the membership
// system (which carry many more fields) and "$comment" notes in hand-written files import as-is.
// Only the top level is strict, because a misspelt section name would silently drop a whole list.

// --- Field helpers -----------------------------------------------------------------------------

const TENANT_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const DIGITS = /^\d+$/;
const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
const LOCAL_TIME = /^(?:1[0-2]|[1-9]):[0-5]\d (?:AM|PM)$/;

const text = () => z.string().trim().default('');

/**
 * An id of the membership system, which exports it as a number in some files and as a string of
 * digits in others; stored as a number, so a re-import written either way changes nothing.
 */
const sourceNumber = (kind: 'positive' | 'nonnegative' = 'nonnegative') => {
	const error = `Expected a ${kind === 'positive' ? 'positive ' : ''}whole number`;
	const number = z.number({ error }).int({ error });
	return z
		.union([number, z.string({ error }).trim().regex(DIGITS, { error }).transform(Number)], {
			error,
		})
		.pipe(kind === 'positive' ? number.positive({ error }) : number.nonnegative({ error }));
};

/** A profile id: digits, given as a number or a string; stored as digits without leading zeros. */
const profileNumber = () => {
	const error = 'Expected a profile id made of digits';
	return z
		.union([
			z.number({ error }).int({ error }).nonnegative({ error }).transform(String),
			z.string({ error }).trim().regex(DIGITS, { error }),
		])
		.transform((digits) => digits.replace(/^0+(?=\d)/, ''));
};

const isoDate = () => z.iso.date({ error: 'Expected a date like 2027-03-15' });
const isoInstant = () =>
	z.iso.datetime({ offset: true, error: 'Expected an ISO instant like 2027-03-15T14:00:00Z' });
const httpUrlOrBlank = () =>
	z
		.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'Expected an http(s) URL' })])
		.default('');
const emailOrBlank = () =>
	z.union([z.literal(''), z.email({ error: 'Expected an e-mail address' })]).default('');

/**
 * Reports every repeat of a key in a list at `[index, field]`, naming the first occurrence.
 * Items whose key is undefined (an optional id left out) take part in no comparison.
 */
function uniqueBy<T>(list: string, field: string, key: (item: T) => string | number | undefined) {
	return (items: readonly T[], ctx: z.RefinementCtx) => {
		const seen = new Map<string | number, number>();
		items.forEach((item, index) => {
			const value = key(item);
			if (value === undefined) return;
			const first = seen.get(value);
			if (first === undefined) {
				seen.set(value, index);
				return;
			}
			ctx.addIssue({
				code: 'custom',
				path: [index, field],
				input: value,
				message: `Duplicate ${field} ${JSON.stringify(value)}, already used by ${list}[${first}]`,
			});
		});
	};
}

// --- Businesses (the business card record) -------------------------------------------------------

// Every text and list is bounded: the admin panel's Members tab writes through these schemas and
// the database holds staff changes to the same bounds (public.business_rules(), derived from
// these by src/features/members/database-rules.ts).
const NAME_MAX = 200;
const URL_MAX = 2000;
/** A text of a business, trimmed, '' when absent, at most `max` characters. */
const businessText = (max = NAME_MAX) => z.string().trim().max(max).default('');

/** Category names: blank ones are dropped and repeats collapse to the first. */
const businessCategories = () =>
	z
		.array(z.string().max(NAME_MAX))
		.max(50)
		.default([])
		.transform((names) => [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))]);

const listingSchema = z.object({
	/** Long description, HTML (sanitised when shown). */
	description: z.string().max(50_000).default(''),
	/** Plain-text card description. */
	short_description: z.string().max(1000).default(''),
	categories: businessCategories(),
	/** Free-text search keywords. */
	keywords: z.string().max(2000).default(''),
	active: z.boolean().default(true),
	primary_listing: z.boolean().default(false),
});

export const socialMediaEntrySchema = z.object({
	/** Network name in any case; only facebook, twitter, linkedin, instagram, youtube get an icon. */
	platform: z.string().trim().min(1, { error: 'Name the network' }).max(50),
	url: z.string().trim().min(1, { error: 'Enter the link' }).max(URL_MAX),
});

const affiliationSchema = z.object({
	icon: businessText(URL_MAX),
	icon_text: businessText(),
	/** Where the badge links to. */
	icon_url: businessText(URL_MAX),
	aff_code: businessText(),
	// Blank and administrative names are legal here; the directory drops them.
	aff_name: z.string().trim().max(NAME_MAX),
	list_available_on_website: z.boolean().default(true),
});

const webContentSchema = z.object({
	content_type: z.string().trim().min(1, { error: 'Say what kind of content it is' }).max(NAME_MAX),
	content_title: z.string().trim().max(500),
	full_url: businessText(URL_MAX),
	rel_url: businessText(URL_MAX),
});

export const businessSchema = z.object({
	/** Internal id; the importer assigns one when absent. */
	id: z.uuid().optional(),
	report_name: z.string().trim().min(1, { error: 'A business needs a name' }).max(NAME_MAX),
	address1: businessText(),
	address2: businessText(),
	city: businessText(),
	county: businessText(),
	state: businessText(),
	zip: businessText(),
	work_phone: businessText(),
	/**
	 * Opening hours: each weekday's times and a note, or their text form ('Mon-Fri 9:00-17:00;
	 * by appointment'); null when the business gives none (src/features/business/hours/hours.ts).
	 */
	hours: openingHoursSchema,
	/** Kept as given; the directory adds https:// when the scheme is missing. */
	website: businessText(URL_MAX),
	/** Where the contact form sends visitors' messages; never shown. */
	email: businessText(254),
	featured: z.boolean().default(false),
	categories: businessCategories(),
	membership_level_name: z
		.string()
		.trim()
		.max(NAME_MAX)
		.default('Member')
		.transform((name) => name || 'Member'),
	/** Explicit rank; when absent the directory derives one from the level name. */
	membership_rank: z.number().int().optional(),
	member_since_date: isoDate().nullable().default(null),
	/** The membership system's profile id (a number or digits), used in legacy profile URLs. */
	weblink_profile_id: profileNumber(),
	main_related_profile_name: businessText(),
	logo_url: businessText(URL_MAX),
	/** 1 is the top of the listing-position sorts. */
	listing_position: z
		.number({ error: 'Expected a whole number, 1 or more' })
		.int({ error: 'Expected a whole number, 1 or more' })
		.min(1, { error: '1 is the top; expected 1 or more' })
		.optional(),
	is_member: z.boolean().default(true),
	published: z.boolean().default(true),
	/**
	 * Where the business is: {latitude, longitude} in degrees (WGS 84), or null. Left out, an
	 * import leaves the location as it is (the geocoder places businesses by their address).
	 */
	location: locationSchema.nullable().optional(),
	listings: z.array(listingSchema).max(20).default([]),
	// Some feeds send the string 'None' (or '') instead of a list. Links are stored one row per
	// network, so that form means "no links" and becomes an empty list here.
	social_media: z
		.union([
			z.array(socialMediaEntrySchema).max(20),
			z.string().regex(/^\s*(?:none)?\s*$/i, { error: "Expected a list of links or 'None'" }),
		])
		.default([])
		.transform((links) => (typeof links === 'string' ? [] : links)),
	profile_affiliations: z.array(affiliationSchema).max(50).default([]),
	web_content: z.array(webContentSchema).max(100).default([]),
});

// --- Banners -----------------------------------------------------------------------------------

const bannerSchema = z.object({
	/** Our uuid, or the membership system's banner number (stored under a stable derived uuid). */
	id: z
		.union(
			[
				z.uuid().transform((id) => id.toLowerCase()),
				z.number().int().nonnegative().transform(String),
				z
					.string()
					.trim()
					.regex(DIGITS)
					.transform((digits) => digits.replace(/^0+(?=\d)/, '')),
			],
			{ error: 'Expected a uuid or a banner number' },
		)
		.optional(),
	banner_name: z.string().trim().min(1),
	/** Absolute URL or a path; at most 970×90 px is shown. */
	image_url: z.string().trim().min(1),
	navigate_url: text(),
	target: z.enum(['_blank', '_self', '_parent', '_top']).default('_blank'),
	alternate_text: text(),
	active: z.boolean().default(true),
	/** Carousel order, ascending. */
	position: z.number().int().default(0),
});

// --- Events (Atlas field names) ------------------------------------------------------------------

const eventItemSchema = z.object({
	ItemId: sourceNumber(),
	ItemName: z.string().trim().min(1),
	Descr: z.string().default(''),
	/** USD; 0 shows as 'Free'. */
	UnitPrice: z.number().nonnegative().default(0),
	IsPublic: z.boolean().default(true),
	AttendeesForItem: z.number().int().nonnegative().default(0),
	Sold: z.number().int().nonnegative().default(0),
	/** null means unlimited. */
	MaxQuantity: z.number().int().nonnegative().nullable().default(null),
});

const eventAttendeeSchema = z.object({
	AttendeeId: sourceNumber(),
	/** Attendees sharing a registration are listed together under its organisation. */
	RegistrationId: sourceNumber(),
	RegistrationOrgName: text(),
	OrgName: text(),
	ItemsDisplay: text(),
	FName: text(),
	LName: text(),
	Title: text(),
});

const eventSponsorSchema = z.object({
	// Misspelt in the source system; kept so records round-trip unchanged.
	SponserId: sourceNumber(),
	SponsorName: z.string().trim().min(1),
	/** Kept as given; the events pages add http:// when the scheme is missing. */
	SponsorLogoUrl: text(),
	SponsorWebsite: text(),
	SponsorMessage: z.string().default(''),
	HideSponsorOrgName: z.boolean().default(false),
});

/** The local 'yyyy-MM-dd' date and 'h:mm AM' time of an instant in an IANA time zone. */
export function localDateTime(
	instant: string | Date,
	timeZone: string,
): { date: string; time: string } {
	const local = new TZDate(new Date(instant).getTime(), timeZone);
	return { date: format(local, 'yyyy-MM-dd'), time: format(local, 'h:mm a') };
}

const eventObjectSchema = z.object({
	EventId: sourceNumber('positive'),
	EventName: z.string().trim().min(1),
	/** HTML, sanitised when shown. */
	Descr: z.string().default(''),
	StartDateTimeUtc: isoInstant(),
	EndDateTimeUtc: isoInstant(),
	/** Local date, 'yyyy-MM-dd'. */
	StartDate: isoDate(),
	EndDate: isoDate(),
	/** Local time, 'h:mm AM'; all-day events run from 12:00 AM to 11:59 PM. */
	StartTime: z.string().trim().regex(LOCAL_TIME, { error: "Expected a time like '9:30 AM'" }),
	EndTime: z.string().trim().regex(LOCAL_TIME, { error: "Expected a time like '9:30 AM'" }),
	TimeZone: z
		.object({
			/** Shown after times, e.g. 'CST' or 'CDT'. */
			Abbreviation: text(),
			/** IANA id; when given, the local dates and times must match the UTC instants. */
			Name: z.string().trim().min(1).optional(),
		})
		.prefault({}),
	Venue: text(),
	Address1: text(),
	Address2: text(),
	City: text(),
	State: text(),
	Zip: text(),
	EventType: text(),
	EventTypeColor: z
		.string()
		.trim()
		.regex(HEX_COLOUR, { error: 'Expected a hex colour like #0d3e63' })
		.default('#0d3e63'),
	FeaturedEvent: z.boolean().default(false),
	/** Closed events are dropped from every list and detail view. */
	Closed: z.boolean().default(false),
	DisableRegistration: z.boolean().default(false),
	/** Registration link used instead of the registration site; '' for none. */
	SpecialRegistrationUrl: httpUrlOrBlank(),
	RegistrationStartDate: z.union([isoDate(), isoInstant()]).nullable().default(null),
	/** null shows as 'Open'. */
	RegistrationEndDate: z.union([isoDate(), isoInstant()]).nullable().default(null),
	SendQuestionsToEmail: emailOrBlank(),
	ShowAttendeeDetail: z.boolean().default(false),
	/** Attendees are listed only when at least this many are attending. */
	AttendeeDetailThreshold: z.number().int().nonnegative().default(0),
	/** Defaults to the number of Attendees. */
	AttendingAttendees: z.number().int().nonnegative().optional(),
	Attendees: z.array(eventAttendeeSchema).default([]),
	Items: z.array(eventItemSchema).default([]),
	Sponsors: z.array(eventSponsorSchema).default([]),
});

const eventSchema = eventObjectSchema
	.superRefine((event, ctx) => {
		if (Date.parse(event.EndDateTimeUtc) < Date.parse(event.StartDateTimeUtc)) {
			ctx.addIssue({
				code: 'custom',
				path: ['EndDateTimeUtc'],
				input: event.EndDateTimeUtc,
				message: `Ends before it starts (${event.StartDateTimeUtc})`,
			});
		}
		const zone = event.TimeZone.Name;
		if (zone === undefined) return;
		if (!isTimeZone(zone)) {
			ctx.addIssue({
				code: 'custom',
				path: ['TimeZone', 'Name'],
				input: zone,
				message: `Unknown time zone ${JSON.stringify(zone)}`,
			});
			return;
		}
		// The pages show the local fields but order and filter by the instants, so a mismatch
		// would put an event on the wrong day.
		for (const [end, instant] of [
			['Start', event.StartDateTimeUtc],
			['End', event.EndDateTimeUtc],
		] as const) {
			const local = localDateTime(instant, zone);
			const date = `${end}Date` as const;
			const time = `${end}Time` as const;
			for (const [field, expected] of [
				[date, local.date],
				[time, local.time],
			] as const) {
				if (event[field] !== expected) {
					ctx.addIssue({
						code: 'custom',
						path: [field],
						input: event[field],
						message: `Expected ${JSON.stringify(expected)} (${end}DateTimeUtc in ${zone}), received ${JSON.stringify(event[field])}`,
					});
				}
			}
		}
	})
	.transform(({ AttendingAttendees, ...event }) => ({
		...event,
		AttendingAttendees: AttendingAttendees ?? event.Attendees.length,
	}));

const eventListSchema = (list: string) =>
	z
		.array(eventSchema)
		.default([])
		.superRefine(uniqueBy(list, 'EventId', (e: EventRecord) => e.EventId));

// --- Users and the whole file ------------------------------------------------------------------

export type UserRole = AdminRole;

const tenantUserSchema = z.object({
	email: z
		.string()
		.trim()
		.toLowerCase()
		.pipe(z.email({ error: 'Expected an e-mail address' })),
	/**
	 * Left out for a new user who sets their own through the password-reset e-mail (the generator's
	 * first admin); an existing user keeps theirs.
	 */
	password: z
		.string()
		.min(PASSWORD_MIN_LENGTH, {
			error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
		})
		.optional(),
	role: z.enum(ADMIN_ROLES),
});

const tenantSchema = z.object({
	slug: z.string().trim().max(63).regex(TENANT_SLUG_PATTERN, {
		error: 'Expected a slug of lowercase letters and digits separated by single hyphens',
	}),
	name: z.string().trim().min(1),
});

// name and slug may be left out of `config`: they are taken from `tenant`.
const tenantConfigSchema = chamberConfigSchema.extend({
	name: z.string().trim().optional(),
	slug: z.string().trim().optional(),
});

const tenantFileSchema = z
	.strictObject({
		/** Editor hint, ignored. */
		$schema: z.string().optional(),
		/** Free-text note, ignored. */
		$comment: z.string().optional(),
		tenant: tenantSchema,
		config: tenantConfigSchema.prefault({}),
		businesses: z
			.array(businessSchema)
			.default([])
			.superRefine(
				uniqueBy('businesses', 'weblink_profile_id', (b: Business) => b.weblink_profile_id),
			)
			.superRefine(uniqueBy('businesses', 'id', (b: Business) => b.id)),
		banners: z.array(bannerSchema).default([]),
		events: eventListSchema('events'),
		communityEvents: eventListSchema('communityEvents'),
		users: z
			.array(tenantUserSchema)
			.default([])
			.superRefine(uniqueBy('users', 'email', (u: TenantUser) => u.email)),
	})
	.superRefine((file, ctx) => {
		const given = file.config.slug;
		if (given !== undefined && given !== file.tenant.slug) {
			ctx.addIssue({
				code: 'custom',
				path: ['config', 'slug'],
				input: given,
				message: `Expected ${JSON.stringify(file.tenant.slug)} (tenant.slug) or nothing, received ${JSON.stringify(given)}`,
			});
		}
	})
	.transform(({ $schema: _schema, $comment: _comment, tenant, config, ...data }) => {
		const full: ChamberConfig = { ...config, name: config.name || tenant.name, slug: tenant.slug };
		return { tenant, config: full, ...data };
	});

export type TenantFileInput = z.input<typeof tenantFileSchema>;
export type TenantFile = z.output<typeof tenantFileSchema>;
export type BusinessInput = z.input<typeof businessSchema>;
export type Business = z.output<typeof businessSchema>;
export type ListingInput = z.input<typeof listingSchema>;
export type Listing = z.output<typeof listingSchema>;
export type SocialMediaEntry = z.output<typeof socialMediaEntrySchema>;
export type AffiliationInput = z.input<typeof affiliationSchema>;
export type Affiliation = z.output<typeof affiliationSchema>;
export type WebContentInput = z.input<typeof webContentSchema>;
export type WebContent = z.output<typeof webContentSchema>;
export type BannerInput = z.input<typeof bannerSchema>;
export type EventInput = z.input<typeof eventSchema>;
export type EventRecord = z.output<typeof eventSchema>;
export type EventItemInput = z.input<typeof eventItemSchema>;
export type EventItem = z.output<typeof eventItemSchema>;
export type EventAttendeeInput = z.input<typeof eventAttendeeSchema>;
export type EventSponsorInput = z.input<typeof eventSponsorSchema>;
export type TenantUserInput = z.input<typeof tenantUserSchema>;
export type TenantUser = z.output<typeof tenantUserSchema>;

// --- Parsing -----------------------------------------------------------------------------------

/** Renders a zod path the way it reads in the JSON: businesses[3].report_name. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
	let out = '';
	for (const key of path) {
		if (typeof key === 'number') out += `[${key}]`;
		else out += out ? `.${String(key)}` : String(key);
	}
	return out;
}

/**
 * A union failure ("Invalid input") says nothing useful; the branch that got furthest into the
 * value (the longest path) is the one the author meant, so its first issue is reported instead.
 */
function innermostIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
	if (issue.code !== 'invalid_union' || issue.errors.length === 0) {
		return { path: [...issue.path], message: issue.message };
	}
	let best: z.core.$ZodIssue | undefined;
	for (const branch of issue.errors) {
		const first = branch[0];
		if (first && (!best || first.path.length > best.path.length)) best = first;
	}
	if (!best) return { path: [...issue.path], message: issue.message };
	const inner = innermostIssue(best);
	return { path: [...issue.path, ...inner.path], message: inner.message };
}

export class TenantFileError extends Error {
	/** Where the file came from, e.g. 'tenants/demo.json'. */
	readonly source: string;
	/** JSON path of the first problem, e.g. 'businesses[3].report_name'; '' for the root. */
	readonly path: string;
	/** Every problem zod found, in order. */
	readonly issues: readonly z.core.$ZodIssue[];

	constructor(source: string, path: string, detail: string, issues: readonly z.core.$ZodIssue[]) {
		super(path ? `${source}: ${path}: ${detail}` : `${source}: ${detail}`);
		this.name = 'TenantFileError';
		this.source = source;
		this.path = path;
		this.issues = issues;
	}
}

/** Validates a tenant file and fills in defaults; `source` names the file in error messages. */
export function parseTenantFile(input: unknown, source: string): TenantFile {
	const result = tenantFileSchema.safeParse(input);
	if (result.success) return result.data;
	const [first] = result.error.issues;
	if (!first) throw new TenantFileError(source, '', 'Invalid tenant file', []);
	const { path, message } = innermostIssue(first);
	throw new TenantFileError(source, formatIssuePath(path), message, result.error.issues);
}
