// Runs on: hosted — the publish states and their guards are SQL: proved on the production shape.
import { createHash } from 'node:crypto';
import type { Context } from '@netlify/functions';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import deployBuilding from '../../netlify/functions/deploy-building.ts';
import deployFailed from '../../netlify/functions/deploy-failed.ts';
import deploySucceeded from '../../netlify/functions/deploy-succeeded.ts';
import {
	expirePublishes,
	readPublishEnv,
	requestPublish,
} from '../../src/features/publish/publish.server.ts';
import { netlifyDeploy, type NetlifyStandin } from '../support/netlify-api-standin.ts';
import { importStaffChambers, type StaffChambers } from './fixtures.ts';
import { userClient as asUser, dataOf, jsonObject } from '../support/db-clients.ts';
import type { Answer as FunctionAnswer, FunctionServer } from '../support/function-server.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// Publishing against the real stack: the functions run in the local Netlify server, sign-in is
// the identity service's, and a stand-in of Netlify's API receives the build-hook, purge and
// deploys calls. Netlify's deploy events are sent to the event functions as Netlify sends them.

const PASSWORD = 'publish-password';
const NOTIFICATION_SECRET = 'deploy-notification-secret-0123456789';
const DOMAIN = 'publish.test';

let site: StaffSite<StaffChambers>;
let netlify: NetlifyStandin;
let slug: string;
let otherSlug: string;
let tenantId: string;
let tenantName: string;
let tokens: StaffChambers['tokens'];
let emails: StaffChambers['emails'];

type Answer = FunctionAnswer;

const call: FunctionServer['call'] = (path, options) => site.server.call(path, options);

const userClient = (token: string) => asUser(stack, token);

async function rows(): Promise<
	{
		id: number;
		state: string;
		requests: number;
		error: string | null;
		deploy_id: string | null;
		has_snapshot: boolean;
		dispatched: boolean;
	}[]
> {
	const { rows } = await db.query(
		`select id::int, state, requests, error, deploy_id, config_snapshot is not null as has_snapshot,
			dispatched_at is not null as dispatched
		from public.publishes where tenant_id = $1 order by id`,
		[tenantId],
	);
	return rows;
}

/** The id a build hook's title names. */
function idOf(title: string | null): number {
	const match = /\[publish (\d+) of [a-z0-9-]+\]$/.exec(title ?? '');
	if (!match) throw new Error(`No publish in ${title}`);
	return Number(match[1]);
}

/** A Netlify event, sent to an event-triggered function the way Netlify's platform sends it. */
async function deployEvent(
	handler: (req: Request, context: Context) => Promise<Response>,
	deploy: Record<string, unknown>,
): Promise<Answer> {
	const response = await handler(
		new Request('https://chamber.example.org/.netlify/functions/deploy-event', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				payload: deploy,
				site: {
					id: netlify.siteId,
					name: 'chamber',
					url: 'https://chamber.example.org',
					admin_url: 'x',
				},
			}),
		}),
		{} as Context,
	);
	const text = await response.text();
	return {
		status: response.status,
		body: text ? JSON.parse(text) : null,
		headers: response.headers,
	};
}

const deployFor = (
	publishId: number,
	state: string,
	extra: { id?: string; error_message?: string } = {},
) =>
	netlifyDeploy(netlify.siteId, {
		state,
		title: `${tenantName}: Content saved by ${emails.admin} [publish ${publishId} of ${slug}]`,
		...extra,
	});

beforeAll(async () => {
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'publish',
				domain: DOMAIN,
				password: PASSWORD,
				name: 'Publish Chamber',
				config: { content: { heroTitle: 'First title' } },
			}),
		env: { NETLIFY_DEPLOY_NOTIFICATION_SECRET: NOTIFICATION_SECRET, NETLIFY_AUTH_TOKEN: undefined },
	});
	({ netlify } = site);
	({ slug, otherSlug, tenantId, tenantName, tokens, emails } = site.chambers);
});

afterAll(() => site?.close());

beforeEach(() => site.reset());

