import type { SupabaseClient } from '../../lib/database.ts';
import { adminUserSchema, type AdminUser } from '../auth/auth.ts';
import { currentSession } from '../auth/browser.ts';

// The generator's guard: the admin pages' session (supabase-js in this browser),
// checked with the server on load through GET /api/auth/verify, which accepts a valid session of
// an admin or super_admin. Without one: the deprecated login, which forwards to the v2 login and
// brings the visitor back here.

const GENERATOR_PATH = '/chamber-config/generator';
export const LOGIN_PATH = `/chamber-login?redirect=${encodeURIComponent(GENERATOR_PATH)}`;

/** The current access token, or null without a session. */
export async function accessToken(supabase: SupabaseClient): Promise<string | null> {
	return (await currentSession(supabase))?.access_token ?? null;
}

/** The signed-in admin or super_admin, checked by the server; null when the guard must send them away. */
export async function verifySession(supabase: SupabaseClient): Promise<AdminUser | null> {
	const token = await accessToken(supabase);
	if (!token) return null;
	const response = await fetch('/api/auth/verify', {
		headers: { Authorization: `Bearer ${token}` },
	}).catch(() => null);
	if (!response?.ok) return null;
	const body = (await response.json().catch(() => null)) as {
		authenticated?: boolean;
		user?: unknown;
	} | null;
	const user = adminUserSchema.safeParse(body?.user);
	return body?.authenticated && user.success ? user.data : null;
}
