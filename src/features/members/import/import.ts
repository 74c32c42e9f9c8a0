import { z } from 'zod';
import {
	businessSchema,
	formatIssuePath,
	type Business,
	type BusinessInput,
} from '../../tenants/tenant-file.ts';
import { FIELD_LABELS } from '../members.ts';
import {
	LIST_KEYS,
	LISTING_TARGETS,
	SOCIAL_TARGETS,
	TARGET_LABELS,
	type Mapping,
	type MappingTarget,
} from './fields.ts';
import { ownId, type DirectoryEntry, type MatchRule } from './match.ts';

// The dry run of a member import, as pure logic: a file's row becomes a business in the tenant
// file's shape (validated by the same zod schema as everywhere), compared field by field with the
// business the directory holds. The background function, the panel and `npm run tenant:import
// --dry-run` share it.

// --- What the dry run decides per business -------------------------------------------------------

/**
 * confirm: a row of a file without ids that matches more than one business, or one only by a
 * similar name; a person chooses (a business, a new one, or skip) before anything is applied.
 * skipped: such a row the person left out.
 */
export type RowAction =
	'add' | 'change' | 'unchanged' | 'missing' | 'invalid' | 'confirm' | 'skipped';

interface FieldChange {
	field: string;
	before: unknown;
	after: unknown;
	/** Staff changed the field here: the import leaves it as it is. */
	kept?: boolean;
}

interface RowError {
	/** The file's column (a JSON file: the key), or '' when the row as a whole is wrong. */
	column: string;
	field: string;
	message: string;
}

/**
 * One choice of a row to confirm: a business it may be (what applying would then do to it) or,
 * with profileId null, a new business. The database takes the chosen one as the row's decision
 * (confirm_member_import_row).
 */
interface CandidateDecision {
	/** The business's id, or null: add the row as a new business. */
	profileId: string | null;
	weblinkProfileId: string | null;
	name: string | null;
	city: string | null;
	email: string | null;
	website: string | null;
	/** The rule that found it. */
	on: MatchRule | null;
	action: 'add' | 'change' | 'unchanged';
	baseVersion: number | null;
	record: Business | null;
	changes: FieldChange[];
}

export interface RowDecision {
	action: RowAction;
	/** As a spreadsheet numbers it (headings are row 1); null for a business missing from the file. */
	rowNumber: number | null;
	profileId: string | null;
	weblinkProfileId: string | null;
	name: string | null;
	baseVersion: number | null;
	/** The business to write (added and changed). */
	record: Business | null;
	changes: FieldChange[];
	errors: RowError[];
	/** What a row of a file without ids matched its business on (by id: 'id'). */
	matchedOn?: MatchRule | null;
	/** A row to confirm: the choices. */
	candidates?: CandidateDecision[] | null;
}

export interface ImportCounts {
	added: number;
	changed: number;
	unchanged: number;
	missing: number;
	invalid: number;
	/** Businesses with a field staff changed here that the file would change: left as staff set it. */
	kept: number;
	/** After applying: members missing from the file that were unpublished. */
	unpublished?: number;
	/** Rows of a file without ids still to confirm (nothing is applied while there are any). */
	confirm?: number;
	/** Rows to confirm that the person skipped. */
	skipped?: number;
	/** A file without ids: how many rows each rule matched. */
	matched?: Partial<Record<MatchRule, number>>;
}

export function emptyCounts(): ImportCounts {
	return { added: 0, changed: 0, unchanged: 0, missing: 0, invalid: 0, kept: 0 };
}

export function countDecision(counts: ImportCounts, decision: RowDecision): void {
	if (decision.matchedOn && counts.matched) {
		counts.matched[decision.matchedOn] = (counts.matched[decision.matchedOn] ?? 0) + 1;
	}
	if (decision.action === 'confirm' || decision.action === 'skipped') {
		counts[decision.action] = (counts[decision.action] ?? 0) + 1;
		return;
	}
	const key = (
		{
			add: 'added',
			change: 'changed',
			unchanged: 'unchanged',
			missing: 'missing',
			invalid: 'invalid',
		} as const
	)[decision.action];
	counts[key] += 1;
	if (decision.changes.some((c) => c.kept)) counts.kept += 1;
}

