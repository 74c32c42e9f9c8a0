import { z } from 'zod';
import type { Location, LocationQuality, LocationSource } from '../geo/geo.ts';
import { formatHoursText, isOpeningHours, type OpeningHours } from '../business/hours/hours.ts';
import {
	businessSchema,
	formatIssuePath,
	socialMediaEntrySchema,
	type Affiliation,
	type Listing,
	type SocialMediaEntry,
	type WebContent,
} from '../tenants/tenant-file.ts';

// The Members tab and /api/admin/businesses: which fields of a business staff change, who may
// change which, how a change is validated (the tenant file's business schema, field by field),
// the list's query and what the API answers. Pure logic, no I/O: the panel, the functions and
// the tests share it. The database holds the same rules on its own (save_business).

// --- Fields ------------------------------------------------------------------------------------

/** The one-value fields of a business (profiles columns); public.business_scalar_fields(). */
export const SCALAR_FIELDS = [
	'report_name',
	'address1',
	'address2',
	'city',
	'county',
	'state',
	'zip',
	'work_phone',
	'hours',
	'website',
	'email',
	'featured',
	'categories',
	'membership_level_name',
	'membership_rank',
	'member_since_date',
	'main_related_profile_name',
	'logo_url',
	'listing_position',
	'is_member',
	'published',
	'location',
] as const;

/** The list fields (child tables, replaced whole); public.business_list_fields(). */
export const LIST_FIELDS = [
	'listings',
	'social_media',
	'profile_affiliations',
	'web_content',
] as const;

export const BUSINESS_FIELDS = [...SCALAR_FIELDS, ...LIST_FIELDS] as const;
export type BusinessField = (typeof BUSINESS_FIELDS)[number];
export type ScalarField = (typeof SCALAR_FIELDS)[number];

/**
 * What an editor may change: a listing's descriptive content (its descriptions, not its
 * categories or keywords), social links, web content and logo; public.business_editor_fields().
 */
export const EDITOR_FIELDS: readonly BusinessField[] = [
	'listings',
	'web_content',
	'social_media',
	'logo_url',
];

export type StaffRole = 'super_admin' | 'admin' | 'editor';

export function mayChangeField(role: StaffRole, field: BusinessField): boolean {
	return role !== 'editor' || EDITOR_FIELDS.includes(field);
}

/** Adding, removing, restoring and publishing are for admins and super_admins. */
export function mayManageMembers(role: StaffRole): boolean {
	return role !== 'editor';
}

/** How each field is named to people (labels of the editor, the history and the errors). */
export const FIELD_LABELS: Readonly<Record<BusinessField, string>> = {
	report_name: 'Business name',
	address1: 'Address',
	address2: 'Address line 2',
	city: 'City',
	county: 'County',
	state: 'State',
	zip: 'ZIP',
	work_phone: 'Phone',
	hours: 'Opening hours',
	website: 'Website',
	email: 'E-mail (for the contact form, never shown)',
	featured: 'Featured',
	categories: 'Categories',
	membership_level_name: 'Membership level',
	membership_rank: 'Membership rank',
	member_since_date: 'Member since',
	main_related_profile_name: 'Main contact',
	logo_url: 'Logo',
	listing_position: 'Listing position',
	is_member: 'Current member',
	published: 'Published',
	location: 'Location on the map',
	listings: 'Descriptions',
	social_media: 'Social links',
	profile_affiliations: 'Affiliations',
	web_content: 'Web content',
};

/** The editor's groups, as a membership coordinator thinks of a listing. */
export const FIELD_GROUPS: readonly { title: string; fields: readonly BusinessField[] }[] = [
	{
		title: 'Name and membership',
		fields: [
			'report_name',
			'membership_level_name',
			'membership_rank',
			'member_since_date',
			'is_member',
			'featured',
			'listing_position',
			'published',
		],
	},
	{
		title: 'Address and contact',
		fields: [
			'address1',
			'address2',
			'city',
			'county',
			'state',
			'zip',
			'location',
			'work_phone',
			'hours',
			'website',
			'email',
			'main_related_profile_name',
		],
	},
	{ title: 'Description and web content', fields: ['listings', 'web_content'] },
	{ title: 'Categories', fields: ['categories'] },
	{ title: 'Social links', fields: ['social_media'] },
	{ title: 'Affiliations', fields: ['profile_affiliations'] },
	{ title: 'Logo', fields: ['logo_url'] },
];

// --- Values -------------------------------------------------------------------------------------

