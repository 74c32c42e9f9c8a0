import { createHash, timingSafeEqual } from 'node:crypto';
import { jwtVerify } from 'jose';
import { z } from 'zod';
import { handleJson, HttpError, type FunctionHandler } from '../../lib/http.server.ts';
import {
	deployEventBodySchema,
	deployPhase,
	netlifyDeploySchema,
	type DeployEvent,
	type NetlifyDeploy,
} from './publish.ts';
import { applyDeployEvent, readPublishEnv, type DeployEventOutcome } from './publish.server.ts';

/**
 * How Netlify tells us about a build, two ways in, one effect (applyDeployEvent):
 *
 * - Event-triggered functions (netlify/functions/deploy-building.ts, -succeeded, -failed): Netlify
 *   runs them itself when a deploy of the site changes state, with `{payload: deploy, site}`. They
 *   have no public path; Netlify signs each event and checks that signature before it invokes
 *   them (docs: "Trigger functions on events"), and the local server does not route them at all.
 * - Deploy notifications ("HTTP POST request" notifications of the site, with a JWS secret token)
 *   sent to POST /api/deploy-notifications, whose body is the deploy itself. That path is public,
 *   so every request must carry Netlify's X-Webhook-Signature: a JWS (HS256, the shared secret)
 *   whose claims say `iss: "netlify"` and `sha256`: the hex SHA-256 of the exact body.
 */

function outcomeResponse(event: DeployEvent, deploy: NetlifyDeploy, outcome: DeployEventOutcome) {
	if (outcome.applied) {
		console.log(
			`[${event}] deploy ${deploy.id}: publish ${outcome.publish.id} is ${outcome.publish.state}`,
		);
		return Response.json({ applied: true, publish: outcome.publish });
	}
	// Answered 200: Netlify retries failed notifications, and there is nothing to retry.
	return Response.json({ applied: false, reason: outcome.reason });
}

/** The handler of an event-triggered function (its file is named after the event). */
export function deployEventFunction(event: DeployEvent): FunctionHandler {
	return handleJson(event, ['POST'], async (req) => {
		let body: unknown;
		try {
			body = await req.json();
		} catch {
			throw new HttpError(400, 'Expected a JSON body');
		}
		const parsed = deployEventBodySchema.safeParse(body);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			throw new HttpError(
				400,
				`Invalid ${event} event: ${issue?.path.join('.')}: ${issue?.message}`,
			);
		}
		const deploy = parsed.data.payload;
		return outcomeResponse(event, deploy, await applyDeployEvent(event, deploy));
	});
}

const signatureClaimsSchema = z.object({
	iss: z.literal('netlify'),
	sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * Checks Netlify's X-Webhook-Signature over the raw body: a JWS signed with the notification's
 * secret (HS256 only), issued by netlify, carrying the body's SHA-256. Throws a 401 otherwise.
 */
async function verifyNetlifySignature(
	signature: string | null,
	rawBody: string,
	secret: string,
): Promise<void> {
	if (!signature) throw new HttpError(401, 'Missing X-Webhook-Signature');
	let claims: z.output<typeof signatureClaimsSchema>;
	try {
		const { payload } = await jwtVerify(signature, new TextEncoder().encode(secret), {
			algorithms: ['HS256'],
			issuer: 'netlify',
		});
		claims = signatureClaimsSchema.parse(payload);
	} catch {
		throw new HttpError(401, 'Invalid X-Webhook-Signature');
	}
	const digest = Buffer.from(createHash('sha256').update(rawBody, 'utf8').digest('hex'));
	const claimed = Buffer.from(claims.sha256);
	if (digest.length !== claimed.length || !timingSafeEqual(digest, claimed)) {
		throw new HttpError(401, 'The signature does not match the body');
	}
}

const EVENT_BY_PHASE = {
	building: 'deploy-building',
	live: 'deploy-succeeded',
	failed: 'deploy-failed',
} as const;

/** POST /api/deploy-notifications: Netlify's signed deploy notifications. */
export const deployNotificationsFunction: FunctionHandler = handleJson(
	'deploy-notifications',
	['POST'],
	async (req) => {
		const env = readPublishEnv();
		if (!env.NETLIFY_DEPLOY_NOTIFICATION_SECRET) {
			console.error(
				'[deploy-notifications] refused: NETLIFY_DEPLOY_NOTIFICATION_SECRET is not set, so no notification can be verified',
			);
			throw new HttpError(503, 'Deploy notifications are not configured');
		}
		const raw = await req.text();
		await verifyNetlifySignature(
			req.headers.get('x-webhook-signature'),
			raw,
			env.NETLIFY_DEPLOY_NOTIFICATION_SECRET,
		);
		let body: unknown;
		try {
			body = JSON.parse(raw);
		} catch {
			throw new HttpError(400, 'Expected a JSON body');
		}
		const parsed = netlifyDeploySchema.safeParse(body);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			throw new HttpError(400, `Invalid deploy: ${issue?.path.join('.')}: ${issue?.message}`);
		}
		const deploy = parsed.data;
		const phase = deployPhase(deploy.state);
		if (phase === 'queued') {
			return Response.json({ applied: false, reason: `deploy state ${deploy.state}` });
		}
		const event = EVENT_BY_PHASE[phase];
		return outcomeResponse(event, deploy, await applyDeployEvent(event, deploy, env));
	},
);
