import type { Config, Context } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import {
	contactMessageSchema,
	isHoneypotFilled,
	type ContactResponse,
} from '../../src/features/contact/contact.ts';
import {
	AmbiguousBusinessError,
	attemptDelivery,
	ContactConfigError,
	getContactBusiness,
	getContactBusinessByName,
	readContactEnv,
	saveContactMessage,
	verifyRecaptcha,
	type ContactBusiness,
	type ContactEnv,
} from '../../src/features/contact/contact.server.ts';
import {
	clientIp,
	handle,
	ipRateKey,
	isUnavailable,
	sameOriginJsonProblem,
} from '../../src/lib/http.server.ts';
import { takeRateLimit } from '../../src/lib/rate-limit.server.ts';
import { getAnonClient, getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/contact-business' };

/** Per visitor address (IPv4, or IPv6 by /64), shared by every instance through the database. */
export const CONTACT_RATE_LIMIT = { limit: 5, windowSeconds: 60 };

/** The longest body read; the largest valid message is far smaller. */
const MAX_BODY_BYTES = 32 * 1024;

function reply(status: number, body: ContactResponse): Response {
	return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

const fail = (status: number, error: string) => reply(status, { success: false, error });

const UNAVAILABLE = 'Messages cannot be sent right now. Please try again later.';

async function readBody(req: Request): Promise<unknown> {
	const text = await req.text();
	if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) throw new SyntaxError('too big');
	return JSON.parse(text);
}

async function send(req: Request, context: Context): Promise<Response> {
	const refused = sameOriginJsonProblem(req, {
		json: 'Messages must be sent as application/json',
		site: 'Messages can only be sent from this site',
	});
	if (refused) return fail(refused.includes('json') ? 415 : 403, refused);

	const service = getServiceClient();
	const ip = clientIp(req, context);
	const wait = await takeRateLimit(service, {
		bucket: `contact-ip:${ipRateKey(ip)}`,
		...CONTACT_RATE_LIMIT,
	});
	if (wait > 0) {
		return fail(429, 'Too many messages sent. Please wait a minute and try again.');
	}
	let body: unknown;
	try {
		body = await readBody(req);
	} catch {
		return fail(400, 'The request body must be JSON');
	}
	// A bot that filled the hidden field is told it worked, and nothing is stored or sent.
	if (isHoneypotFilled(body)) return reply(200, { success: true });
	const parsed = contactMessageSchema.safeParse(body);
	if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Invalid message');
	const message = parsed.data;

	const tenant = await getCurrentTenant();
	const client = getAnonClient();
	const chamber = await getCachedChamberConfig(client, tenant.id);
	let env: ContactEnv;
	try {
		env = readContactEnv();
		// A site key without its secret would let every message through unchecked.
		if (chamber.services.recaptchaSiteKey && !env.recaptcha) {
			throw new ContactConfigError(
				'services.recaptchaSiteKey is set but RECAPTCHA_SECRET is not: set the secret, or clear the site key',
			);
		}
	} catch (error) {
		if (!(error instanceof ContactConfigError)) throw error;
		console.error(`[contact-business] ${error.message}`);
		return fail(503, UNAVAILABLE);
	}
	if (env.recaptcha) {
		const check = await verifyRecaptcha(message.recaptchaToken, {
			...env.recaptcha,
			hostname: new URL(req.url).hostname,
			remoteIp: ip,
		});
		if (!check.ok) {
			console.warn('[contact-business] reCAPTCHA refused:', check.reason);
			return fail(403, 'reCAPTCHA verification failed. Please try again.');
		}
	}

	let business: ContactBusiness | null;
	try {
		business = message.businessId
			? await getContactBusiness(service, tenant.id, message.businessId)
			: await getContactBusinessByName(service, tenant.id, message.businessName);
	} catch (error) {
		if (error instanceof AmbiguousBusinessError) return fail(400, error.message);
		throw error;
	}
	if (!business) return fail(404, 'Business not found');
	if (!business.email) return fail(400, 'This business cannot receive messages');

	const stored = await saveContactMessage(service, tenant.id, message, business);
	// Stored is delivered, as far as the visitor is concerned: the e-mail goes out after the
	// answer, and again later while the mail server is down (contact-retry). The same message
	// submitted again is tried again only when it is due, never twice at once.
	if (stored.status !== 'sent') {
		context.waitUntil(
			attemptDelivery(
				service,
				stored.id,
				message,
				business,
				{ name: chamber.name, emailDomain: chamber.services.emailDomain },
				env,
			).catch((error: unknown) => {
				console.error('[contact-business] delivery bookkeeping failed', stored.id, error);
			}),
		);
	}
	return reply(200, { success: true });
}

export default handle('contact-business', ['POST'], async (req, context) => {
	try {
		return await send(req, context);
	} catch (error) {
		// Nothing was stored: the visitor is asked to send it again.
		if (isUnavailable(error)) {
			console.error(`[contact-business] unavailable: ${(error as Error).message}`);
			return fail(503, UNAVAILABLE);
		}
		console.error('[contact-business]', error);
		return fail(500, 'Failed to send message.');
	}
});
