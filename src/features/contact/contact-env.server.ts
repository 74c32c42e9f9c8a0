import { join, resolve } from 'node:path';
import { z } from 'zod';
import { readStackEnv } from '../../lib/env.server.ts';

/**
 * The settings of the site's visitor forms (the contact form, 'Submit an event'): how mail
 * leaves and whether reCAPTCHA v3 is checked, and the check itself (siteverify). Apart from
 * contact.server.ts so that a function that only verifies a visitor (event-submissions) does not
 * carry the mail library.
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
	/** How long the mail server gets to connect, greet and answer each step (default 5000 ms). */
	SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
	/** The first pause before a failed delivery is tried again (default 60 s); it grows each time. */
	CONTACT_RETRY_BASE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
	/** reCAPTCHA v3 secret; verification is on exactly when it is set. */
	RECAPTCHA_SECRET: z.string().min(1).optional(),
	RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
});

export interface ContactEnv {
	smtpUrl?: string;
	smtpTimeoutMs: number;
	retryBaseSeconds: number;
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
		smtpTimeoutMs: e.SMTP_TIMEOUT_MS,
		retryBaseSeconds: e.CONTACT_RETRY_BASE_SECONDS,
		outboxDir: resolve(e.OUTBOX_DIR ?? join(e.CHAMBER_DATA_DIR, 'outbox')),
		mailFrom: e.MAIL_FROM,
		recaptcha: e.RECAPTCHA_SECRET
			? { secret: e.RECAPTCHA_SECRET, verifyUrl: e.RECAPTCHA_VERIFY_URL }
			: undefined,
	};
}

// --- reCAPTCHA v3 -------------------------------------------------------------------------------

const RECAPTCHA_MIN_SCORE = 0.5;
const RECAPTCHA_ACTION = 'submit';

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
