import { escapeUTF8 } from 'entities';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { AuthConfig } from './config.ts';

/** Over SMTP when SMTP_URL is set, else an .eml file (readable by this user only) in the outbox. */
async function deliver(
	config: AuthConfig,
	mail: SendMailOptions & { to: string },
	kind: string,
	now: Date,
): Promise<void> {
	if (config.mail.smtpUrl) {
		await nodemailer.createTransport(config.mail.smtpUrl).sendMail(mail);
		return;
	}
	const info = await nodemailer
		.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
		.sendMail(mail);
	// The e-mail holds a live sign-in link: only this user may read it.
	await mkdir(config.mail.outboxDir, { recursive: true, mode: 0o700 });
	const stamp = now.toISOString().replace(/[:.]/g, '-');
	const safe = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
	await writeFile(
		join(config.mail.outboxDir, `${stamp}-${kind}-${safe}.eml`),
		info.message as Buffer,
		{
			mode: 0o600,
		},
	);
}

/** A metadata value a template may print: a short string, or ''. */
function dataText(data: Record<string, unknown>, key: string, max = 200): string {
	const value = data[key];
	return typeof value === 'string' ? value.slice(0, max) : '';
}

/**
 * The sign-in link e-mail (GoTrue's magic_link template, MagicLinkMail): subject 'Your sign-in
 * link', the link (its ConfirmationURL). Like a hosted project's template (docs/self-service.md),
 * it names the chamber and the business and takes the chamber's colour from the user's metadata
 * (GoTrue's `.Data`) when the app put them there: chamber_name, chamber_color, business_name.
 */
export async function sendMagicLinkMail(
	config: AuthConfig,
	to: string,
	link: string,
	data: Record<string, unknown>,
	now: Date,
	// GoTrue's template data `.Token`: the code behind the link, which members never type, so
	// this template leaves it out (a hosted template may show it).
	_code?: string,
): Promise<void> {
	const minutes = Math.round(config.emailLinkSeconds / 60);
	const lasts = minutes === 60 ? '1 hour' : `${minutes} minutes`;
	const chamber = dataText(data, 'chamber_name');
	const business = dataText(data, 'business_name');
	const colour = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i.test(dataText(data, 'chamber_color'))
		? dataText(data, 'chamber_color')
		: '#1f4e79';
	const what = business ? `the listing of ${business}` : 'your listing';
	const href = escapeUTF8(link);
	await deliver(
		config,
		{
			from: config.mail.mailFrom ?? {
				name: chamber || 'Chamber directory',
				address: 'no-reply@localhost',
			},
			to,
			subject: chamber ? `Your sign-in link for ${chamber}` : 'Your sign-in link',
			text: [
				`Follow this link to sign in and update ${what}${chamber ? ` in the ${chamber} directory` : ''}:`,
				link,
				'',
				`The link works once and expires in ${lasts}.`,
				"If you didn't ask for this, you can ignore this e-mail.",
			].join('\n'),
			html: `<div style="font-family:sans-serif;max-width:560px">
<h2 style="color:${colour}">${escapeUTF8(chamber || 'Your sign-in link')}</h2>
<p>Follow the link below to sign in and update ${escapeUTF8(what)}. This link expires in ${lasts} and can only be used once.</p>
<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:${colour};color:#fff;text-decoration:none;border-radius:4px">Sign in</a></p>
<p>If you didn't ask for this, you can ignore this e-mail.</p>
</div>`,
		},
		'sign-in',
		now,
	);
}

/**
 * The recovery e-mail: over SMTP when SMTP_URL is set, else an .eml file in the local outbox folder
 * the contact form uses too (docs/local-stack.md#where-e-mails-go). The link is the only secret in it
 * and is never logged.
 */
export async function sendRecoveryMail(
	config: AuthConfig,
	to: string,
	link: string,
	now: Date,
): Promise<void> {
	const minutes = Math.round(config.emailLinkSeconds / 60);
	const mail = {
		from: config.mail.mailFrom ?? { name: 'Chamber admin portal', address: 'no-reply@localhost' },
		to,
		subject: 'Reset your password',
		text: [
			'We received a request to set a new password for your account in the admin portal.',
			'',
			'Follow this link to choose a new password:',
			link,
			'',
			`The link works once and expires in ${minutes === 60 ? '1 hour' : `${minutes} minutes`}.`,
			"If you didn't ask for this, you can ignore this e-mail: your password stays as it is.",
		].join('\n'),
		html: `<h2>Reset your password</h2>
<p>We received a request to set a new password for your account in the admin portal.</p>
<p><a href="${link.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">Reset password</a></p>
<p>The link works once and expires in ${minutes === 60 ? '1 hour' : `${minutes} minutes`}. If you didn't ask for this, you can ignore this e-mail.</p>`,
	};
	await deliver(config, mail, 'reset-password', now);
}
