import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';

/**
 * The site's one way to send an e-mail (contact messages, the monthly statistics): through
 * SMTP_URL, or, without one, as an .eml file in the outbox folder (local runs; readContactEnv in
 * src/features/contact/contact.server.ts decides which and refuses a deployed site without SMTP).
 */
export interface MailTransportEnv {
	smtpUrl?: string;
	outboxDir: string;
}

/** Sends one mail; answers the outbox file written when there is no SMTP server. */
export async function sendMail(
	mail: Mail.Options,
	env: MailTransportEnv,
	/** Names the outbox file (after the time), e.g. the message's id. */
	fileTag: string,
): Promise<{ outboxFile?: string }> {
	if (env.smtpUrl) {
		await nodemailer.createTransport(env.smtpUrl).sendMail(mail);
		return {};
	}
	const info = await nodemailer
		.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
		.sendMail(mail);
	// Mails carry people's addresses and messages: only this user may read them.
	await mkdir(env.outboxDir, { recursive: true, mode: 0o700 });
	const file = join(
		env.outboxDir,
		`${new Date().toISOString().replace(/[:.]/g, '-')}-${fileTag}.eml`,
	);
	await writeFile(file, info.message as Buffer, { mode: 0o600 });
	return { outboxFile: file };
}
