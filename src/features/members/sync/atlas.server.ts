import { z } from 'zod';
import { httpUrlEnv, optionalEnv } from '../../../lib/env.server.ts';
import {
	PublicFetchRefused,
	readLimited,
	type PublicFetchInit,
	type PublicResponse,
	ResponseTooLarge,
	sourceFetch,
} from '../../../lib/public-fetch.server.ts';
import { IMPORT_LIMITS } from '../import/limits.ts';

/**
 * The membership system's member data, for the scheduled sync. MemberClicks Atlas (WebLink
 * Connect) authorises a third party with OAuth 2.0 client credentials (a client id and secret,
 * and the chamber's tenant, issued by Atlas); its tokens are valid for 24 hours and are sent in
 * the Authorization header. Its public documentation does not show a call that lists member
 * organisations with their directory fields, so the source reads a configurable export URL (the
 * chamber's member export as CSV or JSON, or any endpoint answering the tenant file's businesses)
 * with that token, and the same pipeline as a file maps, validates and compares it.
 */

const syncEnvSchema = z
	.object({
		/** Where the member export is read (GET; CSV or JSON). Without it there is no sync. */
		ATLAS_MEMBERS_URL: optionalEnv(httpUrlEnv('ATLAS_MEMBERS_URL')),
		/** Atlas's token endpoint (OAuth 2.0 client credentials). */
		ATLAS_TOKEN_URL: optionalEnv(httpUrlEnv('ATLAS_TOKEN_URL')),
		ATLAS_CLIENT_ID: optionalEnv(z.string().trim().min(1)),
		ATLAS_CLIENT_SECRET: optionalEnv(z.string().min(1)),
		/** The scope asked for with the token, when Atlas issued one. */
		ATLAS_SCOPE: optionalEnv(z.string().trim().min(1)),
		/** The chamber's Atlas tenant, sent as x-tenant (default: ATLAS_TENANT, the events source's). */
		ATLAS_MEMBERS_TENANT: optionalEnv(z.string().trim().min(1)),
		ATLAS_TENANT: optionalEnv(z.string().trim().min(1)),
		/** What the scheduled sync does with members the export no longer has (default unpublish). */
		MEMBER_SYNC_MISSING: optionalEnv(z.enum(['keep', 'unpublish'])),
	})
	.superRefine((env, ctx) => {
		const oauth = [env.ATLAS_TOKEN_URL, env.ATLAS_CLIENT_ID, env.ATLAS_CLIENT_SECRET];
		if (oauth.some(Boolean) && !oauth.every(Boolean)) {
			ctx.addIssue({
				code: 'custom',
				message: 'ATLAS_TOKEN_URL, ATLAS_CLIENT_ID and ATLAS_CLIENT_SECRET go together',
			});
		}
	});

export interface SyncConfig {
	membersUrl: string;
	oauth: { tokenUrl: string; clientId: string; clientSecret: string; scope?: string } | null;
	tenant: string | null;
	missing: 'keep' | 'unpublish';
}

