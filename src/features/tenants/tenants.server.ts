import { hash, verify } from '@node-rs/argon2';
import type { SupabaseClient } from '@supabase/supabase-js';
import { configToRow } from '../config/config.ts';
import type { TenantFile } from './tenant-file.ts';

// Reading a tenant lives in ./lookup.server.ts, without argon2: every function reads its tenant,
// and only the import hashes passwords.
export {
	getTenantBySlug,
	getTenantBySlugOrNull,
	listTenants,
	type TenantRow,
} from './lookup.server.ts';

export interface ImportSummary {
	tenant_id: string;
	businesses: number;
	events: number;
	users: number;
}

/**
 * Keeps a stored hash when it still matches the file's password: argon2 salts every hash, so
 * re-hashing would change the row on every import of the same file.
 */
async function passwordHashes(
	client: SupabaseClient,
	file: TenantFile,
): Promise<Map<string, string>> {
	const emails = file.users.map((u) => u.email);
	const result = new Map<string, string>();
	if (emails.length === 0) return result;
	const { data, error } = await client.rpc('get_user_password_hashes', { emails });
	if (error) throw new Error(`Failed to read existing users: ${error.message}`, { cause: error });
	const stored = new Map(
		(data as { email: string; password_hash: string | null }[]).map((r) => [
			r.email,
			r.password_hash,
		]),
	);
	for (const user of file.users) {
		// No password in the file: a new user gets none, an existing one keeps theirs.
		if (user.password === undefined) continue;
		const existing = stored.get(user.email);
		const keep = existing && (await verify(existing, user.password).catch(() => false));
		result.set(user.email, keep ? existing : await hash(user.password));
	}
	return result;
}

/** Upserts a whole validated tenant in one database transaction (the import_tenant function). */
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
	const hashes = await passwordHashes(client, file);
	const parts = options.only ?? [
		'config',
		'businesses',
		'banners',
		'events',
		'communityEvents',
		'users',
	];
	const payload: Record<string, unknown> = {
		tenant: file.tenant,
		allow_super_admin: options.allowSuperAdmin ?? false,
	};
	if (parts.includes('config')) payload.config = configToRow(file.config);
	if (parts.includes('businesses')) payload.businesses = file.businesses;
	if (parts.includes('banners')) payload.banners = file.banners;
	if (parts.includes('events')) payload.events = file.events;
	if (parts.includes('communityEvents')) payload.communityEvents = file.communityEvents;
	if (parts.includes('users')) {
		payload.users = file.users.map((u) => ({
			email: u.email,
			role: u.role,
			password_hash: hashes.get(u.email) ?? null,
		}));
	}
	const { data, error } = await client.rpc('import_tenant', {
		payload,
		replace_businesses: options.replaceBusinesses ?? true,
	});
	if (error) {
		throw new Error(`Import of tenant "${file.tenant.slug}" failed: ${error.message}`, {
			cause: error,
		});
	}
	return data as ImportSummary;
}
