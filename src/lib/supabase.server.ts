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
});

export type ClientEnv = z.output<typeof clientEnvSchema>;

export function readClientEnv(env: NodeJS.ProcessEnv = process.env): ClientEnv {
	const parsed = clientEnvSchema.safeParse(env);
	if (!parsed.success) {
		throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
	}
	return parsed.data;
}

const clients = new Map<string, SupabaseClient>();

function makeClient(url: string, key: string): SupabaseClient {
	const cacheKey = `${url}|${key}`;
	let client = clients.get(cacheKey);
	if (!client) {
		client = createClient<Database>(url, key, {
			auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
		});
		clients.set(cacheKey, client);
	}
	return client;
}

/** Public, row-level-security-bound access: what any visitor may read. */
export function getAnonClient(env: ClientEnv = readClientEnv()): SupabaseClient {
	return makeClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY);
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
	return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
		global: { headers: { Authorization: `Bearer ${accessToken}` } },
		auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
	});
}

/**
 * A client for the identity service's calls (sign-in, getUser, password reset). supabase-js keeps
 * the session of its last sign-in in the client, so each request gets its own, never shared.
 */
export function createAuthClient(
	env: ClientEnv = readClientEnv(),
	headers: Record<string, string> = {},
): SupabaseClient {
	return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
		global: { headers },
		auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
	});
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
	return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
		global: { headers: { 'sb-forwarded-for': visitorIp } },
		auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
	});
}

/** Service-role access for the build, the import and server functions that write. */
export function getServiceClient(env: ClientEnv = readClientEnv()): SupabaseClient {
	if (!env.SUPABASE_SERVICE_ROLE_KEY) {
		throw new Error('SUPABASE_SERVICE_ROLE_KEY is not set; this operation needs the service role');
	}
	return makeClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY);
}
