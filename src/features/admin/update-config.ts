import { z } from 'zod';
import type { Json } from '../../lib/database.ts';
import {
	categoryDisplaySchema,
	chamberConfigSchema,
	colorsSchema,
	CONFIG_COLUMNS,
	contactSchema,
	contentSchema,
	EDITOR_FEATURE_KEYS,
	featuredBusinessesSchema,
	featuresSchema,
	fontsSchema,
	footerLabelsSchema,
	navigationSchema,
	searchPageSchema,
	socialSchema,
	textColorsSchema,
	urlsSchema,
	type ChamberConfig,
} from '../config/config.ts';
import type { AdminRole } from '../auth/auth.ts';

// POST /api/update-config: the body forms, their validation with the configuration's
// own section schemas (one source of truth with the build and the import), and the one database
// write each becomes. Pure: the function and the panel both use it.

/** Top-level fields saved as `{field, value}`. */
export const TOP_LEVEL_FIELDS = ['name', 'city', 'state', 'foundedYear'] as const;
type TopLevelField = (typeof TOP_LEVEL_FIELDS)[number];

/** Sections saved one field per call, as `{section, field, value}`. */
const FIELD_SECTIONS = {
	fonts: fontsSchema,
	textColors: textColorsSchema,
	contact: contactSchema,
	social: socialSchema,
	urls: urlsSchema,
	content: contentSchema,
	footerLabels: footerLabelsSchema,
	features: featuresSchema,
} as const;
type FieldSection = keyof typeof FIELD_SECTIONS;

/** Sections saved whole, as `{colors: {...}}`, `{navigation: {...}}` and so on. */
const WHOLE_SECTIONS = {
	colors: colorsSchema,
	navigation: navigationSchema,
	featuredBusinesses: featuredBusinessesSchema,
	categoryDisplay: categoryDisplaySchema,
	searchPage: searchPageSchema,
} as const;
type WholeSection = keyof typeof WHOLE_SECTIONS;

/** One save call's body without `chamber`: what the panel sends for one change. */
type ConfigChange =
	| { field: TopLevelField; value: unknown }
	| { section: FieldSection; field: string; value: unknown }
	| { [K in WholeSection]: { [P in K]: unknown } }[WholeSection];

/** The database write a change becomes (public.update_chamber_config). */
export interface ConfigWrite {
	column: string;
	/** The section whose version the change states: identity for the top-level fields. */
	section: VersionSection;
	/** The key inside a jsonb column, or null for a whole column. */
	field: string | null;
	/** The validated value (the schema's output: trimmed, uppercased, defaults filled). */
	value: Json;
	/** Where the change lands, e.g. 'content.heroTitle', for messages and the publish's reason. */
	path: string;
}

/**
 * A section as the database versions it (config_versions, audit_log's naming): the top-level
 * fields are 'identity', every other section keeps its own name.
 */
export type VersionSection = 'identity' | FieldSection | WholeSection;

/** Each section's version as loaded with the configuration (chamber_config.config_versions). */
export type ConfigVersions = Partial<Record<string, number>>;

export const configVersionsSchema = z.record(z.string(), z.number().int().nonnegative());

/** update_chamber_config's answer. */
export const savedVersionSchema = z.object({
	updatedAt: z.string(),
	/** The section's version after the save. */
	version: z.number().int().nonnegative(),
	/** The version the database found before it: equal to the one stated when nobody came between. */
	previousVersion: z.number().int().nonnegative(),
});
export type SavedVersion = z.output<typeof savedVersionSchema>;

export class ConfigChangeError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ConfigChangeError';
	}
}

const chamberSchema = z
	.string({ error: 'Expected chamber, the chamber slug' })
	.trim()
	.min(1, { error: 'Expected chamber, the chamber slug' });