/** The sync's settings, or null when no export URL is set; throws naming a wrong variable. */
export function readSyncConfig(env: NodeJS.ProcessEnv = process.env): SyncConfig | null {
	const parsed = syncEnvSchema.safeParse(env);
	if (!parsed.success) {
		throw new Error(
			`Invalid member sync settings: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
		);
	}
	const e = parsed.data;
	if (!e.ATLAS_MEMBERS_URL) return null;
	return {
		membersUrl: e.ATLAS_MEMBERS_URL,
		oauth:
			e.ATLAS_TOKEN_URL && e.ATLAS_CLIENT_ID && e.ATLAS_CLIENT_SECRET
				? {
						tokenUrl: e.ATLAS_TOKEN_URL,
						clientId: e.ATLAS_CLIENT_ID,
						clientSecret: e.ATLAS_CLIENT_SECRET,
						...(e.ATLAS_SCOPE ? { scope: e.ATLAS_SCOPE } : {}),
					}
				: null,
		tenant: e.ATLAS_MEMBERS_TENANT ?? e.ATLAS_TENANT ?? null,
		missing: e.MEMBER_SYNC_MISSING ?? 'unpublish',
	};
}

/** A failure reading the membership system: the message is shown in the sync's report. */
export class MemberSourceError extends Error {}

/** Atlas gets this long per request, the whole answer read (a whole export can be large). */
const REQUEST_TIMEOUT_MS = 120_000;
/** The token endpoint gets this long, and its answer this many bytes. */
const TOKEN_TIMEOUT_MS = 30_000;
const TOKEN_MAX_BYTES = 64 * 1024;

/**
 * The request through the public-address fetch (redirects followed by hand, each hop checked);
 * a refused address becomes a sentence for the report and a line in the log.
 */
async function request(
	url: string,
	init: PublicFetchInit,
	unreachable: string,
): Promise<PublicResponse> {
	try {
		return await sourceFetch()(new URL(url), init);
	} catch (cause) {
		if (cause instanceof PublicFetchRefused) {
			console.warn(`[member-sync] ${url}: ${cause.message}`);
			throw new MemberSourceError(
				`${unreachable} Its address, or an address it redirected to, is not a public internet address.`,
				{ cause },
			);
		}
		throw new MemberSourceError(unreachable, { cause });
	}
}

/** The answer's body within the cap, read before the request's time runs out. */
async function body(
	response: PublicResponse,
	limit: number,
	tooLarge: string,
): Promise<Uint8Array> {
	try {
		return await readLimited(response, limit);
	} catch (cause) {
		if (cause instanceof ResponseTooLarge) throw new MemberSourceError(tooLarge, { cause });
		throw new MemberSourceError("The membership system's answer was cut off or took too long.", {
			cause,
		});
	}
}

const tokenSchema = z.object({
	access_token: z.string().min(1),
	token_type: z.string().optional(),
	expires_in: z.coerce.number().positive().optional(),
});

let cachedToken: { key: string; token: string; until: number } | undefined;

/** An access token by the client credentials grant, kept until a minute before it expires. */
async function accessToken(oauth: NonNullable<SyncConfig['oauth']>): Promise<string> {
	const key = `${oauth.tokenUrl}|${oauth.clientId}|${oauth.clientSecret}`;
	if (cachedToken?.key === key && cachedToken.until > Date.now()) return cachedToken.token;
	const form = new URLSearchParams({
		grant_type: 'client_credentials',
		client_id: oauth.clientId,
		client_secret: oauth.clientSecret,
		...(oauth.scope ? { scope: oauth.scope } : {}),
	});
	const signal = AbortSignal.timeout(TOKEN_TIMEOUT_MS);
	const response = await request(
		oauth.tokenUrl,
		{
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
			body: form,
			signal,
		},
		"The membership system's sign-in could not be reached.",
	);
	const text = new TextDecoder().decode(
		await body(response, TOKEN_MAX_BYTES, "The membership system's sign-in answered too much."),
	);
	const answer = tokenSchema.safeParse(parseJson(text));
	if (!response.ok || !answer.success) {
		throw new MemberSourceError(
			response.status === 400 || response.status === 401
				? 'The membership system refused the client id and secret (ATLAS_CLIENT_ID, ATLAS_CLIENT_SECRET).'
				: `The membership system's sign-in answered HTTP ${response.status}.`,
		);
	}
	const seconds = answer.data.expires_in ?? 3600;
	cachedToken = {
		key,
		token: answer.data.access_token,
		until: Date.now() + Math.max(0, seconds - 60) * 1000,
	};
	return answer.data.access_token;
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return null;
	}
}

/** The export, as the bytes of a file the import pipeline reads, with a name saying its format. */
export interface MemberExport {
	bytes: Uint8Array;
	name: string;
}

/** Reads the member export from the membership system. */
export async function fetchMemberExport(config: SyncConfig): Promise<MemberExport> {
	const headers: Record<string, string> = { accept: 'application/json, text/csv;q=0.9, */*;q=0.5' };
	if (config.oauth) headers.authorization = `Bearer ${await accessToken(config.oauth)}`;
	if (config.tenant) headers['x-tenant'] = config.tenant;
	const response = await request(
		config.membersUrl,
		{ headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
		'The membership system could not be reached.',
	);
	if (response.status === 401 || response.status === 403) {
		await response.body?.cancel();
		cachedToken = undefined;
		throw new MemberSourceError(
			`The membership system refused the request (HTTP ${response.status}): check the credentials and the tenant.`,
		);
	}
	if (!response.ok) {
		await response.body?.cancel();
		throw new MemberSourceError(`The membership system answered HTTP ${response.status}.`);
	}
	const bytes = await body(
		response,
		IMPORT_LIMITS.fileBytes,
		`The membership system's export is larger than ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB, the most one import reads.`,
	);
	const type = response.headers.get('content-type') ?? '';
	const name = type.includes('json')
		? 'atlas-members.json'
		: type.includes('spreadsheetml')
			? 'atlas-members.xlsx'
			: 'atlas-members.csv';
	return { bytes, name };
}

/** The sync's schedule, as its scheduled function declares it (shown in the panel). */
export const SYNC_SCHEDULE = '@daily';
