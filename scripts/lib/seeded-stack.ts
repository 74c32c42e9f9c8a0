import { join, resolve } from 'node:path';
import { readStackEnv } from '../../src/lib/env.server.ts';
import { ensureStack, type Stack } from '../stack/index.ts';
import { contentFingerprint, copyTemplate, hasDatabase, saveTemplate } from '../stack/template.ts';
import { ROOT, seedFiles, seedIfEmpty } from './site.ts';

/**
 * The stack of `npm start`, `npm run dev` and the Netlify check, with the demo seeded into an
 * empty database (seedIfEmpty). A new embedded data folder starts from a copy of the demo
 * template instead: a folder as this seed left it, kept under a fingerprint of the contents of
 * the migrations, the code, the tenant files and the seed itself (the demo's dates are today's).
 * Without one, the seed runs, the stack stops so the closed folder is kept as the template, and
 * starts again. `started` is told of each stack this starts, for the caller's shutdown.
 */
export async function ensureSeededStack(
	started: (stack: Stack) => void = () => {},
): Promise<Stack> {
	const env = readStackEnv();
	const dataDir = resolve(env.dataDir);
	const start = async () => {
		const stack = await ensureStack();
		started(stack);
		return stack;
	};
	const seeded = async (stack: Stack, files?: Parameters<typeof seedIfEmpty>[1]) => {
		await seedIfEmpty(stack, files).catch(async (error: unknown) => {
			if (stack.owned) await stack.stop();
			throw error;
		});
		return stack;
	};
	if (env.mode !== 'embedded' || (await hasDatabase(dataDir))) return seeded(await start());
	const files = await seedFiles();
	const fingerprint = await contentFingerprint(
		[
			'supabase/migrations',
			'src',
			'scripts/stack',
			'scripts/lib/site.ts',
			'scripts/lib/seeded-stack.ts',
			'tenants',
			'package-lock.json',
		].map((path) => join(ROOT, path)),
		[JSON.stringify(files)],
	);
	if (await copyTemplate('demo', fingerprint, dataDir)) {
		console.log('Empty database: a copy of the demo template (the demo chamber and riverside).');
		return start();
	}
	await (await seeded(await start(), files)).stop();
	await saveTemplate('demo', fingerprint, dataDir);
	return start();
}