function firstIssue(error: z.ZodError, path: string): string {
	const issue = error.issues[0];
	const where = [path, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
	return `${where}: ${issue?.message ?? 'Invalid value'}`;
}

function validate(schema: z.ZodType, value: unknown, path: string): Json {
	const result = schema.safeParse(value, { reportInput: true });
	if (!result.success) throw new ConfigChangeError(firstIssue(result.error, path));
	// The configuration's schemas describe JSON: their output is JSON too.
	return result.data as Json;
}

const has = (body: object, key: string) => Object.hasOwn(body, key);

/**
 * The version a body states, or null when it states none: the specification's bodies carry no
 * version, and such a change is written whatever the version now (last write wins). A version
 * that is there must be one: `null` or `-1` is a mistake, not a way of leaving it out.
 */
function parseVersion(body: Record<string, unknown>, section: VersionSection): number | null {
	if (!has(body, 'version')) return null;
	const version = body.version;
	if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
		throw new ConfigChangeError(
			`Expected version, the version of ${section} the change was made from (config_versions), received ${JSON.stringify(version) ?? 'nothing'}; leave it out to write whatever the version now`,
		);
	}
	return version;
}

function asBody(input: unknown): Record<string, unknown> {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		throw new ConfigChangeError('Expected a JSON object');
	}
	return input as Record<string, unknown>;
}

/** The chamber (slug) an update-config body names: who may change it is decided on this first. */
export function readChamber(input: unknown): string {
	const chamber = chamberSchema.safeParse(asBody(input).chamber);
	if (!chamber.success) throw new ConfigChangeError(chamber.error.issues[0]!.message);
	return chamber.data;
}

/** What a change is to, known before its value is read: the caller's role is judged on it. */
export interface ChangeTarget {
	section: VersionSection;
	/** The field of a field section; null for a top-level field or a whole section. */
	field: string | null;
}

/**
 * Why `role` may not make a change to `target`, in the database's own words
 * (chamber_config_check_role), or null when it may: an editor changes content and the display
 * toggles of EDITOR_FEATURE_KEYS, nothing else.
 */
export function roleRefusal(role: AdminRole, target: ChangeTarget): string | null {
	if (role !== 'editor' || target.section === 'content') return null;
	if (target.section === 'features') {
		if ((EDITOR_FEATURE_KEYS as readonly (string | null)[]).includes(target.field)) return null;
		return `Editors can change content and text only, not features.${target.field}`;
	}
	return `Editors can change content and text only, not ${target.section}`;
}

/**
 * Reads one update-config body: `{chamber}` plus exactly one of the forms above, optionally
 * `version` and `publish`. `authorise` is called with the change's target once the form is known
 * and before the value is validated, so a caller who may not make the change is refused whatever
 * the value. Throws ConfigChangeError naming the field when the form or the value is wrong.
 */
export function parseConfigChange(
	input: unknown,
	authorise: (target: ChangeTarget) => void = () => {},
): {
	chamber: string;
	write: ConfigWrite;
	/**
	 * The version of write.section the change was made from; null when the body states none, and
	 * the change is written whatever the version now (last write wins).
	 */
	version: number | null;
	/**
	 * Whether this call publishes the site (default true). The panel saves several changes with
	 * `publish: false` and then asks for one publish, so a save of three fields is one build.
	 */
	publish: boolean;
} {
	const body = asBody(input);
	const chamber = readChamber(body);
	if (has(body, 'publish') && typeof body.publish !== 'boolean') {
		throw new ConfigChangeError(
			`Expected publish to be true or false, received ${JSON.stringify(body.publish)}`,
		);
	}
	const publish = body.publish !== false;

	const whole = (Object.keys(WHOLE_SECTIONS) as WholeSection[]).filter((key) => has(body, key));
	const forms = whole.length + (has(body, 'field') ? 1 : 0);
	if (forms !== 1) {
		throw new ConfigChangeError(
			'Expected one change: {field, value}, {section, field, value}, or one of colors, navigation, featuredBusinesses, categoryDisplay, searchPage',
		);
	}
	if (whole.length === 1) {
		const section = whole[0]!;
		authorise({ section, field: null });
		const value = validate(WHOLE_SECTIONS[section], body[section], section);
		return {
			chamber,
			write: { column: CONFIG_COLUMNS[section], section, field: null, value, path: section },
			version: parseVersion(body, section),
			publish,
		};
	}
	if (!has(body, 'value')) throw new ConfigChangeError('Expected value');
	const field = body.field;
	if (typeof field !== 'string') throw new ConfigChangeError('Expected field, a field name');

	if (has(body, 'section')) {
		const section = body.section;
		if (typeof section !== 'string' || !Object.hasOwn(FIELD_SECTIONS, section)) {
			throw new ConfigChangeError(
				`Expected section to be one of ${Object.keys(FIELD_SECTIONS).join(', ')}, received ${JSON.stringify(section)}`,
			);
		}
		const shape = FIELD_SECTIONS[section as FieldSection].shape as Record<string, z.ZodType>;
		const path = `${section}.${field}`;
		authorise({ section: section as FieldSection, field });
		if (!Object.hasOwn(shape, field)) throw new ConfigChangeError(`${path}: no such field`);
		const value = validate(shape[field]!, body.value, path);
		return {
			chamber,
			write: {
				column: CONFIG_COLUMNS[section as FieldSection],
				section: section as FieldSection,
				field,
				value: value ?? null,
				path,
			},
			version: parseVersion(body, section as FieldSection),
			publish,
		};
	}
	if (!(TOP_LEVEL_FIELDS as readonly string[]).includes(field)) {
		throw new ConfigChangeError(
			`Expected field to be one of ${TOP_LEVEL_FIELDS.join(', ')} (or a section with its field), received ${JSON.stringify(field)}`,
		);
	}
	authorise({ section: 'identity', field: null });
	const shape = chamberConfigSchema.shape as Record<string, z.ZodType>;
	const value = validate(shape[field]!, body.value, field);
	return {
		chamber,
		write: {
			column: CONFIG_COLUMNS[field as TopLevelField],
			section: 'identity',
			field: null,
			value: value ?? null,
			path: field,
		},
		version: parseVersion(body, 'identity'),
		publish,
	};
}

