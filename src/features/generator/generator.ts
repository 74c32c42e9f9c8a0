import { z } from 'zod';
import {
	chamberConfigSchema,
	EVENTS_CALENDARS,
	FONT_CHOICES,
	type ChamberConfig,
	type ChamberConfigInput,
} from '../config/config.ts';
import { fieldLabel } from '../admin/config/labels.ts';
import { themeCss } from '../config/theme.ts';
import { slugify } from '../directory/rules.ts';
import { parseTenantFile, type TenantFileInput } from '../tenants/tenant-file.ts';
import { DEPLOYMENT_VARIABLES } from './deployment-env.ts';

// The configuration generator: a form that onboards a new chamber. Pure
// logic, no I/O. The form is a flat record of field path → text, the way the inputs hold it; every
// output is built through the configuration's and the tenant file's own zod schemas, so the
// generator cannot produce something the import would refuse.

// --- The form ------------------------------------------------------------------------------------

type FieldKind = 'text' | 'email' | 'url' | 'tel' | 'color' | 'select' | 'textarea' | 'year';

export interface FieldSpec {
	/** Dotted path into the configuration, e.g. 'contact.address'; 'adminEmail' is the first admin. */
	path: string;
	label: string;
	kind: FieldKind;
	required?: boolean;
	options?: readonly string[];
	hint?: string;
}

interface FieldGroup {
	title: string;
	fields: readonly FieldSpec[];
}

export interface GeneratorTab {
	id: 'identity' | 'branding' | 'contact' | 'urls' | 'content';
	label: string;
	groups: readonly FieldGroup[];
}

/** A configuration field, called what the admin panel calls it (labels.ts). */
const field = (path: string, kind: FieldKind, more: Partial<FieldSpec> = {}): FieldSpec => ({
	path,
	label: fieldLabel(path),
	kind,
	...more,
});
const colour = (path: string) => field(path, 'color');
const url = (path: string, required = false) => field(path, 'url', { required });

