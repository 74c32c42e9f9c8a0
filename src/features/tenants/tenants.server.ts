import { hash } from '@node-rs/argon2';
import type { User } from '@supabase/supabase-js';
import type { Json, SupabaseClient } from '../../lib/database.ts';
import { configToRow } from '../config/config.ts';
import type { TenantFile, TenantUser } from './tenant-file.ts';

// Reading a tenant lives in ./lookup.server.ts, without argon2: every function reads its tenant,
// and only the import hashes passwords.
export { getTenantBySlug, listTenants, type TenantRow } from './lookup.server.ts';

export interface ImportSummary {
	tenant_id: string;
	businesses: number;
	events: number;
	users: number;
	/** Users this import created without a password: they set one through the reset e-mail. */
	createdWithoutPassword: string[];
}

/** The app_metadata an admin's tokens carry: their role and chamber (admin_users decides). */
function adminMetadata(user: TenantUser, slug: string, tenantId?: string) {
	return { role: user.role, tenant_key: slug, ...(tenantId ? { tenant_id: tenantId } : {}) };
}

/**
 * The identity service's user with this address. The Auth admin API has no lookup by address, so
 * this pages through the users (1000 a page); the import only needs it for an address that exists
 * there without being an admin of this chamber.
 */
async function findAuthUserByEmail(service: SupabaseClient, email: string): Promise<User | null> {
	const perPage = 1000;
	for (let page = 1; ; page += 1) {
		const { data, error } = await service.auth.admin.listUsers({ page, perPage });
		if (error) throw new Error(`Failed to list users: ${error.message}`, { cause: error });
		const found = data.users.find((u) => u.email?.toLowerCase() === email);
		if (found) return found;
		if (data.users.length < perPage) return null;
	}
}

interface EnsuredUsers {
	ids: Map<string, string>;
	/** Created by this import: removed again when the import's transaction fails. */
	created: string[];
	createdWithoutPassword: string[];
}

/**
 * The file's users as identities, through the Auth admin API as on a hosted project: an address
 * that is already this chamber's admin keeps its identity and password (a re-import changes
 * nothing; a password is set once, then by its owner); a new one is created confirmed, with the
 * argon2 hash of the file's password (GoTrue accepts argon2 hashes) or, without one, a password
 * nobody knows until the reset e-mail.
 */
async function ensureUsers(
	service: SupabaseClient,
	file: TenantFile,
	allowSuperAdmin: boolean,
): Promise<EnsuredUsers> {
	const result: EnsuredUsers = { ids: new Map(), created: [], createdWithoutPassword: [] };
	if (file.users.length === 0) return result;
	const users = file.users.map((u) => ({ email: u.email, role: u.role }));
	const { data, error } = await service.rpc('import_users_check', {
		p_slug: file.tenant.slug,
		p_users: users,
		p_allow_super_admin: allowSuperAdmin,
	});
	if (error) {
		throw new Error(`Import of tenant "${file.tenant.slug}" failed: ${error.message}`, {
			cause: error,
		});
	}
	for (const row of data as { email: string; user_id: string }[]) {
		result.ids.set(row.email, row.user_id);
	}
	try {
		for (const user of file.users) {
			if (result.ids.has(user.email)) continue;
			const { data: created, error: createError } = await service.auth.admin.createUser({
				email: user.email,
				...(user.password !== undefined ? { password_hash: await hash(user.password) } : {}),
				email_confirm: true,
				app_metadata: adminMetadata(user, file.tenant.slug),
			});
			if (created.user) {
				result.ids.set(user.email, created.user.id);
				result.created.push(created.user.id);
				if (user.password === undefined) result.createdWithoutPassword.push(user.email);
				continue;
			}
			// An identity without an admin record (e.g. removed from the admin panel's chamber list
			// by hand): it becomes this chamber's admin, its password untouched.
			const existing =
				createError?.code === 'email_exists'
					? await findAuthUserByEmail(service, user.email)
					: null;
			if (!existing) {
				throw new Error(`Could not create the user ${user.email}: ${createError?.message}`, {
					cause: createError,
				});
			}
			result.ids.set(user.email, existing.id);
		}
	} catch (error) {
		await removeUsers(service, result.created);
		throw error;
	}
	return result;
}

