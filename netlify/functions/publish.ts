import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { publishBodySchema } from '../../src/features/publish/publish.ts';
import { requestPublish } from '../../src/features/publish/publish.server.ts';
import { BadRequest, handleJson } from '../../src/lib/http.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/publish' };

/**
 * 'Publish now' and 'Retry': any of the chamber's staff asks for a build of
 * the site, which joins a build already queued. Body optional: `{reason?}`. Answers 202
 * `{publish, created}`; the requester is the token's user.
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
	const result = await requestPublish({
		client: session.client,
		tenantId: tenant.id,
		reason: body.data.reason || 'Publish now',
	});
	return Response.json(result, { status: 202, headers: { 'Cache-Control': 'no-store' } });
});
