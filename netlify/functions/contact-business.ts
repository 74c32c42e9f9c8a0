import type { Config, Context } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import {
	contactMessageSchema,
	isHoneypotFilled,
	type ContactResponse,
} from '../../src/features/contact/contact.ts';
import {
	createRateLimiter,
	deliverContactMessage,
	getContactBusiness,
	readContactEnv,
	saveContactMessage,
	setContactDelivery,
	verifyRecaptcha,
} from '../../src/features/contact/contact.server.ts';
import { handle } from '../../src/lib/http.server.ts';
import { getAnonClient, getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/contact-business', method: ['POST'] };

export const CONTACT_RATE_LIMIT = { limit: 5, windowMs: 60_000 };

const limiter = createRateLimiter(CONTACT_RATE_LIMIT);

function reply(status: number, body: ContactResponse): Response {
	return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

const fail = (status: number, error: string) => reply(status, { success: false, error });

async function send(req: Request, context: Context): Promise<Response> {
	if (!limiter.take(context.ip)) {
		return fail(429, 'Too many messages sent. Please wait a minute and try again.');
	}
	let body: unknown;
	try {
		body = await req.json();
	} catch {
		return fail(400, 'The request body must be JSON');
	}
	// A bot that filled the hidden field is told it worked, and nothing is stored or sent.
	if (isHoneypotFilled(body)) return reply(200, { success: true });
	const parsed = contactMessageSchema.safeParse(body);
	if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Invalid message');
	const message = parsed.data;

	const env = readContactEnv();
	if (env.recaptcha) {
		const check = await verifyRecaptcha(message.recaptchaToken, {
			...env.recaptcha,
			hostname: new URL(req.url).hostname,
			remoteIp: context.ip,
		});
		if (!check.ok) {
			console.warn('[contact-business] reCAPTCHA refused:', check.reason);
			return fail(403, 'reCAPTCHA verification failed. Please try again.');
		}
	}

	const tenant = await getCurrentTenant();
	const client = getAnonClient();
	const business = await getContactBusiness(client, tenant.id, message.businessName);
	if (!business) return fail(404, 'Business not found');
	if (!business.email) return fail(400, 'This business cannot receive messages');

	const service = getServiceClient();
	const messageId = await saveContactMessage(service, tenant.id, message, business);
	try {
		const chamber = await getCachedChamberConfig(client, tenant.id);
		await deliverContactMessage(
			message,
			business,
			{ name: chamber.name, emailDomain: chamber.services.emailDomain, messageId },
			env,
		);
	} catch (error) {
		console.error('[contact-business] delivery failed', messageId, error);
		await setContactDelivery(service, messageId, 'failed', String(error).slice(0, 500));
		return fail(500, 'Your message was saved but could not be delivered. Please try again later.');
	}
	await setContactDelivery(service, messageId, 'sent');
	return reply(200, { success: true });
}

export default handle('contact-business', ['POST'], async (req, context) => {
	try {
		return await send(req, context);
	} catch (error) {
		console.error('[contact-business]', error);
		return fail(500, 'Failed to send message.');
	}
});
