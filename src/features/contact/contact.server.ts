import type { SupabaseClient } from '../../lib/database.ts';
import type { Transporter } from 'nodemailer';
import { mailTransport, sendMail } from '../../lib/mail.server.ts';
import type { ContactMessage } from './contact.ts';
import type { ContactEnv } from './contact-env.server.ts';
import { MAX_DELIVERY_ATTEMPTS } from './undelivered.server.ts';

/**
 * 'Message this business' on the server: the visitor's message is stored first (so nothing is
 * lost), then e-mailed to the business (SMTP, or an .eml file in a local outbox), with
 * reCAPTCHA v3 verification, a same-origin JSON check and a per-address limit kept in the
 * database in front.
 */

export {
	ContactConfigError,
	readContactEnv,
	runsWhere,
	verifyRecaptcha,
	type ContactEnv,
} from './contact-env.server.ts';

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

/**
 * The business a message names without its id: the chamber's one published business of exactly
 * that name. Null when there is none; AmbiguousBusinessError when there are several, since a
 * message must never go to a business the visitor did not mean.
 */
export async function getContactBusinessByName(
	service: SupabaseClient,
	tenantId: string,
	businessName: string,
): Promise<ContactBusiness | null> {
	const { data, error } = await service
		.from('profiles')
		.select('id, report_name, email')
		.eq('tenant_id', tenantId)
		.eq('report_name', businessName)
		.eq('published', true)
		.limit(2);
	if (error) throw new Error(`Failed to fetch business: ${error.message}`, { cause: error });
	const rows = data as { id: string; report_name: string; email: string }[];
	if (rows.length > 1) throw new AmbiguousBusinessError(businessName);
	const row = rows[0];
	return row ? { id: row.id, name: row.report_name, email: row.email.trim() } : null;
}

export class AmbiguousBusinessError extends Error {
	constructor(businessName: string) {
		super(`More than one business is named "${businessName}": send its businessId`);
		this.name = 'AmbiguousBusinessError';
	}
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

// --- Delivery -----------------------------------------------------------------------------------

interface Delivery {
	/** The .eml file written when there is no SMTP server. */
	outboxFile?: string;
}

/** E-mails the message to the business, replying to the visitor. */
async function deliverContactMessage(
	message: Pick<ContactMessage, 'name' | 'email' | 'message'>,
	business: ContactBusiness,
	chamber: { name: string; emailDomain: string; messageId: string },
	env: ContactEnv,
	transport: Transporter = mailTransport(env),
): Promise<Delivery> {
	const domain = chamber.emailDomain || 'localhost';
	const mail = {
		from: env.mailFrom ?? { name: chamber.name, address: `no-reply@${domain}` },
		to: { name: business.name, address: business.email },
		replyTo: { name: message.name, address: message.email },
		subject: `Message from ${message.name} via the ${chamber.name} directory`,
		// One id per stored message: should an attempt be repeated after the mail server took it
		// (its answer lost), the business's mail program sees the same message twice, not two.
		messageId: `<contact-${chamber.messageId}@${domain}>`,
		text: [
			`${message.name} <${message.email}> sent ${business.name} this message through the ${chamber.name} business directory:`,
			'',
			message.message,
			'',
			'Reply to this e-mail to answer them directly.',
		].join('\n'),
	};
	return sendMail(mail, env, chamber.messageId, transport);
}

// --- Delivery attempts ------------------------------------------------------------------------

/** How long one attempt holds its message: longer than the mail server's timeouts together. */
const LEASE_SECONDS = 120;

/** The pause after a failed attempt: the base, ×4 each time, at most 3 hours. */
function retryDelaySeconds(attempts: number, baseSeconds: number): number {
	return Math.min(3 * 3600, baseSeconds * 4 ** Math.max(0, attempts - 1));
}

/**
 * Claims one delivery attempt (in the database, by its clock) and answers its number: null when
 * the message was sent, another attempt holds it, it is not due yet, or it ran out of attempts.
 */
async function claimContactDelivery(
	service: SupabaseClient,
	messageId: string,
): Promise<number | null> {
	const { data, error } = await service.rpc('claim_contact_delivery', {
		p_message_id: messageId,
		p_max_attempts: MAX_DELIVERY_ATTEMPTS,
		p_lease_seconds: LEASE_SECONDS,
	});
	if (error) throw new Error(`Failed to claim delivery: ${error.message}`, { cause: error });
	return typeof data === 'number' ? data : null;
}

/**
 * One delivery attempt of a stored message: claimed, e-mailed, recorded. 'skipped' when it could
 * not be claimed (sent, being tried, not due, out of attempts). A failure is recorded with the
 * pause before the next attempt, and logged in one line.
 */
export async function attemptDelivery(
	service: SupabaseClient,
	messageId: string,
	message: Pick<ContactMessage, 'name' | 'email' | 'message'>,
	business: ContactBusiness,
	chamber: { name: string; emailDomain: string },
	env: ContactEnv,
	transport?: Transporter,
): Promise<'sent' | 'failed' | 'skipped'> {
	const attempt = await claimContactDelivery(service, messageId);
	if (attempt === null) return 'skipped';
	try {
		await deliverContactMessage(message, business, { ...chamber, messageId }, env, transport);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		const retrySeconds = retryDelaySeconds(attempt, env.retryBaseSeconds);
		console.error(
			`[contact] message ${messageId}: attempt ${attempt} failed (${reason}); next in ${retrySeconds} s`,
		);
		await recordContactDelivery(service, messageId, { sent: false, error: reason, retrySeconds });
		return 'failed';
	}
	await recordContactDelivery(service, messageId, { sent: true });
	return 'sent';
}

/** Records how an attempt ended; a failure is tried again after retryDelaySeconds. */
export async function recordContactDelivery(
	service: SupabaseClient,
	messageId: string,
	outcome: { sent: true } | { sent: false; error: string; retrySeconds: number },
): Promise<void> {
	const { error } = await service.rpc('record_contact_delivery', {
		p_message_id: messageId,
		p_sent: outcome.sent,
		p_error: outcome.sent ? null : outcome.error,
		p_retry_seconds: outcome.sent ? 0 : outcome.retrySeconds,
	});
	if (error) throw new Error(`Failed to record delivery: ${error.message}`, { cause: error });
}
