import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { isSameDay } from 'date-fns/isSameDay';
import type { PublishWindow } from '../config/config.ts';
import type { BusinessField } from '../members/members.ts';

/**
 * Publishing within a budget: who changed what decides when it goes live, and what a month of
 * publishes costs. Staff saves publish at once; members' own saves, syncs and imports wait and
 * are published together, at most once per window (the chamber's `features.publishWindow`); a
 * change no page shows publishes nothing. The database counts the month's publishes and keeps
 * the rules (public.request_publish, collect_publish, fire_publish_window); this module holds
 * what the panel, the functions and the benchmarks say about them. Pure: no I/O, no zod.
 */

// --- The month's budget -------------------------------------------------------------------------

/**
 * Publishes a chamber may make in a month unless the operator says otherwise
 * (PUBLISH_MONTHLY_BUDGET): 40 deploys are 600 of the Personal plan's 1,000 Netlify credits,
 * leaving 400 for bandwidth, requests and the daily publishes past the budget (docs/deploy.md).
 */
export const DEFAULT_MONTHLY_BUDGET = 40;
/** The most an operator may set: far beyond any plan's credits, a typing mistake otherwise. */
export const MAX_MONTHLY_BUDGET = 1000;
/** At this share of the budget the chamber's admins are told (e-mail and the panel). */
const BUDGET_WARNING_SHARE = 0.8;

/** The publish of the month from which the admins are warned (32 of 40). */
export function budgetWarningAt(budget: number): number {
	return Math.ceil(budget * BUDGET_WARNING_SHARE);
}

/** Netlify's credit table for its credit-based plans (docs/deploy.md#what-a-chambers-month-costs). */
export const NETLIFY_CREDITS = {
	/** Each production deploy. */
	deploy: 15,
	/** Each GB of bandwidth. */
	perGigabyte: 20,
	/** Each 10,000 web requests. */
	per10kRequests: 2,
	/** Each GB-hour of function compute. */
	perGigabyteHour: 5,
} as const;

/** The chamber's month as GET /api/publish-status answers it (public.publish_usage). */
export interface PublishUsage {
	/** The month on the chamber's clock, yyyy-mm. */
	month: string;
	/** Publishes this month that went live or are on their way (failed and cancelled ones cost nothing). */
	used: number;
	budget: number;
	/** From this many the admins are warned. */
	warnAt: number;
	/** Whether the admins were told this month that the budget is nearly used. */
	warned: boolean;
	/** used ≥ budget: collected changes go out once a day, staff publishes ask first. */
	atBudget: boolean;
	/**
	 * The most the product publishes on its own in the month: the budget and a reserve of daily
	 * publishes past it (a quarter of the budget); beyond, only publishes staff confirm.
	 */
	ceiling: number;
	/** Changes waiting for a publish. */
	waiting: number;
	/** When the earliest of them is live at the latest (ISO), or null. */
	liveBy: string | null;
	/** Whether they wait for the daily publish (the budget is used). */
	daily: boolean;
}

/** 'Publishes this month: 12 of 40', in the header and History. */
export function monthText(usage: Pick<PublishUsage, 'used' | 'budget'>): string {
	return `Publishes this month: ${usage.used} of ${usage.budget}`;
}

/** What the panel says once the warning share is reached (the e-mail says the same). */
export function budgetWarningText(
	usage: Pick<PublishUsage, 'used' | 'budget'> & { ceiling?: number },
): string {
	if (usage.ceiling !== undefined && usage.used >= usage.ceiling) {
		return `This month's ${usage.budget} publishes and the ${usage.ceiling - usage.budget} daily publishes past them are used. Members' changes, syncs and imports now wait for a publish you confirm; each costs ${NETLIFY_CREDITS.deploy} more Netlify credits.`;
	}
	if (usage.used >= usage.budget) {
		return `This month's ${usage.budget} publishes are used. Members' changes, syncs and imports now go live once a day, or with the next publish you confirm; each publish costs ${NETLIFY_CREDITS.deploy} more Netlify credits.`;
	}
	return `${usage.used} of this month's ${usage.budget} publishes are used. At ${usage.budget}, members' changes, syncs and imports go live once a day, and each publish asks first.`;
}

/** The header's short note beside the month's publishes, from the warning share on. */
export function budgetNote(
	usage: Pick<PublishUsage, 'used' | 'budget' | 'warnAt'> & { ceiling?: number },
): string {
	if (usage.ceiling !== undefined && usage.used >= usage.ceiling) {
		return "The budget is used: members' changes wait for a publish you confirm.";
	}
	if (usage.used >= usage.budget) return "The budget is used: members' changes go out once a day.";
	if (usage.used >= usage.warnAt) {
		return `Nearly used: at ${usage.budget}, members' changes go out once a day.`;
	}
	return '';
}

/** The confirmation a staff publish asks for at the budget, naming what it costs. */
export function budgetConfirmText(usage: Pick<PublishUsage, 'used' | 'budget'>): string {
	const next = usage.used + 1;
	return `This month's ${usage.budget} publishes are used (${usage.used} so far). Publishing now is publish ${next} of the month and costs ${NETLIFY_CREDITS.deploy} more Netlify credits (${next * NETLIFY_CREDITS.deploy} credits of deploys this month). Without it, the changes go live with the daily publish.`;
}