const plural = (n: number, one: string, many = `${one}s`) =>
	`${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The dry run in one line, the same in the panel and in `tenant:import --dry-run`. */
export function formatSummary(counts: ImportCounts): string {
	const parts = [
		`${plural(counts.added, 'business', 'businesses')} to add`,
		`${counts.changed.toLocaleString('en-US')} to change`,
		`${counts.unchanged.toLocaleString('en-US')} unchanged`,
		`${counts.missing.toLocaleString('en-US')} missing from the file`,
		plural(counts.invalid, 'invalid row'),
	];
	if (counts.confirm) parts.push(`${plural(counts.confirm, 'row')} to confirm`);
	if (counts.skipped) parts.push(`${plural(counts.skipped, 'row')} skipped`);
	if (counts.kept > 0) {
		parts.push(`${plural(counts.kept, 'business', 'businesses')} with fields kept as changed here`);
	}
	if (counts.unpublished !== undefined) parts.push(`${counts.unpublished} unpublished`);
	return `${parts.join(', ')}.`;
}

// --- Reading a cell ------------------------------------------------------------------------------

/** A table's row: the file's headings → cell values (strings, numbers, booleans, dates). */
export interface TableRow {
	rowNumber: number;
	cells: Readonly<Record<string, unknown>>;
}

class CellProblem extends Error {}

function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (value instanceof Date) return value.toISOString().slice(0, 10);
	return String(value).trim();
}

const YES = new Set(['yes', 'y', 'true', '1', 'x', 'on', 'active', 'current', 'member']);
const NO = new Set([
	'no',
	'n',
	'false',
	'0',
	'off',
	'inactive',
	'lapsed',
	'dropped',
	'expired',
	'suspended',
	'nonmember',
	'non-member',
	'prospect',
]);

function cellBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	const text = cellText(value).toLowerCase();
	if (text === '') return undefined;
	if (YES.has(text)) return true;
	if (NO.has(text)) return false;
	throw new CellProblem('Expected yes or no');
}

function cellInteger(value: unknown): number | undefined {
	const text = cellText(value);
	if (text === '') return undefined;
	const n = Number(text);
	if (!Number.isInteger(n)) throw new CellProblem('Expected a whole number');
	return n;
}

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+Z?)?$/;

/** A date cell: a spreadsheet date, 2027-03-15 (with or without a time), or 3/15/2027. */
function cellDate(value: unknown): string | null {
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime())) throw new CellProblem('Expected a date like 2027-03-15');
		return value.toISOString().slice(0, 10);
	}
	const text = cellText(value);
	if (text === '') return null;
	const iso = ISO_DATE.exec(text);
	const us = US_DATE.exec(text);
	const [y, m, d] = iso
		? [iso[1]!, iso[2]!, iso[3]!]
		: us
			? [us[3]!, us[1]!.padStart(2, '0'), us[2]!.padStart(2, '0')]
			: [];
	const date = y ? `${y}-${m}-${d}` : '';
	const parsed = new Date(`${date}T00:00:00Z`);
	if (!y || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
		throw new CellProblem('Expected a date like 2027-03-15 or 3/15/2027');
	}
	return date;
}

/** Categories in one cell, separated by semicolons, vertical bars or line breaks. */
function cellList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map((v) => cellText(v)).filter((v) => v !== '');
	return cellText(value)
		.split(/[;|\n]/)
		.map((v) => v.trim())
		.filter((v) => v !== '');
}

/**
 * A membership-system id cell: digits (spreadsheets may have made it a number), or an id of the
 * chamber's own numbering (a business an earlier file without ids added: 'chamber-12').
 */
function cellProfileId(value: unknown): string {
	const text =
		typeof value === 'number' && Number.isInteger(value) ? String(value) : cellText(value);
	const own = ownId(text);
	if (own) return own;
	if (!/^\d+$/.test(text)) throw new CellProblem('Expected a profile id made of digits');
	return text.replace(/^0+(?=\d)/, '');
}

const BOOLEAN_TARGETS = new Set<MappingTarget>(['featured', 'is_member', 'published']);
const INTEGER_TARGETS = new Set<MappingTarget>(['membership_rank', 'listing_position']);

// --- A row becomes a business --------------------------------------------------------------------

/** What a row says about a business: only the fields its file has. */
interface RowPatch {
	scalars: Record<string, unknown>;
	listing: Partial<Record<(typeof LISTING_TARGETS)[number], string>>;
	social: Partial<Record<(typeof SOCIAL_TARGETS)[number], string>>;
	/** A JSON file's lists, as they are. */
	lists: Partial<Record<(typeof LIST_KEYS)[number], unknown>>;
	/** A JSON file's location, as it is. */
	location?: unknown;
	/** Field → the column it came from (to name the column of a problem). */
	columns: Map<string, string>;
}

function readPatch(row: TableRow, mapping: Mapping): { patch: RowPatch; errors: RowError[] } {
	const patch: RowPatch = { scalars: {}, listing: {}, social: {}, lists: {}, columns: new Map() };
	const errors: RowError[] = [];
	for (const key of LIST_KEYS) {
		if (key in row.cells) {
			patch.lists[key] = row.cells[key];
			patch.columns.set(key, key);
		}
	}
	// A JSON file's coordinates ({latitude, longitude}), as the tenant file writes them; a table's
	// column of that name is text (a neighbourhood, a branch), which no mapping takes.
	const location = row.cells.location;
	if (location !== undefined && typeof location === 'object') {
		patch.location = location;
		patch.columns.set('location', 'location');
	}
	for (const [column, target] of Object.entries(mapping)) {
		if (!target || !(column in row.cells)) continue;
		const value = row.cells[column];
		patch.columns.set(target, column);
		try {
			if ((LISTING_TARGETS as readonly string[]).includes(target)) {
				patch.listing[target as (typeof LISTING_TARGETS)[number]] =
					value === null || value === undefined ? '' : String(value);
			} else if ((SOCIAL_TARGETS as readonly string[]).includes(target)) {
				patch.social[target as (typeof SOCIAL_TARGETS)[number]] = cellText(value);
			} else if (target === 'weblink_profile_id') {
				patch.scalars[target] = cellProfileId(value);
			} else if (BOOLEAN_TARGETS.has(target)) {
				const flag = cellBoolean(value);
				if (flag !== undefined) patch.scalars[target] = flag;
			} else if (INTEGER_TARGETS.has(target)) {
				patch.scalars[target] = cellInteger(value);
			} else if (target === 'member_since_date') {
				patch.scalars[target] = cellDate(value);
			} else if (target === 'categories') {
				patch.scalars[target] = cellList(value);
			} else {
				patch.scalars[target] = typeof value === 'string' ? value : cellText(value);
			}
		} catch (error) {
			if (!(error instanceof CellProblem)) throw error;
			errors.push({ column, field: target, message: error.message });
		}
	}
	return { patch, errors };
}

/** The social network of a link's platform name ('Facebook', 'LinkedIn' …), or null. */
function socialKey(platform: string): (typeof SOCIAL_TARGETS)[number] | null {
	const key = platform.trim().toLowerCase().replace(/\s+/g, '');
	if (key === 'x') return 'twitter';
	return (SOCIAL_TARGETS as readonly string[]).includes(key)
		? (key as (typeof SOCIAL_TARGETS)[number])
		: null;
}

const SOCIAL_NAMES: Record<(typeof SOCIAL_TARGETS)[number], string> = {
	facebook: 'Facebook',
	twitter: 'Twitter',
	linkedin: 'LinkedIn',
	instagram: 'Instagram',
	youtube: 'YouTube',
};

/**
 * The business a row describes. Partial (a table, a file in the panel): the fields the file has
 * replace the directory's, the others stay as they are. Whole (`tenant:import`): the row is the
 * whole business, as the tenant file defines it.
 */
function mergeBusiness(
	existing: BusinessInput | null,
	patch: RowPatch,
	whole: boolean,
): Record<string, unknown> {
	const base: Record<string, unknown> = whole || !existing ? {} : structuredClone(existing);
	// A row never carries a location (no column fills it): the directory's stays as it is, placed
	// by the geocoder or by staff, and the apply leaves it alone.
	delete base.location;
	Object.assign(base, patch.scalars, patch.lists);
	if (patch.location !== undefined) base.location = patch.location;
	if (Object.keys(patch.listing).length > 0) {
		const listings = Array.isArray(base.listings)
			? [...(base.listings as Record<string, unknown>[])]
			: [];
		const index = Math.max(
			0,
			listings.findIndex((l) => l.primary_listing === true),
		);
		listings[index] = {
			...(listings[index] ?? { primary_listing: true }),
			...patch.listing,
		};
		base.listings = listings;
	}
	if (Object.keys(patch.social).length > 0) {
		const links = Array.isArray(base.social_media)
			? (base.social_media as { platform: string; url: string }[])
			: [];
		const kept = links.filter((l) => {
			const key = socialKey(l.platform);
			return key === null || patch.social[key] === undefined;
		});
		const added = SOCIAL_TARGETS.filter((key) => patch.social[key]).map((key) => ({
			platform: SOCIAL_NAMES[key],
			url: patch.social[key]!,
		}));
		base.social_media = [...kept, ...added];
	}
	delete base.id;
	return base;
}

/** The fields of a business the dry run compares, in the tenant file's order. */
const BUSINESS_FIELDS = Object.keys(businessSchema.shape).filter((f) => f !== 'id');

/**
 * A business as an import writes it: the tenant file's schema, but the membership-system id is
 * the one the business has (the chamber's own numbering, a business staff added here), or none
 * yet (a business a file without ids adds gets its number when the import is applied).
 */
const importedBusinessSchema = businessSchema.extend({
	weblink_profile_id: z.string().trim().min(1).max(100).optional(),
});

/** Values the database stores when the file leaves a field out, so leaving it out is no change. */
function comparable(field: string, value: unknown): string {
	if (field === 'listing_position' && value === undefined) return '1000';
	if (field === 'membership_rank' && value === undefined) return 'null';
	return JSON.stringify(value ?? null);
}

/**
 * A business the directory holds, from business_document(), as the tenant file's input: the
 * columns the file has no field for dropped, nulls of optional fields left out.
 */
export function documentToInput(document: Record<string, unknown>): BusinessInput {
	const input: Record<string, unknown> = {};
	for (const field of BUSINESS_FIELDS) {
		const value = document[field];
		if (value === null && field !== 'member_since_date') continue;
		if (value !== undefined) input[field] = value;
	}
	return input as BusinessInput;
}

/** What the directory holds for a business the dry run looks at. */
export interface ExistingBusiness {
	id: string;
	version: number;
	removed: boolean;
	document: BusinessInput;
	overrides: readonly string[];
}

function problemColumn(path: readonly PropertyKey[], patch: RowPatch): string {
	const [field] = path;
	if (field === 'listings') {
		const inner = path[2];
		if (typeof inner === 'string' && patch.columns.has(inner)) return patch.columns.get(inner)!;
	}
	if (field === 'social_media') {
		for (const key of SOCIAL_TARGETS) if (patch.columns.has(key)) return patch.columns.get(key)!;
	}
	const direct = typeof field === 'string' ? patch.columns.get(field) : undefined;
	return direct ?? formatIssuePath(path);
}

/**
 * The dry run's decision for one row: invalid (every problem with its column), add, change
 * (field by field; fields staff changed here are kept and shown so) or unchanged.
 */
export function decideRow(
	row: TableRow,
	mapping: Mapping,
	existing: ExistingBusiness | null,
	options: { whole?: boolean; byId?: boolean } = {},
): RowDecision {
	const { patch, errors } = readPatch(row, mapping);
	const weblinkProfileId =
		typeof patch.scalars.weblink_profile_id === 'string'
			? patch.scalars.weblink_profile_id
			: existing?.document.weblink_profile_id != null
				? String(existing.document.weblink_profile_id)
				: null;
	const nameCell = patch.scalars.report_name;
	const decision: RowDecision = {
		action: 'invalid',
		rowNumber: row.rowNumber,
		profileId: existing?.id ?? null,
		weblinkProfileId,
		name:
			(typeof nameCell === 'string' && nameCell.trim()) ||
			(existing?.document.report_name as string | undefined) ||
			null,
		baseVersion: existing?.version ?? null,
		record: null,
		changes: [],
		errors,
	};
	if (weblinkProfileId === null && errors.length === 0 && (options.byId ?? true)) {
		errors.push({
			column: '',
			field: 'weblink_profile_id',
			message: 'Every row needs its membership-system id',
		});
	}
	if (weblinkProfileId !== null && ownId(weblinkProfileId) && !existing && errors.length === 0) {
		// The chamber's own numbers are handed out by the database, never taken from a file.
		errors.push({
			column: patch.columns.get('weblink_profile_id') ?? '',
			field: 'weblink_profile_id',
			message: `No business of this chamber has the id ${weblinkProfileId}`,
		});
	}
	if (errors.length > 0) return decision;

	const merged = mergeBusiness(existing?.document ?? null, patch, options.whole ?? false);
	const parsed = (options.whole ? businessSchema : importedBusinessSchema).safeParse(merged);
	if (!parsed.success) {
		for (const issue of parsed.error.issues) {
			const field = String(issue.path[0] ?? '');
			const message =
				field === 'report_name' && issue.code === 'invalid_type'
					? 'A new business needs its name'
					: issue.message;
			errors.push({ column: problemColumn(issue.path, patch), field, message });
		}
		return decision;
	}
	const record = parsed.data as Business;
	if (!existing) {
		return { ...decision, action: 'add', name: record.report_name, record };
	}
	// A stored value the schema refuses (written by hand) compares as it is stored.
	const stored = importedBusinessSchema.safeParse(existing.document);
	const current = stored.success ? stored.data : (existing.document as unknown as Business);
	const overrides = new Set(existing.overrides);
	if (existing.removed) overrides.add('published');
	const changes: FieldChange[] = [];
	const written: Record<string, unknown> = { ...record, id: existing.id };
	for (const field of BUSINESS_FIELDS) {
		const before = current[field as keyof Business];
		const after = record[field as keyof Business];
		// A file without the business's location leaves it where it is.
		if (field === 'location' && after === undefined) continue;
		if (comparable(field, before) === comparable(field, after)) continue;
		if (overrides.has(field)) {
			changes.push({ field, before, after, kept: true });
			written[field] = before;
		} else changes.push({ field, before, after });
	}
	const action = changes.some((c) => !c.kept) ? 'change' : 'unchanged';
	return {
		...decision,
		action,
		name: record.report_name,
		record: action === 'change' ? (written as Business) : null,
		changes,
	};
}

/** A business a row to confirm may be, with what the directory holds of it. */
export interface CandidateBusiness {
	entry: DirectoryEntry;
	on: MatchRule;
	existing: ExistingBusiness;
}

/**
 * A row of a file without ids that a person must confirm: what applying would do for each
 * business it may be, and for a new business (when the row can be one). A row whose own values
 * are invalid is invalid, whichever business it is.
 */
export function confirmDecision(
	row: TableRow,
	mapping: Mapping,
	choices: readonly CandidateBusiness[],
): RowDecision {
	const options: CandidateDecision[] = [];
	let invalid: RowDecision | null = null;
	for (const choice of choices) {
		const d = decideRow(row, mapping, choice.existing, { byId: false });
		if (d.action === 'invalid') {
			invalid ??= d;
			continue;
		}
		options.push({
			profileId: choice.entry.id,
			weblinkProfileId: choice.entry.weblinkProfileId,
			name: choice.entry.name,
			city: choice.entry.city,
			email: choice.entry.email,
			website: choice.entry.website,
			on: choice.on,
			action: d.action as CandidateDecision['action'],
			baseVersion: d.baseVersion,
			record: d.record,
			changes: d.changes,
		});
	}
	const fresh = decideRow(row, mapping, null, { byId: false });
	if (fresh.action === 'add') {
		options.push({
			profileId: null,
			weblinkProfileId: null,
			name: fresh.name,
			city: null,
			email: null,
			website: null,
			on: null,
			action: 'add',
			baseVersion: null,
			record: fresh.record,
			changes: [],
		});
	}
	if (options.length === 0) return invalid ?? fresh;
	return {
		action: 'confirm',
		rowNumber: row.rowNumber,
		profileId: null,
		weblinkProfileId: null,
		name: fresh.name,
		baseVersion: null,
		record: null,
		changes: [],
		errors: [],
		matchedOn: null,
		candidates: options,
	};
}

/** A row of a file without ids that names the same business as an earlier row. */
export function repeatedDecision(
	row: TableRow,
	name: string | null,
	firstRow: number,
): RowDecision {
	return {
		action: 'invalid',
		rowNumber: row.rowNumber,
		profileId: null,
		weblinkProfileId: null,
		name,
		baseVersion: null,
		record: null,
		changes: [],
		errors: [{ column: '', field: 'report_name', message: `The same business as row ${firstRow}` }],
	};
}

/** A business of the directory the file does not have. */
export function missingDecision(business: {
	id: string;
	weblink_profile_id: string;
	report_name: string;
	version: number;
}): RowDecision {
	return {
		action: 'missing',
		rowNumber: null,
		profileId: business.id,
		weblinkProfileId: business.weblink_profile_id,
		name: business.report_name,
		baseVersion: business.version,
		record: null,
		changes: [],
		errors: [],
	};
}

/** A second row with the same membership-system id: only the first one counts. */
export function duplicateDecision(row: TableRow, id: string, firstRow: number): RowDecision {
	return {
		action: 'invalid',
		rowNumber: row.rowNumber,
		profileId: null,
		weblinkProfileId: id,
		name: null,
		baseVersion: null,
		record: null,
		changes: [],
		errors: [
			{
				column: '',
				field: 'weblink_profile_id',
				message: `The same membership-system id (${id}) as row ${firstRow}`,
			},
		],
	};
}

/** The row's membership-system id, or null when it has none that reads (decideRow says why). */
export function rowProfileId(row: TableRow, mapping: Mapping): string | null {
	const column = Object.entries(mapping).find(([, t]) => t === 'weblink_profile_id')?.[0];
	if (column === undefined) return null;
	try {
		return cellProfileId(row.cells[column]);
	} catch {
		return null;
	}
}

// --- Showing a value -----------------------------------------------------------------------------

/** A field's name as people read it: a list field (not a column) as the Members tab names it. */
export function fieldLabel(field: string): string {
	return (
		(TARGET_LABELS as Record<string, string>)[field] ??
		(FIELD_LABELS as Record<string, string>)[field] ??
		field
	);
}

/** A value in the preview: lists by their main text, long texts cut. */
export function showValue(value: unknown): string {
	if (value === null || value === undefined || value === '') return '(empty)';
	if (Array.isArray(value)) {
		if (value.length === 0) return '(none)';
		return value
			.map((item) =>
				typeof item === 'object' && item !== null
					? String(
							(item as Record<string, unknown>).url ??
								(item as Record<string, unknown>).description ??
								(item as Record<string, unknown>).aff_name ??
								(item as Record<string, unknown>).content_title ??
								JSON.stringify(item),
						)
					: String(item),
			)
			.join('; ')
			.slice(0, 200);
	}
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

// --- The functions' bodies -----------------------------------------------------------------------

/** A file directly in a chamber's folder of the imports bucket (as member_import_path_ok). */
const IMPORT_PATH =
	/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** POST /api/member-imports */
export const startImportSchema = z.object({
	/** The chamber's slug. */
	chamber: z.string({ error: 'chamber is required' }).trim().min(1, 'chamber is required'),
	/**
	 * The uploaded file in the imports bucket: {chamber id}/{name}, directly in the chamber's folder
	 * (the database holds every path to the same rule, member_import_path_ok).
	 */
	path: z
		.string({ error: 'path is required' })
		.trim()
		.min(1, 'path is required')
		.regex(
			IMPORT_PATH,
			"expected the upload's {chamber id}/{file name}, the name of letters, digits, '.', '-' and '_'",
		),
	/** The file's name as the person chose it (shown in the panel). */
	fileName: z.string().trim().min(1).max(300).optional(),
});

/** POST /api/member-imports/{id}/mapping */
export const mappingBodySchema = z.object({
	/** Heading (as in the file) → field, or '' to ignore the column. */
	mapping: z.record(z.string().min(1).max(200), z.string().max(60)),
});

/** POST /api/member-imports/{id}/apply */
export const applyBodySchema = z.object({
	/** What happens to members of the directory the file does not have. */
	missing: z.enum(['keep', 'unpublish'], { error: 'missing must be keep or unpublish' }),
});

// --- A job as the panel reads it -----------------------------------------------------------------

export type ImportState =
	| 'queued'
	| 'reading'
	| 'needs_mapping'
	| 'validating'
	| 'previewed'
	| 'apply_requested'
	| 'applying'
	| 'applied'
	| 'failed'
	| 'discarded';

/** States the background function is working in: the panel polls and shows progress. */
export const WORKING_STATES: readonly ImportState[] = [
	'queued',
	'reading',
	'validating',
	'apply_requested',
	'applying',
];

export interface HeaderInfo {
	header: string;
	/** A few of the column's values, for the person mapping it. */
	samples: string[];
	/** The field it fills now, '' when ignored, null when nothing maps it. */
	field: MappingTarget | '' | null;
}

/** A row of member_imports as the panel reads it (RLS: the chamber's admins). */
export interface ImportJob {
	id: string;
	tenant_id: string;
	kind: 'file' | 'sync';
	source: string;
	state: ImportState;
	auto_apply: boolean;
	headers: HeaderInfo[] | null;
	mapping: Record<string, string>;
	rows_total: number | null;
	rows_read: number;
	rows_validated: number;
	rows_applied: number;
	counts: Partial<ImportCounts>;
	missing_action: 'keep' | 'unpublish' | null;
	error: string | null;
	requested_by_email: string | null;
	applied_by_email: string | null;
	created_at: string;
	updated_at: string;
	previewed_at: string | null;
	applied_at: string | null;
	publish_id: number | null;
	/** When the applied changes are on the site at the latest (they wait for the publish window). */
	live_by: string | null;
}

export const IMPORT_JOB_COLUMNS =
	'id, tenant_id, kind, source, state, auto_apply, headers, mapping, rows_total, rows_read, rows_validated, rows_applied, counts, missing_action, error, requested_by_email, applied_by_email, created_at, updated_at, previewed_at, applied_at, publish_id, live_by';

/** A row of the dry run as the panel reads it (member_import_preview). */
export interface PreviewRow {
	id: number;
	row_number: number | null;
	action: RowAction;
	weblink_profile_id: string | null;
	name: string | null;
	changes: FieldChange[] | null;
	errors: RowError[] | null;
	/** What the row matched its business on (a file without ids; 'id' with ids). */
	matched_on: MatchRule | null;
	/** A row to confirm: its choices (without the records), and the one chosen so far. */
	candidates: PreviewCandidate[] | null;
	choice: string | null;
}

/** One choice of a row to confirm as the panel shows it (member_import_preview). */
export interface PreviewCandidate {
	/** What the person sends to choose it: the business's id, or 'new'. */
	choice: string;
	weblink_profile_id: string | null;
	name: string | null;
	city: string | null;
	email: string | null;
	website: string | null;
	on: MatchRule | null;
	action: 'add' | 'change' | 'unchanged';
	changes: FieldChange[] | null;
}

/** Counts with every key, from a job's stored counts. */
export function fullCounts(counts: Partial<ImportCounts>): ImportCounts {
	return { ...emptyCounts(), ...counts };
}
