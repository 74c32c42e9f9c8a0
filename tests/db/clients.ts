import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../../src/lib/database.ts';

// What a database test file talks to, made once per file: the test stack that the global setup
// started (tests/db/global-setup.ts), and clients of it.

export const stack = inject('stack');

/** The database as its superuser, for what only the server or a migration does, and for checks. */
export const db = new pg.Client({ connectionString: stack.databaseUrl });

/** supabase-js with the service key: the import, the server's own reads and writes. */
export const service = createClient<Database>(stack.supabaseUrl, stack.serviceKey, {
	auth: { persistSession: false },
});

/** supabase-js with the anon key: what a visitor may read and call. */
export const anon = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
	auth: { persistSession: false },
});