export const GENERATOR_TABS: readonly GeneratorTab[] = [
	{
		id: 'identity',
		label: 'Identity',
		groups: [
			{
				title: 'Chamber',
				fields: [
					field('name', 'text', { required: true }),
					field('slug', 'text', {
						required: true,
						hint: 'Lowercase letters, digits and hyphens; the TENANT of its deployment.',
					}),
					field('city', 'text', { required: true }),
					field('state', 'text', { required: true, hint: '2 letters' }),
					field('foundedYear', 'year'),
				],
			},
			{
				title: 'First administrator',
				fields: [
					{
						path: 'adminEmail',
						label: 'Administrator e-mail',
						kind: 'email',
						hint: 'Gets an e-mail to set a password when the chamber is created.',
					},
				],
			},
		],
	},
	{
		id: 'branding',
		label: 'Branding',
		groups: [
			{
				title: 'Colors',
				fields: [
					colour('colors.primary'),
					colour('colors.primaryLight'),
					colour('colors.primaryDark'),
					colour('colors.secondary'),
					colour('colors.secondaryLight'),
					colour('colors.secondaryDark'),
				],
			},
			{
				title: 'Text colors',
				fields: [
					colour('textColors.heading'),
					colour('textColors.body'),
					colour('textColors.link'),
					colour('textColors.linkHover'),
					colour('textColors.onDarkHeading'),
					colour('textColors.onDarkBody'),
				],
			},
			{
				title: 'Fonts',
				fields: [
					field('fonts.heading', 'select', { options: FONT_CHOICES }),
					field('fonts.body', 'select', { options: FONT_CHOICES }),
				],
			},
			{
				// Paths of files a deployment ships; the panel uploads logos instead.
				title: 'Logos',
				fields: [
					{ path: 'logo.standard', label: 'Standard logo path', kind: 'text' },
					{ path: 'logo.stacked', label: 'Stacked logo path (mobile)', kind: 'text' },
					{ path: 'logo.favicon', label: 'Favicon path', kind: 'text' },
				],
			},
		],
	},
	{
		id: 'contact',
		label: 'Contact',
		groups: [
			{
				title: 'Contact information',
				fields: [
					field('contact.address', 'text', { required: true }),
					field('contact.addressLine2', 'text'),
					field('contact.city', 'text'),
					field('contact.state', 'text', { hint: '2 letters' }),
					field('contact.zip', 'text'),
					field('contact.phone', 'tel', { required: true }),
					field('contact.email', 'email', { required: true }),
				],
			},
			{
				title: 'Social media',
				fields: [
					url('social.facebook'),
					url('social.twitter'),
					url('social.linkedin'),
					url('social.instagram'),
					url('social.youtube'),
				],
			},
		],
	},
	{
		id: 'urls',
		label: 'URLs',
		groups: [
			{
				title: 'Core URLs',
				fields: [
					url('urls.mainWebsite', true),
					url('urls.joinUrl'),
					url('urls.eventRegistrationBaseUrl'),
					url('urls.privacyUrl'),
					url('urls.contactUrl'),
				],
			},
			{
				title: 'About the chamber',
				fields: [
					url('urls.aboutUrl'),
					url('urls.teamUrl'),
					url('urls.presidentUrl'),
					url('urls.boardUrl'),
					url('urls.committeesUrl'),
					url('urls.annualReportUrl'),
				],
			},
			{
				title: 'News, events and advocacy',
				fields: [
					url('urls.eventsUrl'),
					url('urls.networkingUrl'),
					url('urls.newsUrl'),
					url('urls.advocacyUrl'),
				],
			},
			{
				title: 'Footer resources',
				fields: [
					url('urls.businessResourcesUrl'),
					url('urls.workforceUrl'),
					url('urls.communityGuideUrl'),
					url('urls.communityMapUrl'),
					url('urls.jobBoardUrl'),
				],
			},
		],
	},
	{
		id: 'content',
		label: 'Content',
		groups: [
			{
				title: 'Home page',
				fields: [
					field('content.heroTitle', 'text'),
					field('content.heroSubtitle', 'text'),
					field('content.featuredTitle', 'text'),
					field('content.categoriesTitle', 'text'),
					field('content.whyJoinTitle', 'text'),
					field('content.whyJoinText', 'textarea'),
					field('content.whyJoinButtonText', 'text'),
				],
			},
			{
				title: 'Directory and profiles',
				fields: [
					field('content.directoryTitle', 'text'),
					field('content.sidebarTitle', 'text'),
					field('content.sidebarTagline', 'text'),
					field('content.sidebarButtonText', 'text'),
				],
			},
			{
				title: 'Events',
				fields: [
					field('content.eventsTabLabel', 'text'),
					field('content.communityEventsTabLabel', 'text'),
					field('content.defaultEventsCalendar', 'select', { options: EVENTS_CALENDARS }),
				],
			},
			{
				title: 'Footer and search engines',
				fields: [
					field('content.footerTagline', 'text'),
					field('content.copyrightText', 'text'),
					field('content.metaDescription', 'textarea', { hint: 'At most 160 characters.' }),
					field('content.metaKeywords', 'text'),
				],
			},
		],
	},
];

export const GENERATOR_FIELDS: readonly FieldSpec[] = GENERATOR_TABS.flatMap((tab) =>
	tab.groups.flatMap((group) => group.fields),
);

const FIELD_BY_PATH = new Map(GENERATOR_FIELDS.map((field) => [field.path, field]));

/** The eight required fields, in the form's order. */
export const REQUIRED_FIELDS: readonly string[] = GENERATOR_FIELDS.filter((f) => f.required).map(
	(f) => f.path,
);

export type GeneratorForm = Readonly<Record<string, string>>;

/** The defaults the configuration itself has (colours, Inter, the events calendar). */
const CONFIG_DEFAULTS: ChamberConfig = chamberConfigSchema.parse({ name: 'x', slug: 'x' });

function valueAt(config: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((node, key) => {
		return node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
	}, config);
}

