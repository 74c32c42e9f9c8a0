import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/**
 * The site's one way to send an e-mail (contact messages, members' sign-in decisions, the monthly
 * statistics): through SMTP_URL, or, without one, as an .eml file in the outbox folder (local
 * runs; readContactEnv in src/features/contact/contact.server.ts decides which and refuses a
 * deployed site without SMTP).
 */
export interface MailTransportEnv {
	smtpUrl?: string;
	outboxDir: string;
	/** How long the mail server gets to connect, greet and answer each step (default 5000 ms). */
	smtpTimeoutMs?: number;
}

/**
 * How mail leaves: the SMTP server with short timeouts (a server that does not answer costs an
 * attempt seconds, not minutes), or a stream for the outbox. `pooled` keeps one connection open
 * for several messages (the scheduled retry); close it afterwards.
 */
export function mailTransport(env: MailTransportEnv, pooled = false): Transporter {
	if (!env.smtpUrl) {
		return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
	}
	const timeout = env.smtpTimeoutMs ?? 5000;
	return nodemailer.createTransport({
		url: env.smtpUrl,
		connectionTimeout: timeout,
		greetingTimeout: timeout,
		socketTimeout: timeout,
		dnsTimeout: timeout,
		...(pooled ? { pool: true, maxConnections: 1 } : {}),
	} as SMTPTransport.Options);
}

/** Sends one mail; answers the outbox file written when there is no SMTP server. */
export async function sendMail(
	mail: Mail.Options,
	env: MailTransportEnv,
	/** Names the outbox file (after the time), e.g. the message's id. */
	fileTag: string,
	transport: Transporter = mailTransport(env),
): Promise<{ outboxFile?: string }> {
	const info = await transport.sendMail(mail);
	if (env.smtpUrl) return {};
	// Mails carry people's addresses and messages: only this user may read them.
	await mkdir(env.outboxDir, { recursive: true, mode: 0o700 });
	const file = join(
		env.outboxDir,
		`${new Date().toISOString().replace(/[:.]/g, '-')}-${fileTag}.eml`,
	);
	await writeFile(file, info.message as Buffer, { mode: 0o600 });
	return { outboxFile: file };
}
