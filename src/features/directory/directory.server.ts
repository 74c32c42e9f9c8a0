import type { SupabaseClient } from '@supabase/supabase-js';

export interface CategoryCount {
	name: string;
	count: number;
}

/** Categories of a tenant with their business counts, most popular first; blank names dropped. */
export async function listCategories(
	client: SupabaseClient,
	tenantId: string,
): Promise<CategoryCount[]> {
	const { data, error } = await client.rpc('list_categories', { p_tenant_id: tenantId });
	if (error) throw new Error(`Failed to fetch categories: ${error.message}`, { cause: error });
	return (data as { name: string; count: number }[])
		.filter((c) => c.name.trim() !== '')
		.map((c) => ({ name: c.name, count: Number(c.count) }));
}