async function removeUsers(service: SupabaseClient, ids: string[]): Promise<void> {
	for (const id of ids) {
		const { error } = await service.auth.admin.deleteUser(id);
		if (error) console.error(`[import] could not remove the new user ${id}: ${error.message}`);
	}
}

/** Brings each user's app_metadata to their role and chamber, writing only what differs. */
async function syncMetadata(
	service: SupabaseClient,
	file: TenantFile,
	ids: Map<string, string>,
	tenantId: string,
): Promise<void> {
	for (const user of file.users) {
		const id = ids.get(user.email)!;
		const wanted = adminMetadata(user, file.tenant.slug, tenantId);
		const { data, error } = await service.auth.admin.getUserById(id);
		if (error) throw new Error(`Failed to read the user ${user.email}: ${error.message}`);
		const current = data.user.app_metadata ?? {};
		const same = Object.entries(wanted).every(([key, value]) => current[key] === value);
		if (same) continue;
		const { error: updateError } = await service.auth.admin.updateUserById(id, {
			app_metadata: wanted,
		});
		if (updateError) {
			throw new Error(`Failed to update the user ${user.email}: ${updateError.message}`);
		}
	}
}

/**
 * Upserts a whole validated tenant: its users through the Auth admin API, then everything else
 * and their admin records in one database transaction (the import_tenant function). A refused
 * file writes nothing; when the transaction fails, the users it created are removed again.
 */
export async function importTenant(
	client: SupabaseClient,
	file: TenantFile,
	options: {
		replaceBusinesses?: boolean;
		only?: Array<keyof TenantFile>;
		/**
		 * A super_admin administers every chamber, so a file may create (or keep) one only when the
		 * command was asked to (`tenant:import --allow-super-admin`, the demo seed).
		 */
		allowSuperAdmin?: boolean;
	} = {},
): Promise<ImportSummary> {
	const parts = options.only ?? [
		'config',
		'businesses',
		'banners',
		'events',
		'communityEvents',
		'users',
	];
	const allowSuperAdmin = options.allowSuperAdmin ?? false;
	const withUsers = parts.includes('users');
	const users = withUsers
		? await ensureUsers(client, file, allowSuperAdmin)
		: { ids: new Map<string, string>(), created: [], createdWithoutPassword: [] };
	const payload: { [key: string]: Json | undefined } = {
		tenant: file.tenant,
		allow_super_admin: allowSuperAdmin,
	};
	if (parts.includes('config')) payload.config = configToRow(file.config);
	if (parts.includes('businesses')) payload.businesses = file.businesses;
	if (parts.includes('banners')) payload.banners = file.banners;
	if (parts.includes('events')) payload.events = file.events;
	if (parts.includes('communityEvents')) payload.communityEvents = file.communityEvents;
	if (withUsers) {
		payload.users = file.users.map((u) => ({
			user_id: users.ids.get(u.email),
			email: u.email,
			role: u.role,
		}));
	}
	const { data, error } = await client.rpc('import_tenant', {
		payload,
		replace_businesses: options.replaceBusinesses ?? true,
	});
	if (error) {
		await removeUsers(client, users.created);
		throw new Error(`Import of tenant "${file.tenant.slug}" failed: ${error.message}`, {
			cause: error,
		});
	}
	const summary = data as Omit<ImportSummary, 'createdWithoutPassword'>;
	if (withUsers) await syncMetadata(client, file, users.ids, summary.tenant_id);
	return { ...summary, createdWithoutPassword: users.createdWithoutPassword };
}
