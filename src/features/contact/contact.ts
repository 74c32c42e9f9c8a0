import { z } from 'zod';
import { CONTACT_LIMITS } from './limits.ts';

/**
 * 'Message this business' (docs/behaviour.md#contact-form): the schema the
 * contact-business function validates with. The dialog relies on the browser's own validation
 * and caps its fields with the same CONTACT_LIMITS (limits.ts, which has no zod).
 */

const required = (label: string, max: number) =>
	z
		.string({ error: `${label} is required` })
		.trim()
		.min(1, { error: `${label} is required` })
		.max(max, { error: `${label} must be at most ${max} characters` });

export const contactMessageSchema = z.object({
	name: required('Name', CONTACT_LIMITS.name),
	email: z
		.string({ error: 'Email is required' })
		.trim()
		.min(1, { error: 'Email is required' })
		.max(CONTACT_LIMITS.email, {
			error: `Email must be at most ${CONTACT_LIMITS.email} characters`,
		})
		.pipe(z.email({ error: 'Email must be a valid email address' })),
	message: required('Message', CONTACT_LIMITS.message),
	/**
	 * The business's id; the recipient is looked up by it and the chamber. Optional: a message
	 * sent as the original specification writes it names the business only, and is delivered when
	 * exactly one published business of the chamber has that name.
	 */
	// guid, not uuid: imported ids need not carry an RFC 4122 version (the demo's do not).
	businessId: z.guid({ error: 'Business id must be a business id' }).optional(),
	/** The e-mail's text; the recipient's name when there is no businessId. */
	businessName: required('Business name', CONTACT_LIMITS.businessName),
	/** Random per message (the dialog's): the same key again is the same message, not a new one. */
	idempotencyKey: z.uuid({ error: 'Idempotency key must be a UUID' }).optional(),
	recaptchaToken: z
		.string()
		.trim()
		.max(CONTACT_LIMITS.recaptchaToken, { error: 'reCAPTCHA token is too long' })
		.optional(),
	/** Honeypot: a hidden field people never fill; a bot filling it is answered but ignored. */
	website: z.literal('', { error: 'website must be empty' }).optional(),
});

export type ContactMessage = z.output<typeof contactMessageSchema>;

/** The answer of POST /api/contact-business. */
export type ContactResponse = { success: true } | { success: false; error: string };

/** Whether a raw request body filled the honeypot (checked before anything else). */
export function isHoneypotFilled(body: unknown): boolean {
	if (typeof body !== 'object' || body === null || !('website' in body)) return false;
	const value = (body as { website: unknown }).website;
	return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
}

/** GET /api/contact-undelivered: the chamber's stored messages not e-mailed yet. */
export const undeliveredCountSchema = z.object({
	/** Not delivered yet: waiting for the next attempt, or no longer tried. */
	undelivered: z.number().int().min(0),
	/** Of those, out of attempts: they need the mail settings fixed and a look by staff. */
	givenUp: z.number().int().min(0),
});

export type UndeliveredCount = z.output<typeof undeliveredCountSchema>;

/** The panel's line for the count, or null when every message was delivered. */
export function undeliveredText(count: UndeliveredCount): string | null {
	if (count.undelivered === 0) return null;
	const messages =
		count.undelivered === 1 ? '1 visitor message' : `${count.undelivered} visitor messages`;
	const waiting = `${messages} not delivered yet`;
	if (count.givenUp === 0) return `${waiting}: they will be sent again automatically.`;
	return `${waiting}, ${count.givenUp} no longer retried: check the mail settings.`;
}
