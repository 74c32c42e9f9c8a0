import { createClient, type SupabaseClient } from '@supabase/supabase-js';

export { freePort } from '../../scripts/lib/free-port.ts';

/** What the tests need of the stack vitest provides (`inject('stack')`). */
interface StackKeys {
	supabaseUrl: string;
	anonKey: string;
}

/** Signs in through the identity service as supabase-js does; answers the access token. */
export async function signInAs(stack: StackKeys, email: string, password: string): Promise<string> {
	const client = createClient(stack.supabaseUrl, stack.anonKey, {
		auth: { persistSession: false, autoRefreshToken: false },
	});
	const { data, error } = await client.auth.signInWithPassword({ email, password });
	if (error || !data.session) throw new Error(`Sign-in of ${email} failed: ${error?.message}`);
	return data.session.access_token;
}

/** supabase-js acting as the token's user: PostgREST and Storage apply that user's rights. */
export function userClient(stack: StackKeys, token: string): SupabaseClient {
	return createClient(stack.supabaseUrl, stack.anonKey, {
		global: { headers: { Authorization: `Bearer ${token}` } },
		auth: { persistSession: false, autoRefreshToken: false },
	});
}
