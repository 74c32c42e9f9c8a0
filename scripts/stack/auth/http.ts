import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { AuthConfig } from './config.ts';
import { checkCaptcha } from './captcha.ts';
import { AuthError, errorAnswer, OAuthError } from './errors.ts';
import { RequestLimiter } from './rate-limit.ts';
import type { AuthService, RequestInfo } from './service.ts';

/**
 * The HTTP face of the identity service: GoTrue's routes under /auth/v1 (internal/api/api.go),
 * its request parsing (JSON or form bodies, `grant_type` and `redirect_to` in the query), its
 * per-IP limits and its answers. The gateway strips the /auth/v1 prefix and checks `apikey`.
 */

const MAX_BODY = 1024 * 1024;

export interface RoutedRequest {
	req: IncomingMessage;
	res: ServerResponse;
	/** Path below /auth/v1, e.g. '/token'. */
	path: string;
	query: URLSearchParams;
	/** Headers added to every answer (CORS). */
	headers: Record<string, string>;
}

function send(
	route: RoutedRequest,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const payload = body === undefined ? '' : JSON.stringify(body);
	route.res.writeHead(status, {
		...route.headers,
		...(payload ? { 'content-type': 'application/json' } : {}),
		...headers,
	});
	route.res.end(payload);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY) {
			throw new AuthError(413, 'request_entity_too_large', 'Request body too large');
		}
		chunks.push(chunk as Buffer);
	}
	const text = Buffer.concat(chunks).toString('utf8');
	if (text.trim() === '') return {};
	if (/application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
		return Object.fromEntries(new URLSearchParams(text));
	}
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new AuthError(
			400,
			'bad_json',
			`Could not parse request body as JSON: ${(error as Error).message}`,
		);
	}
}

function bearer(req: IncomingMessage): string | null {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
	return match?.[1] ?? null;
}

/**
 * The client address GoTrue's limits count (internal/api/middleware.go performRateLimiting): the
 * visitor's address in `Sb-Forwarded-For` when IP address forwarding is on (the gateway lets the
 * header through only on a secret key's request: a function acting for a visitor), else the first
 * address of the header the edge sets (`rateLimitHeader`, X-Forwarded-For as our gateway
 * overwrites it with the connection's address), else the connection's own.
 */
function clientAddress(
	req: IncomingMessage,
	config: Pick<AuthConfig, 'rateLimitHeader' | 'sbForwardedForEnabled'>,
): string {
	const first = (name: string) => {
		const value = req.headers[name];
		return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || null;
	};
	if (config.sbForwardedForEnabled) {
		const forwarded = first('sb-forwarded-for');
		if (forwarded && isIP(forwarded)) return forwarded;
	}
	return (
		(config.rateLimitHeader && first(config.rateLimitHeader.toLowerCase())) ||
		req.socket.remoteAddress?.replace(/^::ffff:/, '') ||
		'unknown'
	);
}

/**
 * GoTrue's Link header (pagination.go addPaginationHeaders): the request's own path and query
 * with `page` replaced, encoded as Go's url.Values does (keys sorted — auth-js reads the page
 * number right after the first `=`), `next` while there is one, `last` always.
 */
export function paginationLink(
	query: URLSearchParams,
	page: number,
	perPage: number,
	total: number,
): string {
	const pages = Math.ceil(total / perPage);
	const to = (p: number) => {
		const q = new URLSearchParams(query);
		q.set('page', String(p));
		q.sort();
		return `</admin/users?${q}>`;
	};
	return `${pages > page ? `${to(page + 1)}; rel="next", ` : ''}${to(pages)}; rel="last"`;
}

