import type { Config } from '@netlify/functions';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import { ConfigChangeError, parseConfigChange } from '../../src/features/admin/update-config.ts';
import { saveConfigWrite } from '../../src/features/admin/update-config.server.ts';
import { publishIfThisChamber } from '../../src/features/publish/publish.server.ts';
import { getTenantBySlugOrNull } from '../../src/features/tenants/lookup.server.ts';
import { BadRequest, handleJson, HttpError } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/update-config' };

/**
 * Saves one configuration change (`{chamber}` plus `{field, value}`,
 * `{section, field, value}` or a whole `colors` / `navigation` / `featuredBusinesses` /
 * `categoryDisplay` / `searchPage`, each with `version`: the section's version it was made
 * from), validated with the configuration's section schemas, written with the user's token, then
 * publishes this deployment's site. Answers `{success: true, path, updatedAt, version,
 * previousVersion, publish}`; errors `{error}` with 400 / 401 / 403 / 404, and 409
 * `{error, conflicts, version}` when someone else changed the same field since that version.
 */
export default handleJson('update-config', ['POST'], async (req) => {
	const session = await authenticate(req);
	let input: unknown;
	try {
		input = await req.json();
	} catch {
		throw new BadRequest('Expected a JSON body');
	}
	let change: ReturnType<typeof parseConfigChange>;
	try {
		change = parseConfigChange(input);
	} catch (error) {
		if (error instanceof ConfigChangeError) throw new BadRequest(error.message);
		throw error;
	}
	const tenant = await getTenantBySlugOrNull(session.client, change.chamber);
	if (!tenant) throw new HttpError(404, `No chamber "${change.chamber}"`);
	const saved = await saveConfigWrite(session.client, tenant.id, change.write, change.version);

	const publish = change.publish
		? await publishIfThisChamber(session.client, tenant.id, `${change.write.path} saved`)
		: null;
	return Response.json(
		{ success: true, path: change.write.path, ...saved, publish },
		{ headers: { 'Cache-Control': 'no-store' } },
	);
});
