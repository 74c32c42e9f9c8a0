import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SupabaseClient } from '../../lib/database.ts';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { readStackEnv } from '../../lib/env.server.ts';
import type { ContactMessage } from './contact.ts';

/**
 * 'Message this business' on the server: the visitor's message is stored first (so nothing is
 * lost), then e-mailed to the business (SMTP, or an .eml file in a local outbox), with
 * reCAPTCHA v3 verification, a same-origin JSON check and a per-address limit kept in the
 * database in front.
 */

const contactEnvSchema = z.object({
	/** smtp(s)://user:pass@host:port; without it messages go to the outbox folder. */
	SMTP_URL: z
		.url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL' })
		.optional(),
	/** Where messages are written as .eml files when SMTP_URL is not set. */
	OUTBOX_DIR: z.string().min(1).optional(),
	CHAMBER_DATA_DIR: z.string().min(1).default('.data'),
	/** Sender address; default no-reply@{services.emailDomain} (or @localhost). */
	MAIL_FROM: z.string().min(3).optional(),
	/** reCAPTCHA v3 secret; verification is on exactly when it is set. */
	RECAPTCHA_SECRET: z.string().min(1).optional(),
	RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
});

export interface ContactEnv {
	smtpUrl?: string;
	outboxDir: string;
	mailFrom?: string;
	recaptcha?: { secret: string; verifyUrl: string };
}

/** A configuration mistake the site's operator must fix; logged, never shown to visitors. */
export class ContactConfigError extends Error {
	constructor(message: string) {
		super(`Contact configuration error: ${message}`);
		this.name = 'ContactConfigError';
	}
}

/**
 * Where the functions run: beside a local stack (`npm start`, which passes its database as
 * CHAMBER_DATABASE_URL, or the embedded default), or deployed.
 */
export function runsWhere(env: NodeJS.ProcessEnv = process.env): 'local' | 'deployed' {
	if (env.CHAMBER_DATABASE_URL) return 'local';
	return readStackEnv(env).mode === 'embedded' ? 'local' : 'deployed';
}

/**
 * The mail settings. On a deployed site a missing SMTP_URL is an error: Netlify's file system is
 * read-only, so an outbox there would fail every message after storing it. An explicit
 * OUTBOX_DIR still opts into files (a self-hosted server with a writable folder).
 */
export function readContactEnv(
	env: NodeJS.ProcessEnv = process.env,
	where: 'local' | 'deployed' = runsWhere(env),
): ContactEnv {
	const parsed = contactEnvSchema.safeParse(
		Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')),
	);
	if (!parsed.success) {
		throw new ContactConfigError(parsed.error.issues.map((i) => i.message).join('; '));
	}
	const e = parsed.data;
	if (where === 'deployed' && !e.SMTP_URL && !e.OUTBOX_DIR) {
		throw new ContactConfigError(
			'SMTP_URL is required on a deployed site (no local stack): without it messages cannot be delivered',
		);
	}
	return {
		smtpUrl: e.SMTP_URL,
		outboxDir: resolve(e.OUTBOX_DIR ?? join(e.CHAMBER_DATA_DIR, 'outbox')),
		mailFrom: e.MAIL_FROM,
		recaptcha: e.RECAPTCHA_SECRET
			? { secret: e.RECAPTCHA_SECRET, verifyUrl: e.RECAPTCHA_VERIFY_URL }
			: undefined,
	};
}

// --- The business -------------------------------------------------------------------------------

export interface ContactBusiness {
	id: string;
	name: string;
	email: string;
}

/**
 * The business a message is for, by its id within the chamber (names are not unique), with its
 * e-mail address read by the service role: the address is not public. Null when the chamber has
 * no such published business.
 */
export async function getContactBusiness(
	service: SupabaseClient,
	tenantId: string,
	businessId: string,
): Promise<ContactBusiness | null> {
	const { data, error } = await service
		.from('profiles')
		.select('id, report_name, email')
		.eq('tenant_id', tenantId)
		.eq('id', businessId)
		.eq('published', true)
		.maybeSingle();
	if (error) throw new Error(`Failed to fetch business: ${error.message}`, { cause: error });
	const row = data as { id: string; report_name: string; email: string } | null;
	return row ? { id: row.id, name: row.report_name, email: row.email.trim() } : null;
}

