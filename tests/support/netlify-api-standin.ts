import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the parts of Netlify that publishing talks to, with Netlify's request and
 * answer shapes (open-api `@netlify/open-api`, and the documented build hooks):
 *
 *   POST /build_hooks/{id}?trigger_title=…&trigger_branch=…   → 200, empty body (a build starts)
 *   POST /api/v1/purge  {site_id | site_slug, cache_tags[]}    → 202 (Bearer token required)
 *   GET  /api/v1/sites/{site_id}/deploys?page=&per_page=       → 200 [deploy…], newest first
 *   POST /api/v1/deploys/{deploy_id}/cancel  (no body)         → 201 deploy (open-api
 *        cancelSiteDeploy; it also stops the deploy's build); 404 for a deploy it does not know
 *
 * A wrong or missing token answers 401 `{code, message}` as Netlify's API does, an unknown site
 * 404. What arrived is recorded for the tests to check; failures can be switched on.
 */

interface BuildHookCall {
	hookId: string;
	triggerTitle: string | null;
	triggerBranch: string | null;
	contentType: string | undefined;
	body: string;
}

interface PurgeCall {
	authorization: string | undefined;
	contentType: string | undefined;
	body: unknown;
}

export interface NetlifyStandin {
	/** Base URL, for NETLIFY_API_URL. */
	url: string;
	/** The site's build hook URL, for NETLIFY_BUILD_HOOK_URL. */
	buildHookUrl: string;
	siteId: string;
	/** The token the API accepts (purge, deploys). */
	token: string;
	/** The variables that point the publishing code at this stand-in. */
	env: Record<string, string>;
	buildHooks: BuildHookCall[];
	purges: PurgeCall[];
	deployListCalls: { authorization: string | undefined; query: string }[];
	/** What GET …/deploys answers, newest first. */
	deploys: Record<string, unknown>[];
	/** Deploys cancelled through POST /api/v1/deploys/{id}/cancel, in order. */
	cancels: { deployId: string; authorization: string | undefined; body: string }[];
	/** Answer every build hook call with this status instead of 200. */
	failBuildHooks(status: number | null): void;
	/** Forget what was recorded. */
	reset(): void;
	close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (text += chunk));
		req.on('end', () => resolve(text));
		req.on('error', reject);
	});
}

function send(res: ServerResponse, status: number, body?: unknown): void {
	if (body === undefined) {
		res.writeHead(status);
		res.end();
		return;
	}
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}