/** A new, empty form: text fields blank, colours, fonts and choices at the configuration's defaults. */
export function emptyForm(): GeneratorForm {
	const form: Record<string, string> = {};
	for (const field of GENERATOR_FIELDS) {
		const fallback = valueAt(CONFIG_DEFAULTS, field.path);
		form[field.path] =
			field.kind === 'color' || field.kind === 'select' ? String(fallback ?? '') : '';
	}
	return form;
}

// --- Auto-fill -----------------------------------------------------------------------------------

/** Where a chamber's logos live in a deployment that ships its own files. */
function logoPaths(slug: string): { standard: string; stacked: string; favicon: string } {
	if (!slug) return { standard: '', stacked: '', favicon: '' };
	return {
		standard: `/logos/${slug}/logo.svg`,
		stacked: `/logos/${slug}/logo-stacked.svg`,
		favicon: `/logos/${slug}/favicon.svg`,
	};
}

/** State fields take at most two letters, uppercased as typed. */
function stateInput(value: string): string {
	return value
		.replace(/[^A-Za-z]/g, '')
		.slice(0, 2)
		.toUpperCase();
}

/**
 * Sets one field and applies the auto-fill rules: a chamber name fills an empty slug, a slug fills
 * the logo paths, city and state fill an empty contact city and state. "Empty" includes a value
 * that was itself filled in automatically and not edited since, so the slug follows the name while
 * it is typed, until the slug is edited by hand.
 */
export function setField(form: GeneratorForm, path: string, raw: string): GeneratorForm {
	const value = path === 'state' || path === 'contact.state' ? stateInput(raw) : raw;
	const next: Record<string, string> = { ...form, [path]: value };
	const follows = (target: string, previousSource: string) =>
		(form[target] ?? '') === '' || form[target] === previousSource;

	if (path === 'name') {
		const before = slugify(form.name ?? '');
		if (follows('slug', before)) return setField(next, 'slug', slugify(value));
	}
	if (path === 'slug') {
		const before = logoPaths(form.slug ?? '');
		const after = logoPaths(value);
		for (const kind of ['standard', 'stacked', 'favicon'] as const) {
			if (follows(`logo.${kind}`, before[kind])) next[`logo.${kind}`] = after[kind];
		}
	}
	if (path === 'city' && follows('contact.city', form.city ?? '')) next['contact.city'] = value;
	if (path === 'state' && follows('contact.state', form.state ?? '')) next['contact.state'] = value;
	return next;
}

// --- Progress ------------------------------------------------------------------------------------

export interface Progress {
	filled: number;
	total: number;
	/** filled / total, rounded. */
	percent: number;
}

export function progress(form: GeneratorForm): Progress {
	const filled = REQUIRED_FIELDS.filter((path) => (form[path] ?? '').trim() !== '').length;
	const total = REQUIRED_FIELDS.length;
	return { filled, total, percent: Math.round((filled / total) * 100) };
}

// --- Form → configuration ------------------------------------------------------------------------

/** The configuration input the form describes: set fields only, nested as the schema wants. */
function configInput(form: GeneratorForm): ChamberConfigInput {
	const out: Record<string, unknown> = {};
	for (const field of GENERATOR_FIELDS) {
		if (field.path === 'adminEmail') continue;
		const value = (form[field.path] ?? '').trim();
		if (value === '') continue;
		const keys = field.path.split('.');
		let node = out;
		for (const key of keys.slice(0, -1)) {
			node = (node[key] ??= {}) as Record<string, unknown>;
		}
		node[keys.at(-1)!] = field.kind === 'year' && /^\d+$/.test(value) ? Number(value) : value;
	}
	return out as ChamberConfigInput;
}

export interface FieldError {
	path: string;
	label: string;
	message: string;
}

function errorsOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): FieldError[] {
	return error.issues.map((issue) => {
		const path = issue.path.slice(prefix.length).map(String).join('.');
		return { path, label: FIELD_BY_PATH.get(path)?.label ?? path, message: issue.message };
	});
}