/** A business's fields as the database keeps them (business_document), the tenant file's names. */
export interface BusinessValues {
	report_name: string;
	address1: string;
	address2: string;
	city: string;
	county: string;
	state: string;
	zip: string;
	work_phone: string;
	/** null: the business gives no hours. */
	hours: OpeningHours | null;
	website: string;
	email: string;
	featured: boolean;
	categories: string[];
	membership_level_name: string;
	/** null: the directory derives the rank from the level's name. */
	membership_rank: number | null;
	member_since_date: string | null;
	main_related_profile_name: string;
	logo_url: string;
	listing_position: number;
	is_member: boolean;
	published: boolean;
	/** null: nobody placed the business yet (the geocoder, a file or staff). */
	location: Location | null;
	listings: Listing[];
	social_media: SocialMediaEntry[];
	profile_affiliations: Affiliation[];
	web_content: WebContent[];
}

export type BusinessChanges = Partial<BusinessValues>;

const shape = businessSchema.shape;

/**
 * Each field's schema: the tenant file's, except where the database keeps a value the file may
 * leave out (a rank cleared is null; a position is always set) and where the file's 'None' for
 * social links is no value staff send.
 */
const FIELD_SCHEMAS: Readonly<Record<BusinessField, z.ZodType>> = {
	report_name: shape.report_name,
	address1: shape.address1,
	address2: shape.address2,
	city: shape.city,
	county: shape.county,
	state: shape.state,
	zip: shape.zip,
	work_phone: shape.work_phone,
	hours: shape.hours,
	website: shape.website,
	email: shape.email,
	featured: shape.featured,
	categories: shape.categories,
	membership_level_name: shape.membership_level_name,
	membership_rank: shape.membership_rank.unwrap().nullable(),
	member_since_date: shape.member_since_date,
	main_related_profile_name: shape.main_related_profile_name,
	logo_url: shape.logo_url,
	listing_position: shape.listing_position.unwrap(),
	is_member: shape.is_member,
	published: shape.published,
	location: shape.location.unwrap(),
	listings: shape.listings,
	social_media: z.array(socialMediaEntrySchema).max(20),
	profile_affiliations: shape.profile_affiliations,
	web_content: shape.web_content,
};

/** The schema the database's copy of the rules is derived from (public.business_rules()). */
export function fieldSchema(field: BusinessField): z.ZodType {
	return FIELD_SCHEMAS[field];
}

export interface FieldIssue {
	/** The field and where inside it, as the JSON reads: web_content[0].content_type. */
	path: string;
	field: BusinessField | null;
	message: string;
}

export type ParsedChanges =
	{ ok: true; changes: BusinessChanges } | { ok: false; issues: FieldIssue[] };

function isField(key: string): key is BusinessField {
	return (BUSINESS_FIELDS as readonly string[]).includes(key);
}

/**
 * Validates changed fields, each with its own schema: values come out as the tenant file's
 * import would store them (trimmed, defaults filled in, blank categories dropped). Every
 * problem is reported, with its path, so the panel can show each at its field.
 */
export function parseBusinessChanges(input: unknown): ParsedChanges {
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
			issues.push({ path: key, field: null, message: `Not a field of a business: ${key}` });
			continue;
		}
		const result = FIELD_SCHEMAS[key].safeParse(value);
		if (result.success) changes[key] = result.data;
		else {
			for (const issue of result.error.issues) {
				issues.push({
					path: formatIssuePath([key, ...issue.path]),
					field: key,
					message: issue.message,
				});
			}
		}
	}
	return issues.length ? { ok: false, issues } : { ok: true, changes: changes as BusinessChanges };
}

/** A new member: its name at least; the membership system's id when it has one already. */
export interface NewBusiness {
	/** Digits; when given, the membership system's later imports and syncs update this listing. */
	weblinkProfileId: string | null;
	values: BusinessChanges;
}

export type ParsedNewBusiness =
	{ ok: true; business: NewBusiness } | { ok: false; issues: FieldIssue[] };

export function parseNewBusiness(input: unknown): ParsedNewBusiness {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return { ok: false, issues: [{ path: '', field: null, message: 'Expected the new business' }] };
	}
	const { weblink_profile_id: given, ...values } = input as Record<string, unknown>;
	const issues: FieldIssue[] = [];
	let weblinkProfileId: string | null = null;
	if (given !== undefined && given !== null && given !== '') {
		const id = shape.weblink_profile_id.safeParse(given);
		if (id.success) weblinkProfileId = id.data;
		else
			issues.push({
				path: 'weblink_profile_id',
				field: null,
				message: id.error.issues[0]!.message,
			});
	}
	if (values.report_name === undefined) {
		issues.push({
			path: 'report_name',
			field: 'report_name',
			message: 'A new member needs a name',
		});
	}
	const parsed = parseBusinessChanges(values);
	if (!parsed.ok) issues.push(...parsed.issues);
	if (issues.length || !parsed.ok) return { ok: false, issues };
	return { ok: true, business: { weblinkProfileId, values: parsed.changes } };
}