export async function startNetlifyStandin(
	options: { siteId?: string; token?: string } = {},
): Promise<NetlifyStandin> {
	const siteId = options.siteId ?? `site-${randomBytes(6).toString('hex')}`;
	const token = options.token ?? `nfp_${randomBytes(16).toString('hex')}`;
	const hookId = randomBytes(12).toString('hex');
	const state = {
		buildHooks: [] as BuildHookCall[],
		purges: [] as PurgeCall[],
		deployListCalls: [] as { authorization: string | undefined; query: string }[],
		cancels: [] as { deployId: string; authorization: string | undefined; body: string }[],
		deploys: [] as Record<string, unknown>[],
		hookFailure: null as number | null,
	};

	const server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', 'http://standin');
			const body = await readBody(req);
			const authorized = req.headers.authorization === `Bearer ${token}`;

			const hook = /^\/build_hooks\/([^/]+)$/.exec(url.pathname);
			if (hook && req.method === 'POST') {
				if (hook[1] !== hookId) return send(res, 404, { code: 404, message: 'Not Found' });
				state.buildHooks.push({
					hookId: hook[1],
					triggerTitle: url.searchParams.get('trigger_title'),
					triggerBranch: url.searchParams.get('trigger_branch'),
					contentType: req.headers['content-type'],
					body,
				});
				return send(res, state.hookFailure ?? 200);
			}
			if (url.pathname === '/api/v1/purge' && req.method === 'POST') {
				if (!authorized) return send(res, 401, { code: 401, message: 'Access Denied' });
				let parsed: unknown;
				try {
					parsed = JSON.parse(body);
				} catch {
					return send(res, 400, { code: 400, message: 'Invalid request parameters' });
				}
				state.purges.push({
					authorization: req.headers.authorization,
					contentType: req.headers['content-type'],
					body: parsed,
				});
				const site = (parsed as { site_id?: unknown }).site_id;
				if (site !== siteId) return send(res, 404, { code: 404, message: 'Site not found' });
				return send(res, 202);
			}
			const deploys = /^\/api\/v1\/sites\/([^/]+)\/deploys$/.exec(url.pathname);
			if (deploys && req.method === 'GET') {
				state.deployListCalls.push({ authorization: req.headers.authorization, query: url.search });
				if (!authorized) return send(res, 401, { code: 401, message: 'Access Denied' });
				if (decodeURIComponent(deploys[1] ?? '') !== siteId) {
					return send(res, 404, { code: 404, message: 'Not Found' });
				}
				const perPage = Number(url.searchParams.get('per_page') ?? 100);
				return send(res, 200, state.deploys.slice(0, perPage));
			}
			const cancel = /^\/api\/v1\/deploys\/([^/]+)\/cancel$/.exec(url.pathname);
			if (cancel && req.method === 'POST') {
				if (!authorized) return send(res, 401, { code: 401, message: 'Access Denied' });
				const deployId = decodeURIComponent(cancel[1] ?? '');
				const deploy = state.deploys.find((d) => d.id === deployId);
				if (!deploy) return send(res, 404, { code: 404, message: 'Not Found' });
				state.cancels.push({ deployId, authorization: req.headers.authorization, body });
				deploy.state = 'error';
				deploy.error_message = 'Canceled build';
				return send(res, 201, deploy);
			}
			send(res, 404, { code: 404, message: 'Not Found' });
		})().catch((error: unknown) => {
			console.error('[netlify-standin]', error);
			send(res, 500, { code: 500, message: 'Internal Server Error' });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const url = `http://127.0.0.1:${port}`;

	return {
		url,
		buildHookUrl: `${url}/build_hooks/${hookId}`,
		siteId,
		token,
		env: {
			NETLIFY_BUILD_HOOK_URL: `${url}/build_hooks/${hookId}`,
			NETLIFY_PURGE_API_TOKEN: token,
			SITE_ID: siteId,
			NETLIFY_API_URL: url,
		},
		get buildHooks() {
			return state.buildHooks;
		},
		get purges() {
			return state.purges;
		},
		get deployListCalls() {
			return state.deployListCalls;
		},
		get deploys() {
			return state.deploys;
		},
		get cancels() {
			return state.cancels;
		},
		set deploys(list) {
			state.deploys = list;
		},
		failBuildHooks(status) {
			state.hookFailure = status;
		},
		reset() {
			state.buildHooks = [];
			state.purges = [];
			state.deployListCalls = [];
			state.deploys = [];
			state.cancels = [];
			state.hookFailure = null;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A deploy as Netlify's API and deploy notifications describe it (snake_case). */
export function netlifyDeploy(
	siteId: string,
	fields: { id?: string; state: string; title: string | null; error_message?: string | null },
): Record<string, unknown> {
	const id = fields.id ?? randomBytes(12).toString('hex');
	const now = new Date().toISOString();
	return {
		id,
		site_id: siteId,
		build_id: randomBytes(12).toString('hex'),
		state: fields.state,
		name: 'chamber',
		url: 'https://chamber.example.org',
		ssl_url: 'https://chamber.example.org',
		admin_url: 'https://app.netlify.com/sites/chamber',
		deploy_url: `http://${id}--chamber.netlify.app`,
		deploy_ssl_url: `https://${id}--chamber.netlify.app`,
		created_at: now,
		updated_at: now,
		user_id: null,
		error_message: fields.error_message ?? null,
		required: [],
		required_functions: [],
		commit_ref: null,
		review_id: null,
		branch: 'main',
		commit_url: null,
		skipped: null,
		locked: null,
		title: fields.title,
		review_url: null,
		published_at: fields.state === 'ready' ? now : null,
		context: 'production',
		deploy_time: fields.state === 'ready' ? 31 : null,
		available_functions: [],
		manual_deploy: false,
		framework: 'astro',
	};
}