export type ConfigResult =
	| { ok: true; config: ChamberConfig; input: ChamberConfigInput }
	| { ok: false; errors: FieldError[]; input: ChamberConfigInput };

/**
 * The form checked by the configuration's own schema. Required fields left empty are reported by
 * the progress bar rather than as errors; only the values given are judged here.
 */
export function buildConfig(form: GeneratorForm): ConfigResult {
	const input = configInput(form);
	const errors: FieldError[] = [];
	const email = (form.adminEmail ?? '').trim();
	if (email && !z.email().safeParse(email).success) {
		errors.push({
			path: 'adminEmail',
			label: FIELD_BY_PATH.get('adminEmail')!.label,
			message: 'Expected an e-mail address',
		});
	}
	if ((form['content.metaDescription'] ?? '').trim().length > 160) {
		errors.push({
			path: 'content.metaDescription',
			label: fieldLabel('content.metaDescription'),
			message: 'At most 160 characters',
		});
	}
	const parsed = chamberConfigSchema.safeParse({
		...input,
		// Name and slug are required by the schema; their absence is the progress bar's to show.
		name: input.name ?? 'x',
		slug: input.slug ?? 'x',
	});
	if (!parsed.success) errors.push(...errorsOf(parsed.error));
	if (errors.length > 0 || !parsed.success) return { ok: false, errors, input };
	return { ok: true, config: parsed.data, input };
}

// --- Outputs ---------------------------------------------------------------------------------------

/** The configuration as code: the `config` section of the chamber's tenant file. */
export function configurationCode(form: GeneratorForm): string {
	const input = configInput(form);
	const name = input.name ?? 'New chamber';
	const slug = input.slug ?? 'new-chamber';
	return [
		`// Chamber configuration: ${name}`,
		`// The "config" section of tenants/${slug}.json (npm run tenant:import -- tenants/${slug}.json).`,
		`// Every field left out takes its default; the admin panel edits the same fields.`,
		JSON.stringify(input, null, 2),
		'',
	].join('\n');
}

/** The colours, text colours and fonts the form gives, each section at its defaults while invalid. */
export function themeOf(
	form: GeneratorForm,
): Pick<ChamberConfig, 'colors' | 'textColors' | 'fonts'> {
	const input = configInput(form);
	const section = <K extends 'colors' | 'textColors' | 'fonts'>(key: K): ChamberConfig[K] => {
		const parsed = chamberConfigSchema.shape[key].safeParse(input[key] ?? {});
		return (parsed.success ? parsed.data : CONFIG_DEFAULTS[key]) as ChamberConfig[K];
	};
	return { colors: section('colors'), textColors: section('textColors'), fonts: section('fonts') };
}

/** The styling configuration: the CSS custom properties every page of the site sets. */
export function stylingCode(form: GeneratorForm): string {
	const name = (form.name ?? '').trim() || 'the chamber';
	return `/* Theme of ${name}: colours, text colours and fonts, as every page sets them. */\n${themeCss(themeOf(form))}\n`;
}

/** The environment variables a deployment of this chamber needs, with placeholders. */
export function environmentText(form: GeneratorForm): string {
	const slug = (form.slug ?? '').trim() || 'new-chamber';
	const name = (form.name ?? '').trim() || 'new chamber';
	const lines = [
		`# Environment of the ${name} deployment (the Netlify site's environment variables).`,
	];
	for (const variable of DEPLOYMENT_VARIABLES) {
		lines.push('', `# ${variable.description}${variable.required ? ' Required.' : ''}`);
		lines.push(`${variable.name}=${variable.example.replaceAll('{slug}', slug)}`);
	}
	return lines.join('\n') + '\n';
}

/** 'Download All': the three outputs in one text file. */
export function downloadAllText(form: GeneratorForm): string {
	const slug = (form.slug ?? '').trim() || 'new-chamber';
	return [
		`# ${slug}: configuration, styling and environment`,
		'',
		'## Configuration',
		configurationCode(form),
		'## Styling',
		stylingCode(form),
		'## Environment variables',
		environmentText(form),
	].join('\n');
}

