import type { SupabaseClient } from '../../lib/database.ts';
import type { ChamberConfig } from '../config/config.ts';
import { chamberTimeZone } from '../config/time-zone.ts';
import { profilePath } from '../business/business.ts';
import { slugify } from '../directory/rules.ts';
import { sendMail, type MailTransportEnv } from '../../lib/mail.server.ts';
import { renderMonthlyMail, type MonthlyNumbers } from './monthly-mail.ts';
import { readMemberTotals, readMonthlyEmailSwitch } from './queries.ts';
import { addMonths, monthOf, type MemberTotals } from './reports.ts';

/**
 * The monthly statistics e-mail, server side: which businesses still get this month's mail, the
 * claim that makes it at most one per business and month, and the sending, within a time budget
 * so a run ends before its function's limit and the next run carries on where it stopped.
 */

/** A run stops taking new businesses after this long (a scheduled function may run 30 s). */
const MONTHLY_MAIL_BUDGET_MS = 20_000;

/** Every row of a PostgREST select, 1000 at a time (its answer limit). */
async function allRows<T>(
	select: (
		from: number,
		to: number,
	) => PromiseLike<{ data: unknown; error: { message: string } | null }>,
	what: string,
): Promise<T[]> {
	const rows: T[] = [];
	for (let from = 0; ; from += 1000) {
		const { data, error } = await select(from, from + 999);
		if (error) throw new Error(`Failed to read ${what}: ${error.message}`);
		const page = (data ?? []) as T[];
		rows.push(...page);
		if (page.length < 1000) return rows;
	}
}

interface Recipient {
	id: string;
	report_name: string;
	email: string;
}

export interface MonthlyMailRun {
	/** The month reported, yyyy-mm (the one before the run's). */
	month: string;
	/** Off: the chamber has not switched the e-mail on; nothing was done. */
	enabled: boolean;
	sent: number;
	failed: number;
	/** Businesses still to mail this month after the run (the next run takes them). */
	remaining: number;
}

export interface MonthlyMailOptions {
	service: SupabaseClient;
	tenantId: string;
	config: Pick<ChamberConfig, 'name' | 'colors' | 'textColors' | 'services' | 'state' | 'contact'>;
	mail: MailTransportEnv & { mailFrom?: string };
	/** The site's address, for the profile, privacy and opt-out links. */
	siteUrl: string;
	now?: Date;
	budgetMs?: number;
	/** At most this many mails in this run (default: as many as the time budget allows). */
	limit?: number;
}

/**
 * Sends last month's numbers to each of the chamber's published businesses with an e-mail
 * address that has neither opted out nor been mailed for that month. Each mail is claimed (a
 * member_report_mailings row) before it is sent: a business is never mailed twice for a month,
 * and a mail whose run stopped between claim and send is not sent again.
 */
