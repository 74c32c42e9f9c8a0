import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { AuthConfig } from './config.ts';

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
	const safe = to.replace(/[^a-z0-9@._-]/gi, '_');
	await writeFile(
		join(config.mail.outboxDir, `${stamp}-reset-password-${safe}.eml`),
		info.message as Buffer,
		{ mode: 0o600 },
	);
}
