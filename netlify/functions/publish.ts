import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { publishBodySchema } from '../../src/features/publish/publish.ts';
import {
	BudgetReachedError,
	collectChange,
	requestPublish,
} from '../../src/features/publish/publish.server.ts';
import { BadRequest, handleJson } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/publish' };

/**
 * 'Publish now', 'Retry' and the panel's publish after a save: any of the chamber's staff asks for
 * a build of the site, which joins a build already queued and takes every change waiting for the
 * window with it. Body optional: `{reason?, confirm?}`. Answers 202 `{publish, created, usage}`;
 * the requester is the token's user. When the month's budget is used, a new build needs
 * `confirm: true` (the person saw what it costs): without it the answer is 409 `{error, budget:
 * {used, budget, cost}, waiting}`, and the change waits for the daily publish meanwhile.
 */
export default handleJson('publish', ['POST'], async (req) => {
	const session = await authenticate(req);
	const text = await req.text();
	let input: unknown = {};
	if (text.trim()) {
		try {
			input = JSON.parse(text);
		} catch {
			throw new BadRequest('Expected a JSON body');
		}
	}
	const body = publishBodySchema.safeParse(input);
	if (!body.success) {
		const issue = body.error.issues[0];
		throw new BadRequest(`${issue?.path.join('.') || 'body'}: ${issue?.message}`);
	}
	const tenant = await getCurrentTenant();
	const reason = body.data.reason || 'Publish now';
	try {
		const result = await requestPublish({
			client: session.client,
			tenantId: tenant.id,
			reason,
			confirmCost: body.data.confirm,
		});
		return Response.json(result, { status: 202, headers: { 'Cache-Control': 'no-store' } });
	} catch (error) {
		if (!(error instanceof BudgetReachedError)) throw error;
		// Until someone confirms, what was saved goes out with the daily publish.
		const waiting = await collectChange({
			client: session.client,
			tenantId: tenant.id,
			source: 'staff',
			summary: reason,
		});
		return Response.json(
			{ error: error.message, ...error.body, waiting },
			{ status: 409, headers: { 'Cache-Control': 'no-store' } },
		);
	}
});
