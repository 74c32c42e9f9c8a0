import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { z } from 'zod';
import '../../lib/zod-csp.ts';

/**
 * Member statistics (docs/reports.md): what is counted per business and day, the batch the
 * page's statistics script sends to POST /api/stats, and the report's periods and totals. Pure
 * logic, shared by the function, the Reports tab and the monthly e-mail.
 */

/** The actions a visitor can take on a card or a profile, in the order reports list them. */
export const ACTION_KINDS = [
	'website',
	'phone',
	'email',
	'message',
	'directions',
	'share',
	'social_facebook',
	'social_twitter',
	'social_linkedin',
	'social_instagram',
	'social_youtube',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/**
 * Every kind `business_stats` counts (the migration's check lists the same): a card shown, a
 * profile view, the search words that led to a view, and the actions.
 */
export const STAT_KINDS = ['shown', 'view', 'search', ...ACTION_KINDS] as const;
export type StatKind = (typeof STAT_KINDS)[number];

/** What a page may send: everything but `search`, which the function derives from a view's words. */
export const EVENT_KINDS = ['shown', 'view', ...ACTION_KINDS] as const;

/** How each kind is named in the reports, the CSV files and the monthly e-mail. */
export const KIND_LABELS: Readonly<Record<StatKind, string>> = {
	shown: 'Shown',
	view: 'Profile views',
	search: 'Views from a search',
	website: 'Website',
	phone: 'Phone',
	email: 'E-mail form opened',
	message: 'Message sent',
	directions: 'Directions and map',
	share: 'Share',
	social_facebook: 'Facebook',
	social_twitter: 'Twitter',
	social_linkedin: 'LinkedIn',
	social_instagram: 'Instagram',
	social_youtube: 'YouTube',
};

/**
 * The most events one address counts in a UTC day (/api/stats): a visitor who browses all day
 * long sees fewer cards and profiles than this; a script that sends more counts no more.
 */
export const DAILY_COUNTS_PER_ADDRESS = 500;

/** At most this many events in one batch. */
export const MAX_BATCH_EVENTS = 50;
/** The longest body /api/stats reads: 50 events with the longest search text fit well within. */
export const MAX_BATCH_BYTES = 16 * 1024;
/** Search text is kept lower case, its words only, and cut at this length (characters)… */
const MAX_SEARCH_WORDS = 100;
/** … and at this many words (the search itself reads no more: search_tsquery). */
const MAX_SEARCH_TERMS = 10;

/** One thing that happened on a page. */
const statEventSchema = z.object({
	/** What happened: shown, view, or an action (website, phone, email, …). */
	kind: z.enum(EVENT_KINDS, { error: 'kind is not a known kind' }),
	/** profiles.id of the business (guid: imported ids need not carry an RFC 4122 version). */
	business: z.guid({ error: 'business must be a business id' }),
	/** For a view reached from this site's search: what was searched (at most 200 characters). */
	words: z.string().max(200, { error: 'words must be at most 200 characters' }).optional(),
});
export type StatEvent = z.output<typeof statEventSchema>;

/** The body of POST /api/stats. */
export const statBatchSchema = z.object({
	/** 1 to 50 events, in the order they happened. */
	events: z
		.array(statEventSchema)
		.min(1, { error: 'events must not be empty' })
		.max(MAX_BATCH_EVENTS, { error: `events must hold at most ${MAX_BATCH_EVENTS} events` }),
});

/** A word of a search: letters, marks and digits, with an apostrophe inside (joe's). */
const SEARCH_WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

/**
 * Search text as it is counted: its words, lower case, one space between them, at most 10
 * words and 100 characters. Punctuation goes (the search reads none of it), so what a report
 * lists is the words that found the business, never a visitor's symbols.
 */
export function normaliseSearchWords(words: string): string {
	const found = words.normalize('NFC').toLowerCase().match(SEARCH_WORD) ?? [];
	// Cut by code point, as the database counts them (a cut never splits a surrogate pair).
	return Array.from(found.slice(0, MAX_SEARCH_TERMS).join(' '))
		.slice(0, MAX_SEARCH_WORDS)
		.join('')
		.trim();
}

/** One counter to add to: a business, a kind (and for `search` its words), how many. */
/** A type, not an interface, so it passes as JSON to record_business_stats. */
export type StatCount = {
	business: string;
	kind: StatKind;
	words?: string;
	count: number;
};

/**
 * The counters a batch adds to: a view with search words also counts a `search` under its words.
 * Summed per business, kind and words, so one upsert touches each counter once.
 */
export function countEvents(events: readonly StatEvent[]): StatCount[] {
	const counts = new Map<string, StatCount>();
	const add = (business: string, kind: StatKind, words?: string) => {
		const key = `${business}|${kind}|${words ?? ''}`;
		const found = counts.get(key);
		if (found) found.count += 1;
		else counts.set(key, { business, kind, ...(words ? { words } : {}), count: 1 });
	};
	for (const event of events) {
		add(event.business, event.kind);
		const words = event.kind === 'view' && event.words ? normaliseSearchWords(event.words) : '';
		if (words) add(event.business, 'search', words);
	}
	return [...counts.values()];
}

// --- Periods ---------------------------------------------------------------------------------------

/** yyyy-mm-dd of a date's UTC day (calendar arithmetic on dates made with Date.UTC). */
export function utcDay(date: Date): string {
	return date.toISOString().slice(0, 10);
}

/**
 * yyyy-mm-dd of the day an instant falls on in the chamber's time zone: the day statistics are
 * counted under, so a visit at 11 pm in Chicago counts on that evening's day, not the next.
 */
export function chamberDay(instant: Date, timeZone: string): string {
	return format(new TZDate(instant.getTime(), timeZone), 'yyyy-MM-dd');
}

/** yyyy-mm: a month. */
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, {
	error: 'month must be yyyy-mm',
});