export interface BudgetMail {
	subject: string;
	text: string;
}

/** The admins' e-mail at 80 % of the budget (sent by the scheduled function). */
export function budgetMail(
	chamber: { name: string },
	usage: { used: number; budget: number },
	panelUrl: string,
): BudgetMail {
	return {
		subject: `${chamber.name}: ${monthText(usage)}`,
		text: [
			`${monthText(usage)}.`,
			'',
			budgetWarningText(usage),
			'',
			`Each publish is a production deploy on Netlify: ${NETLIFY_CREDITS.deploy} credits. The admin panel shows the month's publishes in its header and in History: ${panelUrl}`,
		].join('\n'),
	};
}

/** The body of a refused staff publish at the budget (409 from the functions). */
export interface BudgetRefusal {
	error: string;
	budget: { used: number; budget: number; cost: number };
}

// --- The window -----------------------------------------------------------------------------

/** How the panel names each window. */
export const PUBLISH_WINDOW_LABELS: Readonly<Record<PublishWindow, string>> = {
	'15min': 'Every 15 minutes',
	'30min': 'Every 30 minutes',
	'1h': 'Every hour',
	'2h': 'Every 2 hours',
	'3h': 'Every 3 hours',
	'4h': 'Every 4 hours',
	'6h': 'Every 6 hours',
	'12h': 'Twice a day',
	'24h': 'Once a day',
};

/**
 * A window's publish starts this long before its mark, so that its build is live by the mark
 * (public.publish_window_lead()). The scheduled function runs every 5 minutes, on the marks.
 */
export const WINDOW_LEAD_MINUTES = 10;

/** Who made a change, which decides when it is published. */
export type ChangeSource = 'member' | 'sync' | 'import' | 'staff' | 'scheduled';

/** A change waiting for a publish, as the panel lists it (public.waiting_changes). */
export interface WaitingChange {
	id: number;
	source: ChangeSource;
	summary: string;
	businessId: string | null;
	requestedBy: string | null;
	createdAt: string;
	/** Live on the site by then at the latest. */
	dueAt: string;
	/** Waiting for the daily publish (the month's budget is used). */
	daily: boolean;
}

/** 'HH:mm' on the chamber's clock the same day, else 'MMM d, HH:mm'. */
export function zonedTime(iso: string, zone: string, now: Date): string {
	const at = new TZDate(new Date(iso).getTime(), zone);
	const today = new TZDate(now.getTime(), zone);
	return isSameDay(at, today) ? format(at, 'HH:mm') : format(at, 'MMM d, HH:mm');
}

/** 'Live on the site by 14:00' (the chamber's clock), what a member is told after a save. */
export function liveByText(iso: string, zone: string, now: Date): string {
	return `Live on the site by ${zonedTime(iso, zone, now)}`;
}

// --- Which changes alter a page -----------------------------------------------------------------

/**
 * Configuration fields no page shows: the member-update rules (read by the database and the
 * member's page as it loads), the window itself, and the mail sender's domain. A save of only
 * these publishes nothing.
 */
const NO_PAGE_CONFIG_PATHS: ReadonlySet<string> = new Set([
	'features.memberFields',
	'features.memberLiveFields',
	'features.memberEditorsApprove',
	'features.memberMaxCategories',
	'features.publishWindow',
	'services.emailDomain',
]);

/** Whether a configuration change (its path, 'content.heroTitle') changes a page. */
export function configChangeAltersPages(path: string): boolean {
	return !NO_PAGE_CONFIG_PATHS.has(path);
}

/**
 * Fields of a business only its own profile shows (never a card, a category page, the home
 * page or the sitemap): opening hours, web content, social links, the main contact, and the
 * e-mail behind 'Send Message'. The descriptions are the profile's unless cards show the short
 * one (features.showBusinessShortDescription).
 */
const PROFILE_ONLY_FIELDS: readonly BusinessField[] = [
	'hours',
	'web_content',
	'social_media',
	'main_related_profile_name',
	'email',
];

/** What a change of a business alters: nothing, its profile alone, or pages of the site. */
export type PageImpact = 'none' | 'profile' | 'site';

export function businessChangeImpact(change: {
	fields: readonly string[];
	/** Whether the business was on the site before the change and is after it. */
	publishedBefore: boolean;
	publishedAfter: boolean;
	/** Cards show the short description (features.showBusinessShortDescription). */
	cardsShowDescription: boolean;
}): PageImpact {
	if (!change.publishedBefore && !change.publishedAfter) return 'none';
	if (change.publishedBefore !== change.publishedAfter) return 'site';
	if (change.fields.length === 0) return 'none';
	const profileOnly = new Set<string>(PROFILE_ONLY_FIELDS);
	if (!change.cardsShowDescription) profileOnly.add('listings');
	return change.fields.every((field) => profileOnly.has(field)) ? 'profile' : 'site';
}