// --- Storage ------------------------------------------------------------------------------------

export interface StoredMessage {
	id: string;
	status: 'pending' | 'sent' | 'failed';
	/** False when the idempotency key was seen before: this is that message again. */
	created: boolean;
}

/**
 * Stores the message (service role: visitors cannot write this table). A key seen before for the
 * chamber returns the message stored then, so a retried submit never becomes a second message.
 */
export async function saveContactMessage(
	service: SupabaseClient,
	tenantId: string,
	message: ContactMessage,
	business: ContactBusiness,
): Promise<StoredMessage> {
	const row = {
		tenant_id: tenantId,
		business_id: business.id,
		business_name: business.name,
		name: message.name,
		email: message.email,
		message: message.message,
		idempotency_key: message.idempotencyKey ?? null,
	};
	const { data, error } = await service
		.from('contact_messages')
		.upsert(row, { onConflict: 'tenant_id,idempotency_key', ignoreDuplicates: true })
		.select('id, delivery_status');
	if (error) throw new Error(`Failed to store message: ${error.message}`, { cause: error });
	const inserted = (data as { id: string; delivery_status: StoredMessage['status'] }[])[0];
	if (inserted) return { id: inserted.id, status: inserted.delivery_status, created: true };
	const { data: existing, error: readError } = await service
		.from('contact_messages')
		.select('id, delivery_status')
		.eq('tenant_id', tenantId)
		.eq('idempotency_key', message.idempotencyKey ?? '')
		.single();
	if (readError) {
		throw new Error(`Failed to read stored message: ${readError.message}`, { cause: readError });
	}
	const found = existing as { id: string; delivery_status: StoredMessage['status'] };
	return { id: found.id, status: found.delivery_status, created: false };
}

export async function setContactDelivery(
	service: SupabaseClient,
	messageId: string,
	status: 'sent' | 'failed',
	deliveryError: string | null = null,
): Promise<void> {
	const { error } = await service
		.from('contact_messages')
		.update({ delivery_status: status, delivery_error: deliveryError })
		.eq('id', messageId);
	// attempts and last_attempt_at are counted by claimContactDelivery.
	if (error) throw new Error(`Failed to record delivery: ${error.message}`, { cause: error });
}

// --- Delivery -----------------------------------------------------------------------------------

export interface Delivery {
	/** The .eml file written when there is no SMTP server. */
	outboxFile?: string;
}

/** E-mails the message to the business, replying to the visitor. */
export async function deliverContactMessage(
	message: Pick<ContactMessage, 'name' | 'email' | 'message'>,
	business: ContactBusiness,
	chamber: { name: string; emailDomain: string; messageId: string },
	env: ContactEnv,
): Promise<Delivery> {
	const mail = {
		from: env.mailFrom ?? {
			name: chamber.name,
			address: `no-reply@${chamber.emailDomain || 'localhost'}`,
		},
		to: { name: business.name, address: business.email },
		replyTo: { name: message.name, address: message.email },
		subject: `Message from ${message.name} via the ${chamber.name} directory`,
		text: [
			`${message.name} <${message.email}> sent ${business.name} this message through the ${chamber.name} business directory:`,
			'',
			message.message,
			'',
			'Reply to this e-mail to answer them directly.',
		].join('\n'),
	};
	if (env.smtpUrl) {
		await nodemailer.createTransport(env.smtpUrl).sendMail(mail);
		return {};
	}
	const info = await nodemailer
		.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
		.sendMail(mail);
	// A visitor's message and address: only this user may read it.
	await mkdir(env.outboxDir, { recursive: true, mode: 0o700 });
	const file = join(
		env.outboxDir,
		`${new Date().toISOString().replace(/[:.]/g, '-')}-${chamber.messageId}.eml`,
	);
	await writeFile(file, info.message as Buffer, { mode: 0o600 });
	return { outboxFile: file };
}

// --- reCAPTCHA v3 -------------------------------------------------------------------------------

export const RECAPTCHA_MIN_SCORE = 0.5;
export const RECAPTCHA_ACTION = 'submit';

const siteverifySchema = z.object({
	success: z.boolean(),
	score: z.number().optional(),
	action: z.string().optional(),
	hostname: z.string().optional(),
	'error-codes': z.array(z.string()).optional(),
});