/** The first and last day of a month (yyyy-mm). */
export function monthRange(month: string): { from: string; to: string } {
	const [year, mm] = month.split('-').map(Number) as [number, number];
	const last = new Date(Date.UTC(year, mm, 0));
	return { from: `${month}-01`, to: utcDay(last) };
}

/** The month (yyyy-mm) `by` months from `month`. */
export function addMonths(month: string, by: number): string {
	const [year, mm] = month.split('-').map(Number) as [number, number];
	const date = new Date(Date.UTC(year, mm - 1 + by, 1));
	return date.toISOString().slice(0, 7);
}

/** The month (yyyy-mm) an instant falls in, in the chamber's time zone. */
export function monthOf(instant: Date, timeZone: string): string {
	return chamberDay(instant, timeZone).slice(0, 7);
}

/** 'October 2026' for '2026-10'. */
export function monthLabel(month: string): string {
	const [year, mm] = month.split('-').map(Number) as [number, number];
	return new Intl.DateTimeFormat('en-US', {
		month: 'long',
		year: 'numeric',
		timeZone: 'UTC',
	}).format(new Date(Date.UTC(year, mm - 1, 1)));
}

/** A period of whole months the Reports tab shows: from the first month to the last, inclusive. */
export const periodSchema = z
	.object({
		/** First month, yyyy-mm. */
		from: monthSchema,
		/** Last month, yyyy-mm, not before `from`. */
		to: monthSchema,
	})
	.refine((p) => p.from <= p.to, { error: 'The first month must not be after the last' });
export type Period = z.output<typeof periodSchema>;

/** The days a period covers. */
export function periodDays(period: Period): { from: string; to: string } {
	return { from: monthRange(period.from).from, to: monthRange(period.to).to };
}

// --- Reports ---------------------------------------------------------------------------------------

/** One row of the members table (`business_stats_totals`). */
export interface MemberTotals {
	businessId: string;
	name: string;
	shown: number;
	views: number;
	actions: number;
}

/** The chamber's totals over the members table. */
export function chamberTotals(
	rows: readonly MemberTotals[],
): Omit<MemberTotals, 'businessId' | 'name'> {
	return rows.reduce(
		(sum, row) => ({
			shown: sum.shown + row.shown,
			views: sum.views + row.views,
			actions: sum.actions + row.actions,
		}),
		{ shown: 0, views: 0, actions: 0 },
	);
}

export type MemberSortKey = 'name' | 'shown' | 'views' | 'actions';

/** The members table in the order asked for; ties by name, so the order is always the same. */
export function sortMembers(
	rows: readonly MemberTotals[],
	key: MemberSortKey,
	direction: 'ascending' | 'descending',
): MemberTotals[] {
	const byName = (a: MemberTotals, b: MemberTotals) =>
		a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
		a.businessId.localeCompare(b.businessId);
	const sign = direction === 'ascending' ? 1 : -1;
	return [...rows].sort((a, b) =>
		key === 'name' ? sign * byName(a, b) : sign * (a[key] - b[key]) || byName(a, b),
	);
}

/** One month of a business's chart. */
export interface MonthTotals {
	/** yyyy-mm */
	month: string;
	shown: number;
	views: number;
	actions: number;
}

/** What `business_stats_report` answers, read. */
export interface BusinessReport {
	/** Each kind's count over the period (absent: none). */
	kinds: Partial<Record<StatKind, number>>;
	/** The 20 most frequent search texts over the period. */
	searches: { words: string; count: number }[];
	/** The 12 months ending with the period's last month, oldest first. */
	months: MonthTotals[];
}

const count = z.coerce.number().int().nonnegative();

/** The database's answer, checked (numbers may come as strings from bigint sums). */
export const businessReportSchema = z.object({
	kinds: z.partialRecord(z.enum(STAT_KINDS), count),
	searches: z.array(z.object({ words: z.string(), count })),
	months: z.array(z.object({ month: z.string(), shown: count, views: count, actions: count })),
});

export const memberTotalsRowSchema = z
	.object({
		business_id: z.string(),
		name: z.string(),
		shown: count,
		views: count,
		actions: count,
	})
	.transform((row): MemberTotals => ({
		businessId: row.business_id,
		name: row.name,
		shown: row.shown,
		views: row.views,
		actions: row.actions,
	}));

/** The actions of a report, by kind, every action kind listed (zero where none). */
export function actionsByKind(
	report: Pick<BusinessReport, 'kinds'>,
): { kind: ActionKind; count: number }[] {
	return ACTION_KINDS.map((kind) => ({ kind, count: report.kinds[kind] ?? 0 }));
}

/** A change from one month to the next, as the e-mail says it: '+12%', '−3%', 'new', '='. */
export function change(current: number, previous: number): string {
	if (current === previous) return '=';
	if (previous === 0) return 'new';
	const percent = Math.round(((current - previous) / previous) * 100);
	if (percent === 0) return current > previous ? '+<1%' : '−<1%';
	return percent > 0 ? `+${percent}%` : `−${Math.abs(percent)}%`;
}