export async function sendMonthlyReports(options: MonthlyMailOptions): Promise<MonthlyMailRun> {
	const { service, tenantId, config } = options;
	const now = options.now ?? new Date();
	const started = Date.now();
	const month = addMonths(monthOf(now, chamberTimeZone(config)), -1);
	const monthStart = `${month}-01`;
	const run: MonthlyMailRun = { month, enabled: false, sent: 0, failed: 0, remaining: 0 };
	if (!(await readMonthlyEmailSwitch(service, tenantId))) return run;
	run.enabled = true;

	const businesses = await allRows<Recipient>(
		(from, to) =>
			service
				.from('profiles')
				.select('id, report_name, email')
				.eq('tenant_id', tenantId)
				.eq('published', true)
				.neq('email', '')
				.order('id')
				.range(from, to),
		'the businesses',
	);
	const mailed = new Set(
		(
			await allRows<{ business_id: string }>(
				(from, to) =>
					service
						.from('member_report_mailings')
						.select('business_id')
						.eq('tenant_id', tenantId)
						.eq('month', monthStart)
						.order('business_id')
						.range(from, to),
				'the mailings',
			)
		).map((row) => row.business_id),
	);
	const todo = businesses.filter((b) => !mailed.has(b.id) && b.email.trim() !== '');
	if (todo.length === 0) return run;

	// Every business to mail gets its opt-out token once (kept: the links of earlier mails stay).
	for (let i = 0; i < todo.length; i += 500) {
		const { error } = await service.from('member_report_recipients').upsert(
			todo.slice(i, i + 500).map((b) => ({ tenant_id: tenantId, business_id: b.id })),
			{ onConflict: 'tenant_id,business_id', ignoreDuplicates: true },
		);
		if (error) throw new Error(`Failed to prepare the opt-out links: ${error.message}`);
	}
	const recipients = new Map(
		(
			await allRows<{ business_id: string; opt_out_token: string; opted_out_at: string | null }>(
				(from, to) =>
					service
						.from('member_report_recipients')
						.select('business_id, opt_out_token, opted_out_at')
						.eq('tenant_id', tenantId)
						.order('business_id')
						.range(from, to),
				'the opt-out links',
			)
		).map((row) => [row.business_id, row]),
	);
	const sendable = todo.filter((b) => recipients.get(b.id)?.opted_out_at === null);

	const totals = async (m: string) =>
		new Map(
			(await readMemberTotals(service, tenantId, { from: m, to: m })).map(
				(row): [string, MemberTotals] => [row.businessId, row],
			),
		);
	const current = await totals(month);
	const previous = await totals(addMonths(month, -1));
	const numbers = (map: Map<string, MemberTotals>, id: string): MonthlyNumbers => {
		const row = map.get(id);
		return { shown: row?.shown ?? 0, views: row?.views ?? 0, actions: row?.actions ?? 0 };
	};
	const site = options.siteUrl.replace(/\/+$/, '');
	const budget = options.budgetMs ?? MONTHLY_MAIL_BUDGET_MS;

	for (const [index, business] of sendable.entries()) {
		if (Date.now() - started > budget || run.sent + run.failed >= (options.limit ?? Infinity)) {
			run.remaining = sendable.length - index;
			break;
		}
		const { data: claimed, error: claimError } = await service
			.from('member_report_mailings')
			.upsert(
				{ tenant_id: tenantId, business_id: business.id, month: monthStart },
				{ onConflict: 'tenant_id,business_id,month', ignoreDuplicates: true },
			)
			.select('business_id');
		if (claimError) throw new Error(`Failed to claim a mailing: ${claimError.message}`);
		// Another run claimed it first.
		if ((claimed ?? []).length === 0) continue;

		const token = recipients.get(business.id)!.opt_out_token;
		const mail = renderMonthlyMail({
			chamber: config,
			business: { name: business.report_name },
			month,
			current: numbers(current, business.id),
			previous: numbers(previous, business.id),
			profileUrl: `${site}${profilePath({ id: business.id, slug: slugify(business.report_name) })}`,
			optOutUrl: `${site}/privacy/statistics/opt-out?token=${token}`,
			privacyUrl: `${site}/privacy/statistics`,
		});
		let error: string | null = null;
		try {
			await sendMail(
				{
					from: options.mail.mailFrom ?? {
						name: config.name,
						address: `no-reply@${config.services.emailDomain || 'localhost'}`,
					},
					to: { name: business.report_name, address: business.email.trim() },
					subject: mail.subject,
					text: mail.text,
					html: mail.html,
					list: {
						// One-click (RFC 8058) goes to the function: the page takes POSTs from this site only.
						unsubscribe: {
							url: `${site}/api/stats-opt-out?token=${token}`,
							comment: 'Stop',
						},
					},
					headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
				},
				options.mail,
				`statistics-${month}-${business.id}`,
			);
			run.sent++;
		} catch (failure) {
			error = String(failure).slice(0, 500);
			console.error('[stats-monthly-email] not sent to', business.id, failure);
			run.failed++;
		}
		const { error: recordError } = await service
			.from('member_report_mailings')
			.update(error ? { error } : { sent_at: new Date().toISOString() })
			.eq('tenant_id', tenantId)
			.eq('business_id', business.id)
			.eq('month', monthStart);
		if (recordError) throw new Error(`Failed to record a mailing: ${recordError.message}`);
	}
	return run;
}