describe('POST /api/publish', () => {
	it("queues a build, calls Netlify's build hook naming the chamber and the user, and purges the chamber's cache tags", async () => {
		const res = await call('/api/publish', {
			token: tokens.editor,
			body: { reason: 'Content saved' },
		});
		expect(res.status).toBe(202);
		expect(res.body).toMatchObject({
			created: true,
			publish: {
				state: 'queued',
				reason: 'Content saved',
				requestedBy: emails.editor,
				requests: 1,
			},
		});
		expect(res.headers.get('cache-control')).toBe('no-store');

		expect(netlify.buildHooks).toHaveLength(1);
		const hook = netlify.buildHooks[0]!;
		expect(hook.triggerTitle).toBe(
			`${tenantName}: Content saved by ${emails.editor} [publish ${res.body.publish.id} of ${slug}]`,
		);
		expect(hook.triggerBranch).toBeNull();

		expect(netlify.purges).toEqual([
			{
				authorization: `Bearer ${netlify.token}`,
				contentType: 'application/json; charset=utf8',
				body: { site_id: netlify.siteId, cache_tags: [slug] },
			},
		]);
		expect(await rows()).toEqual([
			expect.objectContaining({ id: res.body.publish.id, state: 'queued', dispatched: true }),
		]);
	});

	it('takes the requester from the token, never from the body', async () => {
		const res = await call('/api/publish', {
			token: tokens.admin,
			body: { reason: 'Publish now', requestedBy: 'someone@else.test' },
		});
		expect(res.status).toBe(202);
		expect(res.body.publish.requestedBy).toBe(emails.admin);
		const { rows: stored } = await db.query(
			'select requested_by, requested_by_email from public.publishes where id = $1',
			[res.body.publish.id],
		);
		const { rows: user } = await db.query('select id from auth.users where email = $1', [
			emails.admin,
		]);
		expect(stored[0]).toEqual({ requested_by: user[0].id, requested_by_email: emails.admin });
	});

	it('accepts an empty body, and refuses bad ones with 400', async () => {
		const empty = await call('/api/publish', { method: 'POST', token: tokens.admin });
		expect(empty.status).toBe(202);
		expect(empty.body.publish.reason).toBe('Publish now');
		expect((await call('/api/publish', { token: tokens.admin, raw: '{oops' })).status).toBe(400);
		const long = await call('/api/publish', {
			token: tokens.admin,
			body: { reason: 'x'.repeat(121) },
		});
		expect(long).toMatchObject({
			status: 400,
			body: { error: 'reason: The reason is at most 120 characters' },
		});
	});

	it("refuses visitors (401) and another chamber's admin (403); a super_admin may publish", async () => {
		expect(await call('/api/publish', { body: {} })).toMatchObject({
			status: 401,
			body: { error: 'Authentication required' },
		});
		expect((await call('/api/publish', { token: 'not-a-token', body: {} })).status).toBe(401);
		const other = await call('/api/publish', { token: tokens.otherAdmin, body: {} });
		expect(other.status).toBe(403);
		expect(netlify.buildHooks).toHaveLength(0);
		const superAdmin = await call('/api/publish', { token: tokens.super, body: {} });
		expect(superAdmin.status).toBe(202);
		expect(superAdmin.body.publish.requestedBy).toBe(emails.super);
	});

	it('a database refuses a publish of another chamber even to a direct call with the token', async () => {
		const { error } = await userClient(tokens.otherAdmin).rpc('request_publish', {
			p_tenant_id: tenantId,
			p_reason: 'sneaky',
		});
		expect(error?.code).toBe('42501');
		expect(await rows()).toEqual([]);
	});
});

