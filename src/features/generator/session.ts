import { createClient, type SupabaseClient } from '@supabase/supabase-js';

// The generator's guard (spec 02 §2): the admin session supabase-js keeps in this browser (the
// sign-in page stores it), checked with the server on load through GET /api/auth/verify, which
// accepts a valid session of an admin or super_admin.

export interface VerifiedUser {
	id: string;
	email: string;
	role: 'super_admin' | 'admin' | 'editor';
	tenantKey: string;
}

export const GENERATOR_PATH = '/chamber-config/generator';
export const LOGIN_PATH = `/chamber-login?redirect=${encodeURIComponent(GENERATOR_PATH)}`;

let client: SupabaseClient | undefined;

/** supabase-js with the session of the admin pages (localStorage, refreshed before it expires). */
export function browserClient(supabaseUrl: string, anonKey: string): SupabaseClient {
	client ??= createClient(supabaseUrl, anonKey, {
		auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
	});
	return client;
}

/** The current access token, or null without a session. */
export async function accessToken(supabase: SupabaseClient): Promise<string | null> {
	const { data } = await supabase.auth.getSession();
	return data.session?.access_token ?? null;
}

/** The signed-in admin or super_admin, checked by the server; null when the guard must send them away. */
export async function verifySession(supabase: SupabaseClient): Promise<VerifiedUser | null> {
	const token = await accessToken(supabase);
	if (!token) return null;
	const response = await fetch('/api/auth/verify', {
		headers: { Authorization: `Bearer ${token}` },
	}).catch(() => null);
	if (!response?.ok) return null;
	const body = (await response.json().catch(() => null)) as {
		authenticated?: boolean;
		user?: VerifiedUser;
	} | null;
	return body?.authenticated && body.user ? body.user : null;
}
