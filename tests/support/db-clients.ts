import { createClient, type PostgrestSingleResponse } from '@supabase/supabase-js';
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
