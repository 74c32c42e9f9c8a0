import { AsyncLocalStorage } from 'node:async_hooks';
import { createClient } from '@supabase/supabase-js';
import type { Database, SupabaseClient } from './database.ts';
import { z } from 'zod';

/**
 * The one way into the data: every server-side read and write goes through supabase-js,
 * against hosted Supabase or the local stack alike (scripts/stack points these variables at it).
 */
const clientEnvSchema = z.object({
	SUPABASE_URL: z.url({
		error: 'SUPABASE_URL is not set: run through `npm start`/`npm run build`, or set it',
	}),
	SUPABASE_ANON_KEY: z.string().min(20, { error: 'SUPABASE_ANON_KEY is not set' }),
	SUPABASE_SERVICE_ROLE_KEY: z.string().min(20).optional(),
	/** The chamber this deployment serves (default demo). */
	TENANT: z.string().min(1).default('demo'),
	/**
	 * How long one call to Supabase (data, identity, files) may take before it is abandoned and
	 * the visitor told to try again (default 5 s). The build and the import set a longer one.
	 */
	SUPABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
});

export type ClientEnv = z.output<typeof clientEnvSchema>;

export function readClientEnv(env: NodeJS.ProcessEnv = process.env): ClientEnv {
	const parsed = clientEnvSchema.safeParse(env);
	if (!parsed.success) {
		throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
	}
	return parsed.data;
}

/**
 * A call to Supabase that got no answer in time, or could not reach it: nothing the caller did
 * wrong, so functions answer 503 (http.server.ts, isUnavailable). Its name is AbortError because
 * postgrest-js sends a read again (three times, after 1, 2 and 4 s) after any other failure,
 * which would stretch the deadline to half a minute.
 */
class SupabaseUnavailableError extends Error {
	constructor(message: string, options?: ErrorOptions) {
		super(message, options);
		this.name = 'AbortError';
	}
}

/** One request's calls (http.server.ts handle() opens a scope per function invocation). */
const requestScope = new AsyncLocalStorage<{ unanswered: string | null }>();

/**
 * Runs fn as one request: once a Supabase call in it gets no answer in time, the calls after it
 * fail at once, so a request that makes several calls still waits one deadline, not one each.
 */
export function inRequestScope<T>(fn: () => Promise<T>): Promise<T> {
	return requestScope.run({ unanswered: null }, fn);
}

/**
 * fetch with a deadline: supabase-js calls made through it end after `timeoutMs` at the latest
 * (a caller's own abort signal still works). Network failures end at once as well.
 */
function deadlineFetch(timeoutMs: number): typeof fetch {
	return async (input, init) => {
		const scope = requestScope.getStore();
		if (scope?.unanswered) {
			throw new SupabaseUnavailableError(`Not asked: ${scope.unanswered} in this request`);
		}
		const deadline = AbortSignal.timeout(timeoutMs);
		const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
		try {
			return await fetch(input, { ...init, signal });
		} catch (error) {
			if (init?.signal?.aborted) throw error;
			const service = serviceOf(input);
			const reason = deadline.aborted
				? `${service} did not answer within ${timeoutMs} ms`
				: `${service} could not be reached`;
			if (scope) scope.unanswered = reason.charAt(0).toLowerCase() + reason.slice(1);
			throw new SupabaseUnavailableError(reason, { cause: error });
		}
	};
}

function serviceOf(input: string | URL | Request): string {
	const path = new URL(input instanceof Request ? input.url : input).pathname;
	if (path.startsWith('/auth/')) return 'The identity service';
	if (path.startsWith('/storage/')) return 'The file service';
	return 'The data API';
}

const CLIENT_OPTIONS = {
	auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
} as const;

function clientOptions(env: ClientEnv, headers: Record<string, string> = {}) {
	return { ...CLIENT_OPTIONS, global: { headers, fetch: deadlineFetch(env.SUPABASE_TIMEOUT_MS) } };
}

const clients = new Map<string, SupabaseClient>();

function makeClient(env: ClientEnv, key: string): SupabaseClient {
	const cacheKey = `${env.SUPABASE_URL}|${key}|${env.SUPABASE_TIMEOUT_MS}`;
	let client = clients.get(cacheKey);
	if (!client) {
		client = createClient<Database>(env.SUPABASE_URL, key, clientOptions(env));
		clients.set(cacheKey, client);
	}
	return client;
}

/** Public, row-level-security-bound access: what any visitor may read. */
export function getAnonClient(env: ClientEnv = readClientEnv()): SupabaseClient {
	return makeClient(env, env.SUPABASE_ANON_KEY);
}

/**
 * Access as a signed-in user: PostgREST and Storage run the calls under that user's token, so
 * row-level security and the database's role checks judge them as they would judge the user.
 * A new client per call: tokens differ per request and must never be shared between requests.
 */
export function getUserClient(
	accessToken: string,
	env: ClientEnv = readClientEnv(),
): SupabaseClient {
	return createClient<Database>(
		env.SUPABASE_URL,
		env.SUPABASE_ANON_KEY,
		clientOptions(env, { Authorization: `Bearer ${accessToken}` }),
	);
}

/**
 * A client for the identity service's calls (sign-in, getUser, password reset). supabase-js keeps
 * the session of its last sign-in in the client, so each request gets its own, never shared.
 */
export function createAuthClient(
	env: ClientEnv = readClientEnv(),
	headers: Record<string, string> = {},
): SupabaseClient {
	return createClient<Database>(
		env.SUPABASE_URL,
		env.SUPABASE_ANON_KEY,
		clientOptions(env, headers),
	);
}

/**
 * The identity service asked on behalf of a visitor, from a function: its per-address limits
 * should count that visitor, not the function's own address (every sign-in comes from the same
 * few servers). Supabase Auth takes the visitor's address in `Sb-Forwarded-For` on a request made
 * with a secret key, once the project enables IP address forwarding (docs/deploy.md); with a
 * legacy service_role key the header is ignored and Supabase counts the function's address.
 */
export function createForwardingAuthClient(
	visitorIp: string,
	env: ClientEnv = readClientEnv(),
): SupabaseClient {
	if (!env.SUPABASE_SERVICE_ROLE_KEY) {
		throw new Error('SUPABASE_SERVICE_ROLE_KEY is not set; forwarding needs the secret key');
	}
	return createClient<Database>(
		env.SUPABASE_URL,
		env.SUPABASE_SERVICE_ROLE_KEY,
		clientOptions(env, { 'sb-forwarded-for': visitorIp }),
	);
}

/** Service-role access for the build, the import and server functions that write. */
export function getServiceClient(env: ClientEnv = readClientEnv()): SupabaseClient {
	if (!env.SUPABASE_SERVICE_ROLE_KEY) {
		throw new Error('SUPABASE_SERVICE_ROLE_KEY is not set; this operation needs the service role');
	}
	return makeClient(env, env.SUPABASE_SERVICE_ROLE_KEY);
}

/** Long enough for the build's and the import's calls (a whole chamber in one call). */
export const LONG_CALL_TIMEOUT_MS = 600_000;