describe('coalescing', () => {
	it('20 saves while a build is queued join it; 20 during the build cause exactly one more (2 builds)', async () => {
		const first = await Promise.all(
			Array.from({ length: 20 }, () =>
				call('/api/publish', { token: tokens.admin, body: { reason: 'Content saved' } }),
			),
		);
		expect(first.map((r) => r.status)).toEqual(Array(20).fill(202));
		const ids = new Set(first.map((r) => r.body.publish.id));
		expect(ids.size).toBe(1);
		expect(first.filter((r) => r.body.created)).toHaveLength(1);
		expect(netlify.buildHooks).toHaveLength(1);
		const firstId = idOf(netlify.buildHooks[0]!.triggerTitle);

		expect((await deployEvent(deployBuilding, deployFor(firstId, 'building'))).status).toBe(200);

		const second = await Promise.all(
			Array.from({ length: 20 }, () =>
				call('/api/publish', { token: tokens.editor, body: { reason: 'Content saved' } }),
			),
		);
		expect(new Set(second.map((r) => r.body.publish.id)).size).toBe(1);
		expect(netlify.buildHooks).toHaveLength(2);
		const secondId = idOf(netlify.buildHooks[1]!.triggerTitle);
		expect(secondId).not.toBe(firstId);

		expect(await rows()).toEqual([
			expect.objectContaining({ id: firstId, state: 'building', requests: 20 }),
			expect.objectContaining({ id: secondId, state: 'queued', requests: 20 }),
		]);

		await deployEvent(deploySucceeded, deployFor(firstId, 'ready'));
		await deployEvent(deployBuilding, deployFor(secondId, 'building'));
		await deployEvent(deploySucceeded, deployFor(secondId, 'ready'));
		expect((await rows()).map((r) => r.state)).toEqual(['live', 'live']);
		// 40 saves, 2 builds; every save purged the chamber's entries.
		expect(netlify.buildHooks).toHaveLength(2);
		expect(netlify.purges).toHaveLength(40);
	});

	it('holds for server-side callers of requestPublish too (one queued per chamber)', async () => {
		const results = await Promise.all(
			Array.from({ length: 20 }, () =>
				requestPublish({ client: userClient(tokens.admin), tenantId, reason: 'Logo uploaded' }),
			),
		);
		expect(results.filter((r) => r.created)).toHaveLength(1);
		expect(netlify.buildHooks).toHaveLength(1);
		expect(await rows()).toEqual([expect.objectContaining({ state: 'queued', requests: 20 })]);
	});
});

describe("Netlify's deploy events", () => {
	async function queued(): Promise<number> {
		const res = await call('/api/publish', {
			token: tokens.admin,
			body: { reason: 'Content saved' },
		});
		return res.body.publish.id as number;
	}

	it('move a publish queued → building → live, keeping the configuration it built', async () => {
		const id = await queued();
		const building = await deployEvent(
			deployBuilding,
			deployFor(id, 'building', { id: 'deploy-1' }),
		);
		expect(building).toMatchObject({
			status: 200,
			body: { applied: true, publish: { state: 'building', deployId: 'deploy-1' } },
		});
		const live = await deployEvent(deploySucceeded, deployFor(id, 'ready', { id: 'deploy-1' }));
		expect(live.body.publish).toMatchObject({ state: 'live', deployId: 'deploy-1', error: null });
		expect(live.body.publish.finishedAt).toEqual(expect.any(String));
		const { rows: stored } = await db.query(
			`select config_snapshot->'content'->>'heroTitle' as title, config_version from public.publishes where id = $1`,
			[id],
		);
		expect(stored[0]).toEqual({ title: 'First title', config_version: expect.any(Number) });
	});

	it("fail a publish with Netlify's reason", async () => {
		const id = await queued();
		await deployEvent(deployBuilding, deployFor(id, 'building'));
		const failed = await deployEvent(
			deployFailed,
			deployFor(id, 'error', { error_message: 'Build script returned non-zero exit code: 2' }),
		);
		expect(failed.body.publish).toMatchObject({
			state: 'failed',
			error: 'Build script returned non-zero exit code: 2',
		});
		const status = await call('/api/publish-status', { token: tokens.editor });
		expect(status.body.publishes[0]).toMatchObject({ id, state: 'failed' });
	});

	it('late or repeated notifications change nothing', async () => {
		const id = await queued();
		await deployEvent(deployBuilding, deployFor(id, 'building'));
		await deployEvent(deploySucceeded, deployFor(id, 'ready'));
		const late = await deployEvent(deployBuilding, deployFor(id, 'building'));
		expect(late.body.publish.state).toBe('live');
		const lateFailure = await deployEvent(deployFailed, deployFor(id, 'error'));
		expect(lateFailure.body.publish.state).toBe('live');
		expect((await rows())[0]).toMatchObject({ state: 'live', has_snapshot: true });
	});

	it('leave deploys of another site and deploys no publish started alone', async () => {
		const id = await queued();
		const otherSite = await deployEvent(deployBuilding, {
			...deployFor(id, 'building'),
			site_id: 'another-site',
		});
		expect(otherSite.body).toEqual({ applied: false, reason: 'a deploy of another site' });
		const gitPush = await deployEvent(
			deployBuilding,
			netlifyDeploy(netlify.siteId, { state: 'building', title: 'Merge pull request #7' }),
		);
		expect(gitPush.body).toEqual({ applied: false, reason: 'a deploy no publish started' });
		expect((await rows())[0]).toMatchObject({ id, state: 'queued' });
	});

	it('leave another chamber’s publishes alone, whatever the deploy’s title says', async () => {
		const id = await queued();
		// Another chamber's deployment (same database, another site): its publish numbers are
		// this database's too, so a deploy there naming this publish must not move it.
		const { rows: other } = await db.query(
			`insert into public.publishes (tenant_id, state, reason) values ((select id from public.tenants where slug = $1), 'queued', 'Content saved') returning id::int`,
			[otherSlug],
		);
		const theirs = other[0].id as number;
		for (const title of [
			`Other: Content saved [publish ${id} of ${otherSlug}]`,
			`Other: Content saved [publish ${theirs} of ${slug}]`,
		]) {
			const answer = await deployEvent(
				deploySucceeded,
				netlifyDeploy(netlify.siteId, { state: 'ready', title }),
			);
			expect(answer.body, title).toEqual({ applied: false, reason: 'a deploy of another chamber' });
		}
		expect((await rows())[0]).toMatchObject({ id, state: 'queued' });
		const { rows: still } = await db.query('select state from public.publishes where id = $1', [
			theirs,
		]);
		expect(still[0].state).toBe('queued');
	});

	it('refuse a payload that is not a deploy event (400, nothing changes)', async () => {
		const id = await queued();
		const response = await deployBuilding(
			new Request('https://x/.netlify/functions/deploy-building', {
				method: 'POST',
				body: JSON.stringify({ payload: { title: `[publish ${id} of ${slug}]` } }),
			}),
			{} as Context,
		);
		expect(response.status).toBe(400);
		expect((await rows())[0]).toMatchObject({ state: 'queued' });
	});

	it('a succeeded notification whose start was lost still records the build and its configuration', async () => {
		const id = await queued();
		const live = await deployEvent(deploySucceeded, deployFor(id, 'ready'));
		expect(live.body.publish.state).toBe('live');
		expect((await rows())[0]).toMatchObject({ state: 'live', has_snapshot: true });
	});
});

