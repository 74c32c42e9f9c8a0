import { createClient } from '@supabase/supabase-js';
import type { Database, SupabaseClient } from '../../lib/database.ts';
import type { PublicSupabase } from '../auth/browser.ts';
import { MEMBER_SESSION_KEY } from './self-service.ts';

let memberClient: SupabaseClient | undefined;

/** The member's session: its own storage key, so a staff session in the same browser stays. */
export function client(supabase: PublicSupabase): SupabaseClient {
	memberClient ??= createClient<Database>(supabase.url, supabase.anonKey, {
		auth: {
			storageKey: MEMBER_SESSION_KEY,
			persistSession: true,
			autoRefreshToken: true,
			// The e-mailed link lands here with the session in the URL fragment (GoTrue's verify).
			detectSessionInUrl: true,
		},
	});
	return memberClient;
}

export async function accessToken(supabase: PublicSupabase): Promise<string | null> {
	const { data } = await client(supabase).auth.getSession();
	return data.session?.access_token ?? null;
}