// --- The panel's side: from an edited configuration to the calls that save it ------------------

/** A change the panel will send, with the message for when it fails (docs/behaviour.md#saving). */
export interface PendingChange {
	body: ConfigChange;
	/** The section whose version the call states. */
	section: VersionSection;
	/** 'content.heroTitle', 'colors', 'name', ... */
	path: string;
	failure: string;
}

const FIELD_FAILURE: Record<FieldSection, (field: string) => string> = {
	fonts: (field) => `Failed to save ${field} font`,
	textColors: (field) => `Failed to save ${field} color`,
	contact: (field) => `Failed to save contact field: ${field}`,
	social: (field) => `Failed to save social media field: ${field}`,
	urls: (field) => `Failed to save URL field: ${field}`,
	content: (field) => `Failed to save content field: ${field}`,
	footerLabels: (field) => `Failed to save footer label: ${field}`,
	features: (field) => `Failed to save feature: ${field}`,
};

const WHOLE_FAILURE: Record<WholeSection, string> = {
	colors: 'Failed to save colors',
	navigation: 'Failed to save navigation',
	featuredBusinesses: 'Failed to save featured businesses settings',
	categoryDisplay: 'Failed to save category display settings',
	searchPage: 'Failed to save search page settings',
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The calls that turn `saved` into `draft`, in update-config's forms: one per changed top-level
 * field and per changed field of a field section, one per changed whole section. Empty when
 * nothing differs, which is when the panel has no unsaved changes.
 */
export function pendingChanges(saved: ChamberConfig, draft: ChamberConfig): PendingChange[] {
	const changes: PendingChange[] = [];
	for (const field of TOP_LEVEL_FIELDS) {
		if (!same(saved[field], draft[field])) {
			changes.push({
				body: { field, value: draft[field] },
				section: 'identity',
				path: field,
				failure: `Failed to save ${field}`,
			});
		}
	}
	for (const section of Object.keys(FIELD_SECTIONS) as FieldSection[]) {
		const before = saved[section] as Record<string, unknown>;
		const after = draft[section] as Record<string, unknown>;
		for (const field of Object.keys(after)) {
			if (!same(before[field], after[field])) {
				changes.push({
					body: { section, field, value: after[field] ?? null },
					section,
					path: `${section}.${field}`,
					failure: FIELD_FAILURE[section](field),
				});
			}
		}
	}
	for (const section of Object.keys(WHOLE_SECTIONS) as WholeSection[]) {
		if (!same(saved[section], draft[section])) {
			changes.push({
				body: { [section]: draft[section] } as ConfigChange,
				section,
				path: section,
				failure: WHOLE_FAILURE[section],
			});
		}
	}
	return changes;
}
