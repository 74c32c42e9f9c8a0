import type { Config, Context } from '@netlify/functions';
import { getCachedChamberConfig } from '../../src/features/config/config.server.ts';
import { chamberTimeZone } from '../../src/features/config/time-zone.ts';
import {
	ContactConfigError,
	readContactEnv,
	verifyRecaptcha,
} from '../../src/features/contact/contact-env.server.ts';
import {
	SUBMISSION_LIMITS,
	SUBMISSION_TEXTS,
} from '../../src/features/chamber-events/submission-limits.ts';
import { submissionBodySchema } from '../../src/features/chamber-events/submissions.ts';
import {
	storeSubmission,
	submittingMember,
	SubmissionRefused,
} from '../../src/features/chamber-events/submissions.server.ts';
import {
	clientIp,
	handle,
	ipRateKey,
	isUnavailable,
	sameOriginJsonProblem,
} from '../../src/lib/http.server.ts';
import { takeRateLimits } from '../../src/lib/rate-limit.server.ts';
import { getAnonClient, getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/event-submissions' };

/** The longest body read; the largest valid submission is far smaller. */
const MAX_BODY_BYTES = 64 * 1024;

function reply(status: number, body: { success: boolean; error?: string }): Response {
	return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

const fail = (status: number, error: string) => reply(status, { success: false, error });

async function submit(req: Request, context: Context): Promise<Response> {
	const refused = sameOriginJsonProblem(req, {
		json: 'Events must be sent as application/json',
		site: 'Events can only be submitted from this site',
	});
	if (refused) return fail(refused.includes('json') ? 415 : 403, refused);

	const service = getServiceClient();
	const network = `event-submit-ip:${ipRateKey(clientIp(req, context))}`;
	const wait = await takeRateLimits(service, [
		{ bucket: network, limit: SUBMISSION_LIMITS.perHour, windowSeconds: 3600 },
		{ bucket: network, limit: SUBMISSION_LIMITS.perDay, windowSeconds: 86_400 },
	]);
	if (wait > 0) return fail(429, SUBMISSION_TEXTS.tooMany);

	let body: unknown;
	try {
		const text = await req.text();
		if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) throw new SyntaxError('big');
		body = JSON.parse(text);
	} catch {
		return fail(400, 'The request body must be JSON');
	}
	// A bot that filled the hidden field is told it worked, and nothing is stored.
	if (body && typeof body === 'object' && (body as { website?: unknown }).website) {
		return reply(200, { success: true });
	}
	const parsed = submissionBodySchema.safeParse(body);
	if (!parsed.success) return fail(400, parsed.error.issues[0]?.message ?? 'Invalid event');

	const tenant = await getCurrentTenant();
	const chamber = await getCachedChamberConfig(getAnonClient(), tenant.id);
	const member = await submittingMember(req);
	// A member signed in by the link proved their address; a visitor passes reCAPTCHA.
	if (!member) {
		let recaptcha;
		try {
			recaptcha = readContactEnv().recaptcha;
			if (chamber.services.recaptchaSiteKey && !recaptcha) {
				throw new ContactConfigError(
					'services.recaptchaSiteKey is set but RECAPTCHA_SECRET is not: set the secret, or clear the site key',
				);
			}
		} catch (error) {
			if (!(error instanceof ContactConfigError)) throw error;
			console.error(`[event-submissions] ${error.message}`);
			return fail(503, SUBMISSION_TEXTS.unavailable);
		}
		if (recaptcha) {
			const check = await verifyRecaptcha(parsed.data.recaptchaToken, {
				...recaptcha,
				hostname: new URL(req.url).hostname,
				remoteIp: clientIp(req, context),
			});
			if (!check.ok) {
				console.warn('[event-submissions] reCAPTCHA refused:', check.reason);
				return fail(403, SUBMISSION_TEXTS.recaptcha);
			}
		}
	}
	try {
		await storeSubmission(service, tenant, parsed.data, chamberTimeZone(chamber), member);
	} catch (error) {
		if (error instanceof SubmissionRefused) return fail(error.status, error.message);
		throw error;
	}
	return reply(201, { success: true });
}

/**
 * 'Submit an event' on /community-events: POST `{submitterName, submitterEmail, event,
 * recaptchaToken?}` → 201 `{success}`; the event waits for the chamber's review and nothing of it
 * is public before. Same-origin JSON only; a visitor's network 5 an hour and 20 a day (kept in
 * the database); reCAPTCHA when the chamber has a site key, unless a member signed in by their
 * link sends their token; the database holds 3 waiting per address and 200 per chamber (429).
 */
export default handle('event-submissions', ['POST'], async (req, context) => {
	try {
		return await submit(req, context);
	} catch (error) {
		if (isUnavailable(error)) {
			console.error(`[event-submissions] unavailable: ${(error as Error).message}`);
			return fail(503, SUBMISSION_TEXTS.unavailable);
		}
		console.error('[event-submissions]', error);
		return fail(500, SUBMISSION_TEXTS.failed);
	}
});