describe('signed deploy notifications (POST /api/deploy-notifications)', () => {
	async function sign(
		body: string,
		secret = NOTIFICATION_SECRET,
		claims: Record<string, unknown> = {},
	) {
		return new SignJWT({ sha256: createHash('sha256').update(body).digest('hex'), ...claims })
			.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
			.setIssuer((claims.iss as string) ?? 'netlify')
			.sign(new TextEncoder().encode(secret));
	}

	it("apply a notification carrying Netlify's X-Webhook-Signature over its body", async () => {
		const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		const body = JSON.stringify(deployFor(id, 'building', { id: 'deploy-signed' }));
		const res = await call('/api/deploy-notifications', {
			raw: body,
			headers: { 'x-webhook-signature': await sign(body) },
		});
		expect(res).toMatchObject({
			status: 200,
			body: { applied: true, publish: { state: 'building' } },
		});
		const ready = JSON.stringify(deployFor(id, 'ready', { id: 'deploy-signed' }));
		await call('/api/deploy-notifications', {
			raw: ready,
			headers: { 'x-webhook-signature': await sign(ready) },
		});
		expect((await rows())[0]).toMatchObject({ state: 'live', deploy_id: 'deploy-signed' });
	});

	it('refuse missing, forged, tampered and unsigned-algorithm signatures with 401', async () => {
		const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		const body = JSON.stringify(deployFor(id, 'ready'));
		const tampered = JSON.stringify(deployFor(id, 'error'));
		const header = (value: string) => ({ 'x-webhook-signature': value });
		const none =
			`${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.` +
			`${Buffer.from(JSON.stringify({ iss: 'netlify', sha256: createHash('sha256').update(body).digest('hex') })).toString('base64url')}.`;
		const cases = [
			{ headers: {} },
			{ headers: header(await sign(body, 'not-the-secret-at-all-0123456789')) },
			{ headers: header(await sign(body)), raw: tampered },
			{ headers: header(await sign(body, NOTIFICATION_SECRET, { iss: 'someone-else' })) },
			{ headers: header(none) },
		];
		for (const c of cases) {
			const res = await call('/api/deploy-notifications', {
				raw: c.raw ?? body,
				headers: c.headers,
			});
			expect(res.status).toBe(401);
		}
		expect((await rows())[0]).toMatchObject({ state: 'queued' });
	});

	it('refuse everything when no secret is configured', async () => {
		delete process.env.NETLIFY_DEPLOY_NOTIFICATION_SECRET;
		try {
			const body = JSON.stringify(deployFor(1, 'ready'));
			const res = await call('/api/deploy-notifications', {
				raw: body,
				headers: { 'x-webhook-signature': await sign(body) },
			});
			expect(res).toMatchObject({
				status: 503,
				body: { error: 'Deploy notifications are not configured' },
			});
		} finally {
			process.env.NETLIFY_DEPLOY_NOTIFICATION_SECRET = NOTIFICATION_SECRET;
		}
	});
});

