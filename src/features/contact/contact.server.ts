import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { ContactMessage } from './contact.ts';

/**
 * 'Message this business' on the server: the visitor's message is stored first (so nothing is
 * lost), then e-mailed to the business (SMTP, or an .eml file in a local outbox), with
 * reCAPTCHA v3 verification and a per-IP rate limit in front.
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

export function readContactEnv(env: NodeJS.ProcessEnv = process.env): ContactEnv {
	const parsed = contactEnvSchema.safeParse(
		Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')),
	);
	if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
	const e = parsed.data;
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

/** The business a message is for, by exact name, else by name ignoring case; null if none. */
export async function getContactBusiness(
	client: SupabaseClient,
	tenantId: string,
	businessName: string,
): Promise<ContactBusiness | null> {
	const name = businessName.trim();
	const escaped = name.replace(/[\\%_]/g, (c) => `\\${c}`);
	for (const lookup of [
		() =>
			client.from('business_detail_view').select('id, report_name, email').eq('report_name', name),
		() =>
			client
				.from('business_detail_view')
				.select('id, report_name, email')
				.ilike('report_name', escaped),
	]) {
		const { data, error } = await lookup().eq('tenant_id', tenantId).order('id').limit(1);
		if (error) throw new Error(`Failed to fetch business: ${error.message}`, { cause: error });
		const row = (data as { id: string; report_name: string; email: string }[])[0];
		if (row) return { id: row.id, name: row.report_name, email: row.email.trim() };
	}
	return null;
}

// --- Storage ------------------------------------------------------------------------------------

/** Stores the message (service role: visitors cannot write this table) and returns its id. */
export async function saveContactMessage(
	service: SupabaseClient,
	tenantId: string,
	message: ContactMessage,
	business: ContactBusiness,
): Promise<string> {
	const { data, error } = await service
		.from('contact_messages')
		.insert({
			tenant_id: tenantId,
			business_id: business.id,
			business_name: business.name,
			name: message.name,
			email: message.email,
			message: message.message,
		})
		.select('id')
		.single();
	if (error) throw new Error(`Failed to store message: ${error.message}`, { cause: error });
	return (data as { id: string }).id;
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
	if (error) throw new Error(`Failed to record delivery: ${error.message}`, { cause: error });
}

// --- Delivery -----------------------------------------------------------------------------------

export interface Delivery {
	/** The .eml file written when there is no SMTP server. */
	outboxFile?: string;
}

/** E-mails the message to the business, replying to the visitor. */
export async function deliverContactMessage(
	message: ContactMessage,
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
	await mkdir(env.outboxDir, { recursive: true });
	const file = join(
		env.outboxDir,
		`${new Date().toISOString().replace(/[:.]/g, '-')}-${chamber.messageId}.eml`,
	);
	await writeFile(file, info.message as Buffer);
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

// --- Rate limit ---------------------------------------------------------------------------------

/**
 * A sliding-window limit per key, in memory: it holds per function instance, which is what
 * stops one visitor's bursts without a shared store.
 */
export function createRateLimiter(options: {
	limit: number;
	windowMs: number;
	now?: () => number;
}): { take(key: string): boolean } {
	const now = options.now ?? Date.now;
	const hits = new Map<string, number[]>();
	return {
		take(key) {
			const t = now();
			const recent = (hits.get(key) ?? []).filter((at) => t - at < options.windowMs);
			// Drop keys that went quiet, so the map does not grow with every visitor ever seen.
			if (hits.size > 10_000) {
				for (const [k, times] of hits)
					if (times.every((at) => t - at >= options.windowMs)) hits.delete(k);
			}
			if (recent.length >= options.limit) {
				hits.set(key, recent);
				return false;
			}
			recent.push(t);
			hits.set(key, recent);
			return true;
		},
	};
}