export function createAuthRoutes(service: AuthService): (route: RoutedRequest) => Promise<void> {
	const limiters = {
		token: new RequestLimiter(service.config.limits.token),
		recover: new RequestLimiter(service.config.limits.recover),
		verify: new RequestLimiter(service.config.limits.verify),
		otp: new RequestLimiter(service.config.limits.otp),
	};

	const info = (req: IncomingMessage): RequestInfo => ({
		ip: clientAddress(req, service.config),
		userAgent: req.headers['user-agent'],
	});

	/** GoTrue's verifyCaptcha, which admin credentials (the service role) pass. */
	async function captcha(req: IncomingMessage, body: unknown): Promise<void> {
		if (!service.config.captcha) return;
		const isAdmin = await service.requireAdmin(bearer(req)).then(
			() => true,
			() => false,
		);
		if (!isAdmin) await checkCaptcha(service.config, body, clientAddress(req, service.config));
	}

	function limit(which: keyof typeof limiters, req: IncomingMessage): void {
		if (!limiters[which].take(clientAddress(req, service.config))) {
			throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
		}
	}

	async function handle(route: RoutedRequest): Promise<void> {
		const { req, path, query } = route;
		const method = req.method ?? 'GET';
		const adminUser = /^\/admin\/users\/([^/]+)$/.exec(path);

		if (path === '/health' && method === 'GET') {
			return send(route, 200, {
				version: 'local',
				name: 'GoTrue',
				description: "The Chamber stack's local GoTrue-compatible identity service",
			});
		}
		if (path === '/settings' && method === 'GET') {
			return send(route, 200, {
				external: { email: true, phone: false, anonymous_users: false },
				disable_signup: true,
				mailer_autoconfirm: false,
				phone_autoconfirm: false,
				sms_provider: '',
				saml_enabled: false,
			});
		}
		if (path === '/token' && method === 'POST') {
			const grant = query.get('grant_type');
			if (grant !== 'password' && grant !== 'refresh_token') {
				throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
			}
			limit('token', req);
			const body = await readBody(req);
			if (grant === 'password') await captcha(req, body);
			const session =
				grant === 'password'
					? await service.passwordGrant(body, info(req))
					: await service.refreshGrant(body);
			return send(route, 200, session);
		}
		if (path === '/user' && method === 'GET') {
			return send(route, 200, await service.getUser(bearer(req)));
		}
		if (path === '/user' && method === 'PUT') {
			const body = await readBody(req);
			return send(route, 200, await service.updateUser(bearer(req), body));
		}
		if (path === '/logout' && method === 'POST') {
			await service.logout(bearer(req), query.get('scope'));
			return send(route, 204, undefined);
		}
		if (path === '/recover' && method === 'POST') {
			limit('recover', req);
			const body = await readBody(req);
			await captcha(req, body);
			return send(route, 200, await service.recover(body, query.get('redirect_to')));
		}
		if (path === '/otp' && method === 'POST') {
			limit('otp', req);
			const body = await readBody(req);
			await captcha(req, body);
			return send(route, 200, await service.otp(body, query.get('redirect_to')));
		}
		if (path === '/verify' && method === 'GET') {
			limit('verify', req);
			const location = await service.verifyLink(query, info(req));
			route.res.writeHead(303, { ...route.headers, location });
			route.res.end();
			return;
		}
		if (path === '/verify' && method === 'POST') {
			limit('verify', req);
			const body = await readBody(req);
			return send(route, 200, await service.verifyPost(body, info(req)));
		}
		if (path === '/signup' && method === 'POST') {
			throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
		}
		if (path === '/admin/users' || adminUser) {
			await service.requireAdmin(bearer(req));
			if (path === '/admin/users' && method === 'GET') {
				// pagination.go paginate: an absent or empty value (auth-js sends `page=&per_page=`
				// when none is given) takes the default.
				const number = (name: string, fallback: number) => {
					const raw = query.get(name) || String(fallback);
					if (!/^\d+$/.test(raw) || Number(raw) < 1) {
						throw new AuthError(
							400,
							'validation_failed',
							`Bad Pagination Parameters: invalid ${name} "${raw}"`,
						);
					}
					return Number(raw);
				};
				const page = number('page', 1);
				const perPage = number('per_page', 50);
				const { users, aud, total } = await service.adminListUsers(
					page,
					perPage,
					query.get('filter') ?? '',
				);
				const link = paginationLink(query, page, perPage, total);
				return send(
					route,
					200,
					{ users, aud },
					{
						'x-total-count': String(total),
						link,
					},
				);
			}
			if (path === '/admin/users' && method === 'POST') {
				return send(route, 200, await service.adminCreateUser(await readBody(req)));
			}
			const id = decodeURIComponent(adminUser?.[1] ?? '');
			if (method === 'GET') return send(route, 200, await service.adminGetUser(id));
			if (method === 'PUT') {
				return send(route, 200, await service.adminUpdateUser(id, await readBody(req)));
			}
			if (method === 'DELETE') return send(route, 200, await service.adminDeleteUser(id));
		}
		throw new AuthError(404, 'not_found', `Not found: ${method} ${path}`);
	}

	return async (route) => {
		try {
			await handle(route);
		} catch (error) {
			if (!(error instanceof AuthError) && !(error instanceof OAuthError)) {
				// The message only: a stack or a request could carry a token.
				console.error(`[auth] ${route.req.method} ${route.path}: ${(error as Error).message}`);
			}
			const answer = errorAnswer(error, route.req.headers['x-supabase-api-version'] as string);
			if (route.res.headersSent) {
				route.res.destroy();
				return;
			}
			send(route, answer.status, answer.body, answer.headers);
		}
	};
}