describe('a build that reports nothing', () => {
	it('is failed after 15 minutes (the clock injected), not before', async () => {
		const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		await deployEvent(deployBuilding, deployFor(id, 'building'));
		const in14 = new Date(Date.now() + 14 * 60_000);
		expect(await expirePublishes(service, tenantId, in14)).toBe(0);
		expect((await rows())[0]?.state).toBe('building');
		const in16 = new Date(Date.now() + 16 * 60_000);
		expect(await expirePublishes(service, tenantId, in16)).toBe(1);
		expect((await rows())[0]).toMatchObject({
			state: 'failed',
			error: 'The build reported nothing for 15 minutes.',
			has_snapshot: false,
		});
	});

	it('a queued publish waits for the build ahead of it, and fails only when nothing is ahead', async () => {
		const first = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		await deployEvent(deployBuilding, deployFor(first, 'building'));
		const second = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		// Both silent for 16 minutes: the build fails, the queued one now waits its own 15.
		expect(await expirePublishes(service, tenantId, new Date(Date.now() + 16 * 60_000))).toBe(1);
		expect((await rows()).map((r) => [r.id, r.state])).toEqual([
			[first, 'failed'],
			[second, 'queued'],
		]);
		expect(await expirePublishes(service, tenantId, new Date(Date.now() + 32 * 60_000))).toBe(1);
		expect((await rows())[1]).toMatchObject({
			state: 'failed',
			error: 'The build never started (nothing heard for 15 minutes).',
		});
	});

	it("a user's call cannot move the clock", async () => {
		const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		const { data, error } = await userClient(tokens.admin).rpc('expire_publishes', {
			p_tenant_id: tenantId,
			p_now: new Date(Date.now() + 24 * 3600_000).toISOString(),
		});
		expect(error).toBeNull();
		expect(data).toBe(0);
		expect((await rows())[0]).toMatchObject({ id, state: 'queued' });
	});

	it('the status function fails silent publishes before it answers', async () => {
		const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		await db.query(
			`update public.publishes set last_report_at = now() - interval '16 minutes' where id = $1`,
			[id],
		);
		const res = await call('/api/publish-status', { token: tokens.editor });
		expect(res.body.publishes[0]).toMatchObject({
			id,
			state: 'failed',
			error: 'The build never started (nothing heard for 15 minutes).',
		});
	});

	it('a new save after a stuck queued publish gets a build of its own', async () => {
		const stuck = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		await db.query(
			`update public.publishes set last_report_at = now() - interval '20 minutes' where id = $1`,
			[stuck],
		);
		const fresh = await call('/api/publish', { token: tokens.admin, body: {} });
		expect(fresh.body).toMatchObject({ created: true });
		expect(fresh.body.publish.id).not.toBe(stuck);
		expect(netlify.buildHooks).toHaveLength(2);
	});
});

