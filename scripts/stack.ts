/** npm run stack: the data stack alone, for as long as it runs; other commands then use it. */
import { onShutdown, runMain } from './lib/main.ts';
import { ensureStack } from './stack/index.ts';

runMain(
	async () => {
		const stack = await ensureStack();
		if (!stack.owned) throw new Error('A stack is already running for this data folder.');
		onShutdown(() => stack.stop());
		console.log(`SUPABASE_URL=${stack.supabaseUrl}`);
		console.log(`SUPABASE_ANON_KEY=${stack.anonKey}`);
		if (stack.databaseUrl) console.log(`DATABASE_URL=${stack.databaseUrl}`);
		// What supabase-js reaches under SUPABASE_URL (docs/local-stack.md).
		console.log(`Data:    ${stack.supabaseUrl}/rest/v1`);
		console.log(`Auth:    ${stack.supabaseUrl}/auth/v1 (identity service)`);
		console.log(`Storage: ${stack.supabaseUrl}/storage/v1 (file service)`);
		console.log('Press Ctrl-C to stop.');
	},
	{ keepAlive: true },
);