export type RecaptchaResult = { ok: true } | { ok: false; reason: string };

/**
 * Verifies a reCAPTCHA v3 token with the siteverify protocol (form-encoded POST): success, a
 * score of at least 0.5, the action 'submit' and the site's own hostname are all required.
 */
export async function verifyRecaptcha(
	token: string | undefined,
	options: { secret: string; verifyUrl: string; hostname: string; remoteIp?: string },
): Promise<RecaptchaResult> {
	if (!token) return { ok: false, reason: 'missing token' };
	const form = new URLSearchParams({ secret: options.secret, response: token });
	if (options.remoteIp) form.set('remoteip', options.remoteIp);
	const response = await fetch(options.verifyUrl, {
		method: 'POST',
		body: form,
		signal: AbortSignal.timeout(5000),
	});
	if (!response.ok) throw new Error(`reCAPTCHA verification answered ${response.status}`);
	const result = siteverifySchema.parse(await response.json());
	if (!result.success) {
		return {
			ok: false,
			reason: `not successful (${result['error-codes']?.join(', ') ?? 'no code'})`,
		};
	}
	if ((result.score ?? 0) < RECAPTCHA_MIN_SCORE) {
		return { ok: false, reason: `score ${result.score ?? 'missing'}` };
	}
	if (result.action !== RECAPTCHA_ACTION) return { ok: false, reason: `action ${result.action}` };
	if (result.hostname?.toLowerCase() !== options.hostname.toLowerCase()) {
		return { ok: false, reason: `hostname ${result.hostname}` };
	}
	return { ok: true };
}

// --- Delivery attempts ------------------------------------------------------------------------

/** How often a stored message is tried before it is left for the chamber's staff. */
export const MAX_DELIVERY_ATTEMPTS = 5;

/**
 * Claims one delivery attempt of a message not yet sent: counts it, and answers false when the
 * message was sent meanwhile, ran out of attempts, or another attempt started within the last
 * minute (a retried submit racing the first one, or the hourly retry).
 */
export async function claimContactDelivery(
	service: SupabaseClient,
	messageId: string,
	now: Date = new Date(),
): Promise<boolean> {
	const { data: current, error: readError } = await service
		.from('contact_messages')
		.select('attempts, last_attempt_at, delivery_status')
		.eq('id', messageId)
		.single();
	if (readError) {
		throw new Error(`Failed to read message: ${readError.message}`, { cause: readError });
	}
	const row = current as {
		attempts: number;
		last_attempt_at: string | null;
		delivery_status: string;
	};
	if (row.delivery_status === 'sent' || row.attempts >= MAX_DELIVERY_ATTEMPTS) return false;
	if (row.last_attempt_at && now.getTime() - Date.parse(row.last_attempt_at) < 60_000) return false;
	// Compare-and-set on attempts: of two concurrent claims, one updates the row.
	const { data, error } = await service
		.from('contact_messages')
		.update({ attempts: row.attempts + 1, last_attempt_at: now.toISOString() })
		.eq('id', messageId)
		.eq('attempts', row.attempts)
		.select('id');
	if (error) throw new Error(`Failed to claim delivery: ${error.message}`, { cause: error });
	return (data as unknown[]).length === 1;
}

/**
 * The chamber's stored messages still to deliver: not sent, attempts left, not tried in the last
 * 5 minutes.
 */
export async function listUndeliveredMessages(
	service: SupabaseClient,
	tenantId: string,
	now: Date = new Date(),
	limit = 50,
): Promise<
	{
		id: string;
		tenant_id: string;
		business_id: string | null;
		name: string;
		email: string;
		message: string;
	}[]
> {
	const quiet = new Date(now.getTime() - 5 * 60_000).toISOString();
	const { data, error } = await service
		.from('contact_messages')
		.select('id, tenant_id, business_id, name, email, message')
		.eq('tenant_id', tenantId)
		.neq('delivery_status', 'sent')
		.lt('attempts', MAX_DELIVERY_ATTEMPTS)
		.or(`last_attempt_at.is.null,last_attempt_at.lt.${quiet}`)
		.order('created_at')
		.limit(limit);
	if (error) throw new Error(`Failed to list messages: ${error.message}`, { cause: error });
	return data as Awaited<ReturnType<typeof listUndeliveredMessages>>;
}