describe('when the build service fails', () => {
	it('a build hook answering an error fails the publish with the reason', async () => {
		netlify.failBuildHooks(500);
		const res = await call('/api/publish', { token: tokens.admin, body: {} });
		expect(res.status).toBe(202);
		expect(res.body.publish).toMatchObject({
			state: 'failed',
			error: 'The build service refused the request (HTTP 500).',
		});
		// Retry: a new publish, which now gets through.
		netlify.failBuildHooks(null);
		const retry = await call('/api/publish', { token: tokens.admin, body: { reason: 'Retry' } });
		expect(retry.body).toMatchObject({ created: true, publish: { state: 'queued' } });
	});

	it('an unreachable build service, or none configured, fails the publish saying so', async () => {
		process.env.NETLIFY_BUILD_HOOK_URL = 'http://127.0.0.1:9/build_hooks/nothing-listens';
		try {
			const res = await call('/api/publish', { token: tokens.admin, body: {} });
			expect(res.body.publish).toMatchObject({
				state: 'failed',
				error: 'The build service could not be reached.',
			});
			delete process.env.NETLIFY_BUILD_HOOK_URL;
			const none = await call('/api/publish', { token: tokens.admin, body: {} });
			expect(none.body.publish).toMatchObject({
				state: 'failed',
				error: 'No build service is configured (NETLIFY_BUILD_HOOK_URL is not set).',
			});
		} finally {
			process.env.NETLIFY_BUILD_HOOK_URL = netlify.buildHookUrl;
		}
	});

	it('a refused purge does not stop the publish', async () => {
		process.env.SITE_ID = 'unknown-site';
		try {
			const res = await call('/api/publish', { token: tokens.admin, body: {} });
			expect(res.body.publish.state).toBe('queued');
			expect(netlify.purges).toHaveLength(1);
		} finally {
			process.env.SITE_ID = netlify.siteId;
		}
	});
});

describe("Netlify's deploys API as the fallback", () => {
	it('with a token, the status reads the deploys a late notification has not reported', async () => {
		process.env.NETLIFY_AUTH_TOKEN = netlify.token;
		try {
			const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
			netlify.deploys = [
				deployFor(id, 'ready', { id: 'deploy-from-api' }),
				netlifyDeploy(netlify.siteId, { state: 'ready', title: 'An older git deploy' }),
			];
			const res = await call('/api/publish-status', { token: tokens.editor });
			expect(res.body.publishes[0]).toMatchObject({
				id,
				state: 'live',
				deployId: 'deploy-from-api',
			});
			expect(netlify.deployListCalls).toEqual([
				{ authorization: `Bearer ${netlify.token}`, query: '?per_page=20' },
			]);
		} finally {
			delete process.env.NETLIFY_AUTH_TOKEN;
		}
	});

	it('with a token, a new request fails a publish Netlify never built and applies one it finished', async () => {
		process.env.NETLIFY_AUTH_TOKEN = netlify.token;
		try {
			const lost = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
			// Accepted by the build hook eleven minutes ago, and Netlify has no deploy for it.
			await db.query(
				`update public.publishes set dispatched_at = now() - interval '11 minutes' where id = $1`,
				[lost],
			);
			netlify.deploys = [netlifyDeploy(netlify.siteId, { state: 'ready', title: 'A git deploy' })];
			const next = await call('/api/publish', { token: tokens.admin, body: {} });
			expect(next.body).toMatchObject({ created: true, publish: { state: 'queued' } });
			expect(next.body.publish.id).not.toBe(lost);
			expect(netlify.buildHooks).toHaveLength(2);
			const { rows } = await db.query('select state, error from public.publishes where id = $1', [
				lost,
			]);
			expect(rows[0]).toEqual({ state: 'failed', error: 'Netlify has no build for this publish.' });

			// The next one's notification is lost; Netlify's list says it went live.
			const finished = next.body.publish.id;
			netlify.deploys = [deployFor(finished, 'ready', { id: 'deploy-listed' })];
			const third = await call('/api/publish', { token: tokens.admin, body: {} });
			expect(third.body.created).toBe(true);
			const applied = await db.query(
				'select state, deploy_id from public.publishes where id = $1',
				[finished],
			);
			expect(applied.rows[0]).toEqual({ state: 'live', deploy_id: 'deploy-listed' });
		} finally {
			delete process.env.NETLIFY_AUTH_TOKEN;
		}
	});

	it('without a token, it is not asked', async () => {
		const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		netlify.deploys = [deployFor(id, 'ready')];
		const res = await call('/api/publish-status', { token: tokens.editor });
		expect(res.body.publishes[0]).toMatchObject({ id, state: 'queued' });
		expect(netlify.deployListCalls).toEqual([]);
	});
});

