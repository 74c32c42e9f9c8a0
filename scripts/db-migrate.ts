/** npm run db:migrate: applies supabase/migrations (the stack applies them on start, too). */
import { readStackEnv } from '../src/lib/env.server.ts';
import { runMain } from './lib/main.ts';
import { runMigrations } from './stack/migrate.ts';
import { ensureStack } from './stack/index.ts';

runMain(async () => {
	const env = readStackEnv();
	if (env.mode === 'hosted') {
		throw new Error(
			'SUPABASE_URL points at a hosted project: apply the migrations with `supabase db push`, ' +
				'or set DATABASE_URL to its Postgres connection string.',
		);
	}
	const stack = await ensureStack();
	try {
		const result = await runMigrations(stack.databaseUrl!);
		for (const file of result.applied) console.log(`applied ${file}`);
		console.log(`${result.applied.length} applied, ${result.skipped} already up to date`);
		if (result.applied.length) {
			await stack.vacuum();
			await stack.reloadSchema();
		}
	} finally {
		if (stack.owned) await stack.stop();
	}
});
