import { createClient, type Session } from '@supabase/supabase-js';
import type { Database, SupabaseClient } from '../../lib/database.ts';
import { adminUserSchema, USER_INFO_KEY, type AdminUser } from './auth.ts';

/**
 * The admin pages' session in the browser: supabase-js keeps the
 * access and refresh tokens in localStorage under its own key and refreshes the access token
 * before it expires; next to it the user-info of the sign-in answer (role, chamber). Loaded only
 * by admin pages.
 */

export interface PublicSupabase {
	/** SUPABASE_URL of the build: the project, or the local stack's gateway. */
	url: string;
	/** The project's anon (public) key. */
	anonKey: string;
}

let client: SupabaseClient | undefined;

export function browserClient(
	supabase: PublicSupabase,
	options: { detectSessionInUrl?: boolean } = {},
): SupabaseClient {
	client ??= createClient<Database>(supabase.url, supabase.anonKey, {
		auth: {
			persistSession: true,
			autoRefreshToken: true,
			// Only the reset page reads a session from its URL (the e-mailed link's fragment).
			detectSessionInUrl: options.detectSessionInUrl ?? false,
		},
	});
	return client;
}

export async function currentSession(supabase: SupabaseClient): Promise<Session | null> {
	const { data } = await supabase.auth.getSession();
	return data.session;
}

export function storeUserInfo(user: AdminUser): void {
	localStorage.setItem(USER_INFO_KEY, JSON.stringify(user));
}

/** Sign-out or a lost session: both stored tokens and the user-info go. */
export async function clearSession(supabase: SupabaseClient): Promise<void> {
	localStorage.removeItem(USER_INFO_KEY);
	// scope local: this browser's session; the server refuses its tokens from now on.
	await supabase.auth.signOut({ scope: 'local' }).catch(() => {});
}

export function loginUrl(returnTo: string): string {
	return `/chamber-login-v2?redirect=${encodeURIComponent(returnTo)}`;
}

/** GET /api/auth/supabase-verify: the server's word on a session. */
export async function verifyWithServer(
	accessToken: string,
): Promise<{ ok: true; user: AdminUser } | { ok: false; status: number; error: string }> {
	let response: Response;
	try {
		response = await fetch('/api/auth/supabase-verify', {
			headers: { Authorization: `Bearer ${accessToken}` },
		});
	} catch {
		return { ok: false, status: 0, error: 'Network error. Please try again.' };
	}
	const body = (await response.json().catch(() => null)) as {
		authenticated?: boolean;
		user?: unknown;
		error?: string;
	} | null;
	const user = adminUserSchema.safeParse(body?.user);
	if (response.ok && body?.authenticated && user.success) return { ok: true, user: user.data };
	return { ok: false, status: response.status, error: body?.error ?? 'Your session has expired.' };
}