/** The first problem as one line, for a 400's `error`: 'website: Expected …'. */
export function describeIssues(issues: readonly FieldIssue[]): string {
	const first = issues[0];
	if (!first) return 'Invalid business';
	return first.path ? `${first.path}: ${first.message}` : first.message;
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** A value as it would be saved (trimmed, blanks dropped …), or as it is when it is not valid. */
function asSaved(field: BusinessField, value: unknown): unknown {
	const parsed = FIELD_SCHEMAS[field].safeParse(value);
	return parsed.success ? parsed.data : value;
}

/**
 * The fields of `draft` that differ from `saved` as they would be saved (a trailing space or a
 * blank category line is no change): what a save sends.
 */
export function changedFields(saved: BusinessValues, draft: BusinessValues): BusinessChanges {
	const changes: Record<string, unknown> = {};
	for (const field of BUSINESS_FIELDS) {
		if (same(saved[field], asSaved(field, draft[field]))) continue;
		// Hours are typed as text: what is saved (and becomes the baseline) is what it reads as.
		changes[field] = field === 'hours' ? asSaved(field, draft[field]) : draft[field];
	}
	return changes as BusinessChanges;
}

/** A business's values as a new listing starts them (the import's defaults). */
export function emptyBusiness(): BusinessValues {
	return {
		report_name: '',
		address1: '',
		address2: '',
		city: '',
		county: '',
		state: '',
		zip: '',
		work_phone: '',
		hours: null,
		website: '',
		email: '',
		featured: false,
		categories: [],
		membership_level_name: 'Member',
		membership_rank: null,
		member_since_date: null,
		main_related_profile_name: '',
		logo_url: '',
		listing_position: 1000,
		is_member: true,
		published: true,
		location: null,
		listings: [],
		social_media: [],
		profile_affiliations: [],
		web_content: [],
	};
}

// --- The list -----------------------------------------------------------------------------------

export const MEMBER_STATUSES = ['published', 'unpublished', 'removed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const STATUS_LABELS: Readonly<Record<MemberStatus, string>> = {
	published: 'Published',
	unpublished: 'Unpublished',
	removed: 'Removed',
};

export const PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 25;

const filterText = z
	.string()
	.trim()
	.max(200)
	.optional()
	.transform((v) => (v ? v : undefined));

/** GET /api/admin/businesses's query (strings from the URL). */
export const memberListQuerySchema = z.object({
	/** The chamber's slug; the deployment's own when absent. */
	chamber: filterText,
	/** Part of the name, any case. */
	q: filterText,
	status: z.enum(MEMBER_STATUSES).optional(),
	level: filterText,
	category: filterText,
	page: z.coerce.number().int().min(1).max(100_000).default(1),
	pageSize: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
});
export type MemberListQuery = z.output<typeof memberListQuerySchema>;

/** One row of the Members list. */
interface MemberSummary {
	id: string;
	name: string;
	level: string;
	categories: string[];
	city: string;
	status: MemberStatus;
	updatedAt: string;
	/** A staff member's e-mail, or 'import' / 'sync' for the membership system. */
	updatedBy: string;
}

/** What a staff change of a listing answers: its id and its version now. */
export interface Saved {
	id: string;
	version: number;
}

export interface MemberListResult {
	businesses: MemberSummary[];
	total: number;
}

// --- One listing ------------------------------------------------------------------------------

/** A field staff changed here: imports and syncs leave it, until staff take the system's value. */
export interface Override {
	field: BusinessField;
	changedAt: string;
	changedBy: string;
	/** The membership system's value as last sent (null: not known yet). */
	systemValue: unknown;
}

/** GET /api/admin/businesses/{id}: the business in the tenant file's shape and its state. */
export interface MemberDetail {
	business: BusinessValues & {
		id: string;
		/** The membership system's id; null for a listing the chamber added itself. */
		weblink_profile_id: string | null;
	};
	version: number;
	status: MemberStatus;
	updatedAt: string;
	updatedBy: string;
	/** When staff removed it; restorable until removedAt + 30 days. */
	removedAt: string | null;
	overrides: Override[];
	/** Who placed the location, and where the geocoder is with the address. */
	location: LocationStatus;
}

/** Who placed a listing's location, and the geocoder's request for its address. */
export interface LocationStatus {
	source: LocationSource | null;
	quality: LocationQuality | null;
	locatedAt: string | null;
	request: {
		status: 'pending' | 'unmatched' | 'failed';
		requestedAt: string;
		attempts: number;
		nextAttemptAt: string | null;
		lastError: string | null;
	} | null;
	/**
	 * Whether this site's geocoder looks addresses up (GET's answer says; false with
	 * GEOCODER=none): without one, a listing with no pin waits for staff to place it.
	 */
	geocoding?: boolean;
}

/** A listing nobody placed and the geocoder has no request for. */
export const NO_LOCATION_STATUS: LocationStatus = {
	source: null,
	quality: null,
	locatedAt: null,
	request: null,
};

const SOURCE_WORDS: Readonly<Record<LocationSource, string>> = {
	file: 'from the membership system’s file',
	census: 'by the US Census Bureau’s geocoder',
	nominatim: 'by OpenStreetMap’s geocoder (Nominatim)',
	staff: 'by hand',
};

const QUALITY_WORDS: Readonly<Partial<Record<LocationQuality, string>>> = {
	exact: 'at the address',
	approximate: 'along the street, near the house number',
	street: 'on the street, not the house',
	area: 'in the town or ZIP code only',
};

/**
 * The sentence under the pin: who placed it and how exactly, or why there is none yet (the
 * geocoder is still to look the address up, did not find it, or kept failing).
 */
export function describeLocation(hasLocation: boolean, status: LocationStatus): string {
	const request = status.request;
	if (request?.status === 'pending' && status.geocoding === false) {
		return hasLocation
			? 'No geocoder looks addresses up on this site: the pin stays where it is until staff move it.'
			: 'Not on the map: no geocoder looks addresses up on this site. Place the pin by hand.';
	}
	if (request?.status === 'pending') {
		const waiting = 'Waiting for the geocoder to look up the address.';
		return request.attempts > 0 && request.lastError
			? `${waiting} The last try failed (${request.lastError}); it tries again later.`
			: waiting;
	}
	const missing = hasLocation ? '' : ' Place the pin by hand, or correct the address.';
	if (request?.status === 'unmatched') {
		return `The geocoder did not find this address.${missing}`;
	}
	if (request?.status === 'failed') {
		return `The geocoder failed to look up this address (${request.lastError ?? 'no answer'}).${missing}`;
	}
	if (!hasLocation || !status.source) {
		return 'Not on the map: the listing has no address the geocoder can look up. Place the pin by hand.';
	}
	const quality = status.quality ? QUALITY_WORDS[status.quality] : undefined;
	return `Placed ${SOURCE_WORDS[status.source]}${quality ? `, ${quality}` : ''}.`;
}

/** Removed listings are kept this long, then deleted for good. */
const REMOVAL_KEPT_DAYS = 30;

export function restorableUntil(removedAt: string): Date {
	return new Date(Date.parse(removedAt) + REMOVAL_KEPT_DAYS * 86_400_000);
}

/** PATCH's body. */
export const memberPatchSchema = z.object({
	/** The version the changes were made from (GET's `version`). */
	version: z.number({ error: 'version: expected the version you opened' }).int().min(0),
	changes: z.record(z.string(), z.unknown()),
});

/** 'who' of an audit row or an update: an e-mail as it is; the import's and sync's by name. */
export function describeActor(actor: string | null | undefined): string {
	if (!actor || actor === 'import' || actor === 'service_role' || actor === 'database') {
		return 'the membership system (import)';
	}
	if (actor === 'sync') return 'the membership system (sync)';
	return actor;
}

/** 'who' in a list column: an e-mail, or Import / Sync for the membership system. */
export function actorLabel(actor: string | null | undefined): string {
	if (actor === 'sync') return 'Sync';
	if (!actor || actor === 'import' || actor === 'service_role' || actor === 'database') {
		return 'Import';
	}
	return actor;
}

/** One change in a listing's history (audit_log rows of section 'business'). */
export interface HistoryEntry {
	id: number;
	at: string;
	actor: string;
	field: BusinessField | 'removed' | 'added';
	oldValue: unknown;
	newValue: unknown;
}

function isLocation(value: unknown): value is Location {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as Location).latitude === 'number' &&
		typeof (value as Location).longitude === 'number'
	);
}

/** A value shown in one line (history, conflicts, overrides). */
export function describeValue(value: unknown): string {
	if (value === null || value === undefined || value === '') return '(empty)';
	if (isOpeningHours(value)) return formatHoursText(value) || '(closed every day)';
	if (isLocation(value)) return `${value.latitude}, ${value.longitude}`;
	if (typeof value === 'boolean') return value ? 'Yes' : 'No';
	if (typeof value === 'string' || typeof value === 'number') return String(value);
	if (Array.isArray(value)) {
		if (value.length === 0) return '(none)';
		if (value.every((v) => typeof v === 'string')) return value.join(', ');
		return `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
	}
	return JSON.stringify(value);
}
