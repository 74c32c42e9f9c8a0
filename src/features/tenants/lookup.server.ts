import type { Row, SupabaseClient } from '../../lib/database.ts';

/** A chamber as the lookups answer it. */
export type TenantRow = Pick<Row<'tenants'>, 'id' | 'slug' | 'name'>;

export async function listTenants(client: SupabaseClient): Promise<TenantRow[]> {
	const { data, error } = await client.from('tenants').select('id, slug, name').order('slug');
	if (error) throw new Error(`Failed to list tenants: ${error.message}`, { cause: error });
	return data;
}

/** One tenant by slug, or null: for a slug that comes from a request. */
export async function getTenantBySlugOrNull(
	client: SupabaseClient,
	slug: string,
): Promise<TenantRow | null> {
	const { data, error } = await client
		.from('tenants')
		.select('id, slug, name')
		.eq('slug', slug)
		.maybeSingle();
	if (error) throw new Error(`Failed to read tenant ${slug}: ${error.message}`, { cause: error });
	return data;
}

/** The tenant a deployment serves; an unknown slug fails with the list of known ones. */
export async function getTenantBySlug(client: SupabaseClient, slug: string): Promise<TenantRow> {
	const tenants = await listTenants(client);
	const tenant = tenants.find((t) => t.slug === slug);
	if (!tenant) {
		const known = tenants.map((t) => t.slug).join(', ') || 'none: run `npm run tenant:import`';
		throw new Error(`Tenant "${slug}" is not in the database. Tenants there: ${known}`);
	}
	return tenant;
}
