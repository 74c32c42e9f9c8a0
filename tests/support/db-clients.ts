import { once } from 'node:events';
import { createServer } from 'node:net';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/** What the tests need of the stack vitest provides (`inject('stack')`). */
interface StackKeys {
	supabaseUrl: string;
	anonKey: string;
}

/** A port nothing listens on right now, for a server a test starts. */
export async function freePort(): Promise<number> {
	const probe = createServer().listen(0, '127.0.0.1');
	await once(probe, 'listening');
	const { port } = probe.address() as { port: number };
	probe.close();
	return port;
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