describe('a newer publish supersedes the build under way', () => {
	/** A save's publish whose build Netlify has started (deploy-building received). */
	async function building(deployId: string): Promise<number> {
		const id = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		netlify.deploys = [deployFor(id, 'building', { id: deployId }), ...netlify.deploys];
		await deployEvent(deployBuilding, deployFor(id, 'building', { id: deployId }));
		return id;
	}

	it('with a token, its deploy is cancelled through the deploys API and its publish says so', async () => {
		process.env.NETLIFY_AUTH_TOKEN = netlify.token;
		try {
			const first = await building('deploy-stale');
			const second = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish;
			expect(netlify.cancels).toEqual([
				{ deployId: 'deploy-stale', authorization: `Bearer ${netlify.token}`, body: '' },
			]);
			expect(netlify.buildHooks.map((h) => idOf(h.triggerTitle))).toEqual([first, second.id]);
			expect(await rows()).toEqual([
				expect.objectContaining({
					id: first,
					state: 'failed',
					error: `Cancelled: publish ${second.id} supersedes it.`,
					deploy_id: 'deploy-stale',
				}),
				expect.objectContaining({ id: second.id, state: 'queued' }),
			]);
			// Netlify's own notification of the cancelled deploy changes nothing more.
			await deployEvent(
				deployFailed,
				deployFor(first, 'error', { id: 'deploy-stale', error_message: 'Canceled build' }),
			);
			expect((await rows())[0]!.error).toBe(`Cancelled: publish ${second.id} supersedes it.`);
			// Saves joining the queued publish cancel nothing more.
			await call('/api/publish', { token: tokens.admin, body: {} });
			expect(netlify.cancels).toHaveLength(1);
		} finally {
			delete process.env.NETLIFY_AUTH_TOKEN;
		}
	});

	it('when Netlify refuses the cancel (an unknown deploy, a wrong token), the build runs on', async () => {
		process.env.NETLIFY_AUTH_TOKEN = 'nfp_not-the-token';
		try {
			const first = await building('deploy-running');
			await call('/api/publish', { token: tokens.admin, body: {} });
			expect(netlify.cancels).toEqual([]);
			expect((await rows())[0]).toMatchObject({ id: first, state: 'building', error: null });
		} finally {
			delete process.env.NETLIFY_AUTH_TOKEN;
		}
	});

	it('without a token, nothing is cancelled', async () => {
		const first = await building('deploy-untouched');
		await call('/api/publish', { token: tokens.admin, body: {} });
		expect(netlify.cancels).toEqual([]);
		expect((await rows()).map((r) => [r.id === first, r.state])).toEqual([
			[true, 'building'],
			[false, 'queued'],
		]);
	});
});

describe('GET /api/publish-status', () => {
	it("answers the chamber's newest publishes to its staff, newest first", async () => {
		const ids: number[] = [];
		for (let i = 0; i < 3; i++) {
			const id = (
				await call('/api/publish', { token: tokens.admin, body: { reason: `Save ${i}` } })
			).body.publish.id;
			ids.push(id);
			await deployEvent(deploySucceeded, deployFor(id, 'ready'));
		}
		const res = await call('/api/publish-status?limit=2', { token: tokens.editor });
		expect(res.status).toBe(200);
		expect(res.body.publishes.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[1]]);
		expect(res.headers.get('cache-control')).toBe('no-store');
		expect((await call('/api/publish-status?limit=0', { token: tokens.editor })).status).toBe(400);
		expect((await call('/api/publish-status')).status).toBe(401);
		expect((await call('/api/publish-status', { token: tokens.otherAdmin })).status).toBe(403);
	});
});

