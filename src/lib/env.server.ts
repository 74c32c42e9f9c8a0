import { z } from 'zod';

// --- A variable's shared rules -----------------------------------------------------------------

/** An empty variable is an unset one (Netlify's UI and .env files leave them empty). */
export const blankAsUnset = (value: unknown) =>
	typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A variable that may be unset, or set blank. */
export const optionalEnv = <T extends z.ZodType>(schema: T) =>
	z.preprocess(blankAsUnset, schema.optional());

/** A variable holding an http(s) address; the error names it. */
export const httpUrlEnv = (name: string) =>
	z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` });

// --- The data stack ----------------------------------------------------------------------------

/**
 * Which data stack the app runs on, decided once from the environment.
 * - embedded: PGlite in `.data/` behind PostgREST, started by our own scripts (the default);
 * - postgres: the same stack, but PostgREST and the migrations run against DATABASE_URL;
 * - hosted:   a Supabase project (SUPABASE_URL and both keys); no local stack is started.
 */
const envSchema = z
	.object({
		/** postgres://… of a real Postgres; switches the local stack off PGlite. */
		DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
		/**
		 * Postgres mode: the login each local service uses, as on Supabase (PostgREST as
		 * `authenticator`, the identity service as `supabase_auth_admin`, the file service as
		 * `supabase_storage_admin`). Each defaults to DATABASE_URL.
		 */
		POSTGREST_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
		AUTH_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
		STORAGE_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
		/** A hosted Supabase project; with both keys the app starts no local stack. */
		SUPABASE_URL: z.url().optional(),
		/** The project's public anon key (a JWT). */
		SUPABASE_ANON_KEY: z.string().min(20).optional(),
		/** The project's service-role key (a JWT), for the build and the import only. */
		SUPABASE_SERVICE_ROLE_KEY: z.string().min(20).optional(),
		/** Where the embedded stack keeps its database, keys and state (default `.data`). */
		CHAMBER_DATA_DIR: z.string().min(1).default('.data'),
		/** First of three loopback ports: gateway, Postgres socket, PostgREST (default 54321). */
		CHAMBER_STACK_PORT: z.coerce.number().int().min(1024).max(65533).default(54321),
		/**
		 * PostgREST's database connections (default 4 embedded, 10 with DATABASE_URL). PGlite runs
		 * one statement at a time; more connections let PostgREST have the next one ready.
		 */
		POSTGREST_POOL: z.coerce.number().int().min(1).max(100).optional(),
		/**
		 * Embedded: Postgres's buffer cache inside PGlite (default 32MB); it is WebAssembly memory,
		 * which never shrinks, and the files stay in the system's cache anyway.
		 */
		DB_SHARED_BUFFERS: z
			.string()
			.regex(/^\d+(kB|MB|GB)$/, { error: 'DB_SHARED_BUFFERS is a size like 32MB' })
			.default('32MB'),
		/** Embedded: how long a connection may hold PGlite idle in a transaction (default 10 s). */
		DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
		/** How long a data request waits for a PostgREST or database being restarted (10 s). */
		GATEWAY_RESTART_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
		/** The longest the gateway waits for PostgREST's answer to begin (120 s: an import). */
		GATEWAY_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
	})
	.superRefine((env, ctx) => {
		const hosted = [env.SUPABASE_URL, env.SUPABASE_ANON_KEY, env.SUPABASE_SERVICE_ROLE_KEY];
		const given = hosted.filter(Boolean).length;
		if (given > 0 && given < 3) {
			ctx.addIssue({
				code: 'custom',
				message:
					'SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY go together: set all three or none',
			});
		}
	});

export type StackMode = 'embedded' | 'postgres' | 'hosted';

export interface StackEnv {
	mode: StackMode;
	databaseUrl?: string;
	/** Postgres mode: the logins of PostgREST, the identity and the file service. */
	serviceDatabaseUrls?: { postgrest: string; auth: string; storage: string };
	hosted?: { url: string; anonKey: string; serviceKey: string };
	dataDir: string;
	ports: { gateway: number; database: number; postgrest: number };
	tuning: {
		postgrestPool: number;
		sharedBuffers: string;
		idleInTransactionMs: number;
		restartWaitMs: number;
		upstreamTimeoutMs: number;
	};
}

export function readStackEnv(env: NodeJS.ProcessEnv = process.env): StackEnv {
	const parsed = envSchema.safeParse(env);
	if (!parsed.success) {
		const lines = parsed.error.issues.map(
			(i) => `  - ${i.path.join('.') || 'environment'}: ${i.message}`,
		);
		throw new Error(`Invalid environment:\n${lines.join('\n')}`);
	}
	const e = parsed.data;
	const base = e.CHAMBER_STACK_PORT;
	const common = {
		dataDir: e.CHAMBER_DATA_DIR,
		ports: { gateway: base, database: base + 1, postgrest: base + 2 },
		tuning: {
			postgrestPool: e.POSTGREST_POOL ?? (e.DATABASE_URL ? 10 : 4),
			sharedBuffers: e.DB_SHARED_BUFFERS,
			idleInTransactionMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
			restartWaitMs: e.GATEWAY_RESTART_WAIT_MS,
			upstreamTimeoutMs: e.GATEWAY_UPSTREAM_TIMEOUT_MS,
		},
	};
	if (e.SUPABASE_URL && e.SUPABASE_ANON_KEY && e.SUPABASE_SERVICE_ROLE_KEY) {
		return {
			...common,
			mode: 'hosted',
			hosted: {
				url: e.SUPABASE_URL,
				anonKey: e.SUPABASE_ANON_KEY,
				serviceKey: e.SUPABASE_SERVICE_ROLE_KEY,
			},
		};
	}
	if (e.DATABASE_URL) {
		return {
			...common,
			mode: 'postgres',
			databaseUrl: e.DATABASE_URL,
			serviceDatabaseUrls: {
				postgrest: e.POSTGREST_DATABASE_URL ?? e.DATABASE_URL,
				auth: e.AUTH_DATABASE_URL ?? e.DATABASE_URL,
				storage: e.STORAGE_DATABASE_URL ?? e.DATABASE_URL,
			},
		};
	}
	return { ...common, mode: 'embedded' };
}

export function describeMode(env: StackEnv): string {
	switch (env.mode) {
		case 'hosted':
			return `hosted Supabase at ${env.hosted?.url}`;
		case 'postgres':
			return `PostgREST on 127.0.0.1:${env.ports.gateway} in front of DATABASE_URL (${redact(env.databaseUrl ?? '')})`;
		case 'embedded':
			return `PostgREST on 127.0.0.1:${env.ports.gateway} in front of PGlite in ${env.dataDir}/`;
	}
}

function redact(url: string): string {
	return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
