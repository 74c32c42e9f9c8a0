import type { SupabaseClient } from './database.ts';
import { getTenantBySlug, type TenantRow } from '../features/tenants/lookup.server.ts';
import { getAnonClient, readClientEnv } from './supabase.server.ts';

let current: Promise<TenantRow> | undefined;

/** The tenant this deployment serves (TENANT), looked up once per process. */
export function getCurrentTenant(client: SupabaseClient = getAnonClient()): Promise<TenantRow> {
	current ??= getTenantBySlug(client, readClientEnv().TENANT).catch((error: unknown) => {
		current = undefined;
		throw error;
	});
	return current;
}