// --- Drafts ------------------------------------------------------------------------------------------

const DRAFT_FORMAT = 'chamber-generator-draft';

/** 'Save Draft (JSON)': the form as it stands. */
export function draftJson(form: GeneratorForm): string {
	const fields: Record<string, string> = {};
	for (const field of GENERATOR_FIELDS) fields[field.path] = form[field.path] ?? '';
	return JSON.stringify({ format: DRAFT_FORMAT, version: 1, fields }, null, 2) + '\n';
}

export type DraftResult =
	{ ok: true; form: GeneratorForm; dropped: string[] } | { ok: false; error: 'Invalid JSON file' };

/**
 * 'Load Draft': a file that is no JSON is refused ('Invalid JSON file'). Otherwise
 * every known field holding text is taken (state fields normalised, a font or calendar from its
 * list only), and every other entry is dropped and named, so a draft from an older or hand-edited
 * form loads what it can. A flat object of fields is accepted as well as the saved format.
 */
export function readDraft(text: string): DraftResult {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch {
		return { ok: false, error: 'Invalid JSON file' };
	}
	const form: Record<string, string> = { ...emptyForm() };
	if (!data || typeof data !== 'object' || Array.isArray(data)) {
		return { ok: true, form, dropped: ['the whole file (it holds no form fields)'] };
	}
	const record = data as Record<string, unknown>;
	const saved = record.format === DRAFT_FORMAT;
	const fields = (saved ? record.fields : record) as Record<string, unknown> | undefined;
	const dropped = saved
		? Object.keys(record).filter((key) => !['format', 'version', 'fields'].includes(key))
		: [];
	for (const [path, value] of Object.entries(fields && typeof fields === 'object' ? fields : {})) {
		const spec = FIELD_BY_PATH.get(path);
		const text =
			typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
		if (!spec || text === undefined || (spec.options && !spec.options.includes(text))) {
			dropped.push(path);
			continue;
		}
		form[path] = path === 'state' || path === 'contact.state' ? stateInput(text) : text;
	}
	return { ok: true, form, dropped };
}

// --- The tenant file -----------------------------------------------------------------------------------

/**
 * 'Download tenant file': what `npm run tenant:import` takes as it is — the configuration, no
 * businesses yet, and the first admin without a password (the import leaves them without one; they
 * set it through the password-reset e-mail). Checked with the import's own parser.
 */
function tenantFileInput(form: GeneratorForm): TenantFileInput {
	const input = configInput(form);
	const email = (form.adminEmail ?? '').trim().toLowerCase();
	const file: TenantFileInput = {
		$comment: `Generated by the configuration generator for ${input.name ?? ''}.`,
		tenant: { slug: input.slug ?? '', name: input.name ?? '' },
		config: input,
		users: email ? [{ email, role: 'admin' }] : [],
	};
	return file;
}

export type TenantFileResult =
	{ ok: true; json: string; file: TenantFileInput } | { ok: false; message: string };

export function buildTenantFile(form: GeneratorForm): TenantFileResult {
	const missing = REQUIRED_FIELDS.filter((path) => (form[path] ?? '').trim() === '');
	if (missing.length > 0) {
		const labels = missing.map((path) => FIELD_BY_PATH.get(path)?.label ?? path);
		return { ok: false, message: `Fill in the required fields first: ${labels.join(', ')}` };
	}
	const built = buildConfig(form);
	if (!built.ok) {
		const first = built.errors[0]!;
		return { ok: false, message: `${first.label}: ${first.message}` };
	}
	const file = tenantFileInput(form);
	try {
		parseTenantFile(file, 'the generated tenant file');
	} catch (error) {
		return { ok: false, message: (error as Error).message };
	}
	return { ok: true, json: JSON.stringify(file, null, 2) + '\n', file };
}
