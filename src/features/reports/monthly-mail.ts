import { escapeUTF8 } from 'entities';
import type { ChamberConfig } from '../config/config.ts';
import { resolveTheme } from '../config/theme.ts';
import { change, monthLabel } from './reports.ts';

/**
 * The monthly statistics e-mail to a member business (docs/reports.md#the-monthly-e-mail): its
 * numbers for the month compared with the month before, in the chamber's colours, with a
 * plain-text alternative and the opt-out link in both.
 */

export interface MonthlyNumbers {
	shown: number;
	views: number;
	actions: number;
}

export interface MonthlyMailInput {
	chamber: Pick<ChamberConfig, 'name' | 'colors' | 'textColors'>;
	business: { name: string };
	/** The month reported, yyyy-mm. */
	month: string;
	current: MonthlyNumbers;
	previous: MonthlyNumbers;
	/** The business's profile on the chamber's site. */
	profileUrl: string;
	/** The business's own opt-out page. */
	optOutUrl: string;
	/** The page that says what is counted and what is not. */
	privacyUrl: string;
}

export interface MonthlyMail {
	subject: string;
	html: string;
	text: string;
}

const ROWS: { key: keyof MonthlyNumbers; label: string; hint: string }[] = [
	{ key: 'shown', label: 'Shown', hint: 'in search results and category pages' },
	{ key: 'views', label: 'Profile views', hint: 'your profile page was opened' },
	{ key: 'actions', label: 'Actions', hint: 'website, phone, e-mail, directions, social, share' },
];

const number = new Intl.NumberFormat('en-US');

export function renderMonthlyMail(input: MonthlyMailInput): MonthlyMail {
	const { chamber, business, current, previous } = input;
	const month = monthLabel(input.month);
	const subject = `${business.name}: your ${chamber.name} directory numbers for ${month}`;
	const e = escapeUTF8;
	// The colours the site uses for the chamber's choice, so every pair in the mail reads too.
	const { colours: c } = resolveTheme(chamber);

	const text = [
		`${business.name} in the ${chamber.name} member directory, ${month}`,
		'',
		...ROWS.map(
			(row) =>
				`${row.label}: ${number.format(current[row.key])} (${change(current[row.key], previous[row.key])} on the month before, ${number.format(previous[row.key])}) - ${row.hint}`,
		),
		'',
		`Your profile: ${input.profileUrl}`,
		`What is counted, and what is not (no cookies, no personal data): ${input.privacyUrl}`,
		'',
		`You get this e-mail because ${chamber.name} sends its members their numbers every month.`,
		`To stop these e-mails: ${input.optOutUrl}`,
	].join('\n');

	const rows = ROWS.map(
		(row) => `<tr>
<td style="padding:12px 16px;border-bottom:1px solid #e5e7eb"><strong style="color:${c['--text-heading']}">${e(row.label)}</strong><br><span style="color:#4b5563;font-size:13px">${e(row.hint)}</span></td>
<td style="padding:12px 16px;border-bottom:1px solid #e5e7eb;text-align:right;font-size:22px;font-weight:700;color:${c['--color-primary-text']}">${number.format(current[row.key])}</td>
<td style="padding:12px 16px;border-bottom:1px solid #e5e7eb;text-align:right;color:#374151">${e(change(current[row.key], previous[row.key]))}<br><span style="font-size:13px;color:#4b5563">${number.format(previous[row.key])} before</span></td>
</tr>`,
	).join('\n');

	const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:${c['--text-body']}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:${c['--color-primary-dark']};padding:20px 24px;color:${c['--text-on-dark-heading']}">
<p style="margin:0;font-size:14px;color:${c['--text-on-dark-body']}">${e(chamber.name)}</p>
<h1 style="margin:4px 0 0;font-size:22px;color:${c['--text-on-dark-heading']}">${e(business.name)}: ${e(month)}</h1>
</td></tr>
<tr><td style="padding:20px 24px 8px">
<p style="margin:0">Here is how often visitors of the ${e(chamber.name)} member directory found and used your listing in ${e(month)}, compared with the month before.</p>
</td></tr>
<tr><td style="padding:8px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
${rows}
</table>
</td></tr>
<tr><td style="padding:16px 24px">
<a href="${e(input.profileUrl)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:${c['--color-secondary']};color:${c['--text-on-accent']};font-weight:700;text-decoration:none">See your profile</a>
</td></tr>
<tr><td style="padding:8px 24px 20px;font-size:13px;color:#4b5563">
<p style="margin:0 0 8px">Counted without cookies or personal data: <a href="${e(input.privacyUrl)}" style="color:${c['--text-link']}">what is counted, and what is not</a>.</p>
<p style="margin:0">You get this e-mail because ${e(chamber.name)} sends its members their numbers every month. <a href="${e(input.optOutUrl)}" style="color:${c['--text-link']}">Stop these e-mails</a>.</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;

	return { subject, html, text };
}
