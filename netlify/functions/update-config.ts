import type { Config } from '@netlify/functions';
import { ACCESS_DENIED_MESSAGE, mayAccessChamber } from '../../src/features/auth/auth.ts';
import { authenticate } from '../../src/features/auth/auth.server.ts';
import {
	ConfigChangeError,
	parseConfigChange,
	readChamber,
	roleRefusal,
} from '../../src/features/admin/update-config.ts';
import { saveConfigWrite } from '../../src/features/admin/update-config.server.ts';
import { configChangeAltersPages } from '../../src/features/publish/policy.ts';
import { outcomeAnswer, publishChange } from '../../src/features/publish/policy.server.ts';
import { getTenantBySlugOrNull } from '../../src/features/tenants/lookup.server.ts';
import { BadRequest, handleJson, HttpError } from '../../src/lib/http.server.ts';

export const config: Config = { path: '/api/update-config' };

/** ConfigChangeError is the caller's mistake: a 400 naming the field. */
function asBadRequest<T>(read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (error instanceof ConfigChangeError) throw new BadRequest(error.message);
		throw error;
	}
}

/**
 * Saves one configuration change (`{chamber}` plus `{field, value}`,
 * `{section, field, value}` or a whole `colors` / `navigation` / `featuredBusinesses` /
 * `categoryDisplay` / `searchPage`; optionally `version`, the section's version it was made from,
 * without which the change is written whatever the version now), validated with the
 * configuration's section schemas, written with the user's token, then publishes this
 * deployment's site. Who may make the change is decided before its value is read: 403 whatever
 * the body. Answers `{success: true, path, updatedAt, version, previousVersion, publish, waiting}`
 * (`publish` null for a field no page shows; `waiting` `{dueAt, daily}` when the month's budget
 * is used and the save waits for the daily publish); errors
 * `{error}` with 400 / 401 / 403 / 404, and 409 `{error, conflicts, version}` when someone else
 * changed the same field since that version.
 */
export default handleJson('update-config', ['POST'], async (req) => {
	const session = await authenticate(req);
	let input: unknown;
	try {
		input = await req.json();
	} catch {
		throw new BadRequest('Expected a JSON body');
	}
	const chamber = asBadRequest(() => readChamber(input));
	// Another chamber's staff are refused alike whether it exists or not.
	if (!mayAccessChamber(session.user, chamber)) throw new HttpError(403, ACCESS_DENIED_MESSAGE);
	const tenant = await getTenantBySlugOrNull(session.client, chamber);
	if (!tenant) throw new HttpError(404, `No chamber "${chamber}"`);
	const change = asBadRequest(() =>
		parseConfigChange(input, (target) => {
			const refusal = roleRefusal(session.user.role, target);
			if (refusal) throw new HttpError(403, refusal);
		}),
	);
	const saved = await saveConfigWrite(session.client, tenant.id, change.write, change.version);

	// A field no page shows publishes nothing; at the month's budget the save waits for the daily
	// publish (or the next one staff confirm) instead of building.
	const { publish, waiting } = outcomeAnswer(
		change.publish
			? await publishChange({
					client: session.client,
					tenantId: tenant.id,
					origin: 'staff',
					reason: `${change.write.path} saved`,
					impact: configChangeAltersPages(change.write.path) ? 'site' : 'none',
				})
			: { kind: 'none' },
	);
	return Response.json(
		{ success: true, path: change.write.path, ...saved, publish, waiting },
		{ headers: { 'Cache-Control': 'no-store' } },
	);
});
