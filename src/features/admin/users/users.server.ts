import type { User } from '@supabase/supabase-js';
import type { SupabaseClient } from '../../../lib/database.ts';
import { HttpError } from '../../../lib/http.server.ts';
import type { AdminRole, AdminUser } from '../../auth/auth.ts';
import {
	CANNOT_DELETE_SELF,
	type AdminUserListItem,
	type CreateUserBody,
	type TenantListItem,
} from './users.ts';

/**
 * Admin users. The admin_users rows are read and written with the super_admin's own
 * client, so row-level security judges them (the admin_users policies: super_admins only); the identity
 * service's user is created and removed with the service key, the one place Supabase requires it
 * (auth.admin.*). The two are kept together: when the second step fails, the first is undone.
 */

interface AdminUserRow {
	user_id: string;
	email: string;
	role: AdminRole;
	tenant_id: string;
	created_at: string;
	tenants: { slug: string; name: string } | null;
}

const ADMIN_USER_COLUMNS = 'user_id, email, role, tenant_id, created_at, tenants(slug, name)';

/** Every auth user's last sign-in, page by page (GoTrue answers at most 1000 per page). */
async function listLastSignIns(service: SupabaseClient): Promise<Map<string, string | null>> {
	const perPage = 1000;
	const result = new Map<string, string | null>();
	for (let page = 1; ; page += 1) {
		const { data, error } = await service.auth.admin.listUsers({ page, perPage });
		if (error) throw new Error(`Failed to list users: ${error.message}`, { cause: error });
		for (const user of data.users as User[]) result.set(user.id, user.last_sign_in_at ?? null);
		if (data.users.length < perPage) return result;
	}
}

/** The admin users the caller may see (a super_admin: every chamber's), by e-mail. */
export async function listAdminUsers(
	client: SupabaseClient,
	service: SupabaseClient,
): Promise<AdminUserListItem[]> {
	const { data, error } = await client
		.from('admin_users')
		.select(ADMIN_USER_COLUMNS)
		.order('email')
		.overrideTypes<AdminUserRow[], { merge: false }>();
	if (error) throw new Error(`Failed to read admin users: ${error.message}`, { cause: error });
	const signIns = await listLastSignIns(service);
	return data.map((row) => ({
		userId: row.user_id,
		id: row.user_id,
		email: row.email,
		role: row.role,
		tenantId: row.tenant_id,
		tenantName: row.tenants?.name ?? '',
		tenantKey: row.tenants?.slug ?? '',
		createdAt: row.created_at,
		lastSignIn: signIns.get(row.user_id) ?? null,
	}));
}

/** The chambers, by name (anyone signed in may read the list; RLS of tenants). */
export async function listTenants(client: SupabaseClient): Promise<TenantListItem[]> {
	const { data, error } = await client.from('tenants').select('id, name, slug').order('name');
	if (error) throw new Error(`Failed to read chambers: ${error.message}`, { cause: error });
	return data.map((t) => ({ id: t.id, name: t.name, tenant_key: t.slug }));
}

async function getAdminUserRow(
	client: SupabaseClient,
	userId: string,
): Promise<AdminUserRow | null> {
	const { data, error } = await client
		.from('admin_users')
		.select(ADMIN_USER_COLUMNS)
		.eq('user_id', userId)
		.maybeSingle<AdminUserRow>();
	if (error) throw new Error(`Failed to read admin user: ${error.message}`, { cause: error });
	return data;
}

/**
 * Creates the identity service's user (confirmed, with the password given) and its admin record.
 * The record is written as the caller, so the database decides whether they may; if it refuses
 * or fails, the new identity is removed again (no orphan).
 */
export async function createAdminUser(
	client: SupabaseClient,
	service: SupabaseClient,
	body: CreateUserBody,
): Promise<AdminUserListItem> {
	const { data, error } = await service.auth.admin.createUser({
		email: body.email,
		password: body.password,
		email_confirm: true,
		// What the user's tokens carry for the app's convenience; admin_users below decides.
		app_metadata: { role: body.role, tenant_id: body.tenantId },
	});
	if (error || !data.user) {
		const status = error?.status ?? 500;
		if (status === 422 || status === 409) throw new HttpError(409, error!.message);
		if (status === 400) throw new HttpError(400, error!.message);
		throw new Error(`Identity service failed to create a user: ${error?.message}`, {
			cause: error,
		});
	}
	const userId = data.user.id;
	const { error: insertError } = await client
		.from('admin_users')
		.insert({ user_id: userId, tenant_id: body.tenantId, email: body.email, role: body.role });
	if (insertError) {
		const undo = await service.auth.admin.deleteUser(userId);
		if (undo.error) {
			console.error(`[admin-users] could not remove the new identity ${userId}:`, undo.error);
		}
		if (insertError.code === '42501') {
			throw new HttpError(403, 'You cannot add users to this chamber.');
		}
		if (insertError.code === '23503') throw new HttpError(400, 'Chamber is required');
		throw new Error(`Failed to save the admin record: ${insertError.message}`, {
			cause: insertError,
		});
	}
	const row = await getAdminUserRow(client, userId);
	if (row?.tenants?.slug) {
		const { error: metadataError } = await service.auth.admin.updateUserById(userId, {
			app_metadata: { role: body.role, tenant_id: body.tenantId, tenant_key: row.tenants.slug },
		});
		if (metadataError) {
			console.error(`[admin-users] app_metadata of ${userId} not set: ${metadataError.message}`);
		}
	}
	return {
		userId,
		id: userId,
		email: body.email,
		role: body.role,
		tenantId: body.tenantId,
		tenantName: row?.tenants?.name ?? '',
		tenantKey: row?.tenants?.slug ?? '',
		createdAt: row?.created_at ?? new Date().toISOString(),
		lastSignIn: null,
	};
}

/**
 * Removes an admin: the admin record first, as the caller (RLS decides; a row they may not see
 * is "not found"), then the identity. If removing the identity fails, the record is put back.
 * Nobody removes their own account here.
 */
export async function deleteAdminUser(
	client: SupabaseClient,
	service: SupabaseClient,
	actor: AdminUser,
	userId: string,
): Promise<void> {
	if (userId === actor.id) throw new HttpError(400, CANNOT_DELETE_SELF);
	const { data, error } = await client
		.from('admin_users')
		.delete()
		.eq('user_id', userId)
		.select('user_id, tenant_id, email, role, created_at')
		.overrideTypes<Omit<AdminUserRow, 'tenants'>[], { merge: false }>();
	if (error) {
		if (error.code === '42501') throw new HttpError(403, 'You cannot remove this user.');
		throw new Error(`Failed to remove the admin record: ${error.message}`, { cause: error });
	}
	const removed = data[0];
	if (!removed) throw new HttpError(404, 'No such user');
	const { error: authError } = await service.auth.admin.deleteUser(userId);
	if (authError && authError.status !== 404) {
		const { error: restoreError } = await client.from('admin_users').insert(removed);
		if (restoreError) {
			console.error(`[admin-users] could not restore the admin record of ${userId}:`, restoreError);
		}
		throw new Error(`Identity service failed to delete a user: ${authError.message}`, {
			cause: authError,
		});
	}
}
