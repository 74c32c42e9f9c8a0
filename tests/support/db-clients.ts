import { createClient, type PostgrestSingleResponse } from '@supabase/supabase-js';
import { configFromRow, type ChamberConfig } from '../../src/features/config/config.ts';
import type { Database, Json, SupabaseClient } from '../../src/lib/database.ts';

export { freePort } from '../../scripts/lib/free-port.ts';

/** What the tests need of the stack vitest provides (`inject('stack')`). */
interface StackKeys {
	supabaseUrl: string;
	anonKey: string;
}

/** Signs in through the identity service as supabase-js does; answers the access token. */
export async function signInAs(stack: StackKeys, email: string, password: string): Promise<string> {
	const client = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
		auth: { persistSession: false, autoRefreshToken: false },
	});
	const { data, error } = await client.auth.signInWithPassword({ email, password });
	if (error || !data.session) throw new Error(`Sign-in of ${email} failed: ${error?.message}`);
	return data.session.access_token;
}

/** supabase-js acting as the token's user: PostgREST and Storage apply that user's rights. */
export function userClient(stack: StackKeys, token: string): SupabaseClient {
	return createClient<Database>(stack.supabaseUrl, stack.anonKey, {
		global: { headers: { Authorization: `Bearer ${token}` } },
		auth: { persistSession: false, autoRefreshToken: false },
	});
}

/** What a query or call answered; a refusal fails the test with the database's code and message. */
export function dataOf<T>(result: PostgrestSingleResponse<T>): T {
	if (result.error) {
		const { code, message } = result.error;
		throw new Error(`The database refused: ${code} ${message}`, { cause: result.error });
	}
	return result.data;
}

/** A jsonb object as supabase-js reads it: a test spreads it to write it back changed. */
export type JsonObject = { [key: string]: Json | undefined };

/** The jsonb value read as `what`, which must be an object (not an array, scalar or null). */
export function jsonObject(value: Json | undefined, what: string): JsonObject {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new Error(`Expected ${what} to be a JSON object, received ${JSON.stringify(value)}`);
	}
	return value;
}

/**
 * A chamber's stored configuration, found by its tenant id or slug, read with the service key and
 * validated as the site reads it.
 */
export async function storedConfig(
	service: SupabaseClient,
	chamber: { tenant_id: string } | { slug: string },
): Promise<ChamberConfig> {
	const { data, error } = await service.from('chamber_config').select('*').match(chamber).single();
	if (error) throw error;
	return configFromRow(data, `chamber_config of ${Object.values(chamber)[0]}`);
}
