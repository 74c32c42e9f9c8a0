import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError } from '../../lib/http.server.ts';
import { createAuthClient, getUserClient, readClientEnv } from '../../lib/supabase.server.ts';
import { ACCESS_DENIED_MESSAGE, mayAccessChamber, type AdminRole, type AdminUser } from './auth.ts';

/**
 * Who is calling: the bearer token is checked by the identity service (Supabase Auth, or the
 * local stand-in) — signature, expiry and a session that still exists — and the role and chamber
 * come from the server-side admin_users record, read with the caller's own token (RLS lets a user
 * read only their own record). Nothing the browser says about itself is trusted.
 */

export interface AdminSession {
	user: AdminUser;
	/** The caller's access token, for calls that must run as them. */
	accessToken: string;
	/** PostgREST and Storage as the caller: RLS and the database's role checks apply. */
	client: SupabaseClient;
}

interface AdminUserRow {
	user_id: string;
	email: string;
	role: AdminRole;
	tenant_id: string;
	tenants: { slug: string; name: string } | null;
}

/** The bearer token of a request, or null. */
export function bearerToken(req: Request): string | null {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '');
	return match?.[1] ?? null;
}

/** The admin record of a user, read with that user's token; null when they are no admin. */
export async function getAdminUser(
	client: SupabaseClient,
	userId: string,
): Promise<AdminUser | null> {
	const { data, error } = await client
		.from('admin_users')
		.select('user_id, email, role, tenant_id, tenants(slug, name)')
		.eq('user_id', userId)
		.maybeSingle<AdminUserRow>();
	if (error) throw new Error(`Failed to read the admin record: ${error.message}`, { cause: error });
	if (!data?.tenants) return null;
	return {
		id: data.user_id,
		email: data.email,
		role: data.role,
		tenantId: data.tenant_id,
		tenantKey: data.tenants.slug,
		tenantName: data.tenants.name,
	};
}

export interface AuthenticateOptions {
	/** Roles allowed to make this call (default: all three). */
	roles?: readonly AdminRole[];
	/**
	 * Whether the caller must be allowed into this deployment's chamber (TENANT): their own, or
	 * any for a super_admin. Default true; the session check of the panel shell sets false and
	 * compares itself, so it can say 'Access Denied' instead of 'sign in again'.
	 */
	deploymentTenant?: boolean;
}

/** Verifies the caller; throws an HttpError (401 or 403) that handleJson answers as `{error}`. */
export async function authenticate(
	req: Request,
	options: AuthenticateOptions = {},
): Promise<AdminSession> {
	const accessToken = bearerToken(req);
	if (!accessToken) throw new HttpError(401, 'Authentication required');
	const env = readClientEnv();
	const { data, error } = await createAuthClient(env).auth.getUser(accessToken);
	if (error || !data.user) {
		// 5xx from the identity service is our failure, not the caller's.
		if (error && (error.status ?? 0) >= 500) {
			throw new Error(`Identity service failed: ${error.message}`, { cause: error });
		}
		throw new HttpError(401, 'Your session has expired. Please sign in again.');
	}
	const client = getUserClient(accessToken, env);
	const user = await getAdminUser(client, data.user.id);
	if (!user) throw new HttpError(403, 'This account has no access to the admin portal.');
	if (options.roles && !options.roles.includes(user.role)) {
		throw new HttpError(403, 'Your role does not allow this.');
	}
	if ((options.deploymentTenant ?? true) && !mayAccessChamber(user, env.TENANT)) {
		throw new HttpError(403, ACCESS_DENIED_MESSAGE);
	}
	return { user, accessToken, client };
}