describe('history and restore', () => {
	async function publishLive(token: string): Promise<number> {
		const id = (await call('/api/publish', { token, body: { reason: 'Content saved' } })).body
			.publish.id;
		await deployEvent(deployBuilding, deployFor(id, 'building'));
		await deployEvent(deploySucceeded, deployFor(id, 'ready'));
		return id;
	}

	async function setHeroTitle(token: string, title: string) {
		const { content } = dataOf(
			await userClient(token)
				.from('chamber_config')
				.select('content')
				.eq('tenant_id', tenantId)
				.single(),
		);
		const { error } = await userClient(token)
			.from('chamber_config')
			.update({ content: { ...jsonObject(content, 'content'), heroTitle: title } })
			.eq('tenant_id', tenantId);
		expect(error).toBeNull();
	}

	async function heroTitle(): Promise<string> {
		const { rows } = await db.query(
			`select content->>'heroTitle' as title from public.chamber_config where tenant_id = $1`,
			[tenantId],
		);
		return rows[0].title;
	}

	it('shows what each publish changed, field by field, and who changed it', async () => {
		await setHeroTitle(tokens.admin, 'First title');
		const first = await publishLive(tokens.admin);
		await setHeroTitle(tokens.editor, 'Second title');
		const second = await publishLive(tokens.editor);

		const res = await call('/api/publish-history', { token: tokens.admin });
		expect(res.status).toBe(200);
		const [newest, older] = res.body.entries;
		expect(newest).toMatchObject({
			id: second,
			requestedBy: emails.editor,
			baseline: false,
			changes: [
				{
					section: 'content',
					field: 'heroTitle',
					before: 'First title',
					after: 'Second title',
					changedBy: [emails.editor],
				},
			],
		});
		expect(older).toMatchObject({ id: first, baseline: true, changes: [] });

		expect((await call('/api/publish-history', { token: tokens.editor })).status).toBe(403);
		expect((await call('/api/publish-history', { token: tokens.super })).status).toBe(200);
	});

	it('Restore writes a kept configuration back with the user token and publishes it', async () => {
		await setHeroTitle(tokens.admin, 'Keep me');
		const kept = await publishLive(tokens.admin);
		await setHeroTitle(tokens.admin, 'Regret this');
		await publishLive(tokens.admin);
		netlify.reset();

		const refused = await call('/api/publish-restore', {
			token: tokens.editor,
			body: { publishId: kept },
		});
		expect(refused.status).toBe(403);
		expect(await heroTitle()).toBe('Regret this');

		const res = await call('/api/publish-restore', {
			token: tokens.admin,
			body: { publishId: kept },
		});
		expect(res.status).toBe(202);
		expect(res.body).toMatchObject({
			created: true,
			publish: { state: 'queued', requestedBy: emails.admin },
		});
		expect(res.body.publish.reason).toMatch(
			/^Restored the configuration published \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
		);
		expect(await heroTitle()).toBe('Keep me');
		expect(netlify.buildHooks).toHaveLength(1);
		// Audited as the admin's own change.
		const { rows: audit } = await db.query(
			`select actor_email, new_value #>> '{}' as value from public.audit_log
			where tenant_id = $1 and section = 'content' and field = 'heroTitle' order by id desc limit 1`,
			[tenantId],
		);
		expect(audit[0]).toEqual({ actor_email: emails.admin, value: 'Keep me' });
	});

	it('answers 404 for an unknown publish, 409 for one whose configuration is not kept, 400 for junk', async () => {
		expect(
			(await call('/api/publish-restore', { token: tokens.admin, body: { publishId: 987654321 } }))
				.status,
		).toBe(404);
		const failed = (await call('/api/publish', { token: tokens.admin, body: {} })).body.publish.id;
		await deployEvent(deployFailed, deployFor(failed, 'error'));
		expect(
			(await call('/api/publish-restore', { token: tokens.admin, body: { publishId: failed } }))
				.status,
		).toBe(409);
		expect(
			await call('/api/publish-restore', { token: tokens.admin, body: { publishId: 'abc' } }),
		).toMatchObject({
			status: 400,
			body: { error: 'publishId: Expected the id of a publish' },
		});
	});

	it('keeps the configurations of the 20 newest live publishes only', async () => {
		for (let i = 0; i < 22; i++) await publishLive(tokens.admin);
		const all = await rows();
		expect(all.filter((r) => r.state === 'live')).toHaveLength(22);
		expect(all.map((r) => r.has_snapshot)).toEqual([false, false, ...Array(20).fill(true)]);
		const history = await call('/api/publish-history', { token: tokens.admin });
		expect(history.body.entries).toHaveLength(20);
	});
});

describe('the publishing settings', () => {
	it('read empty variables as unset and refuse a malformed hook URL', () => {
		expect(readPublishEnv({ NETLIFY_BUILD_HOOK_URL: '', SITE_ID: '' })).toMatchObject({
			NETLIFY_BUILD_HOOK_URL: undefined,
			SITE_ID: undefined,
			NETLIFY_API_URL: 'https://api.netlify.com',
		});
		expect(() => readPublishEnv({ NETLIFY_BUILD_HOOK_URL: 'ftp://x' })).toThrow(
			/NETLIFY_BUILD_HOOK_URL/,
		);
	});
});
