/**
 * npm run tenant:import -- FILE.json [FILE.json …] [--allow-super-admin]
 * Validates each tenant file with zod and upserts it in one transaction; a bad file writes nothing.
 * A file may create users of its own chamber only; super_admins (who administer every chamber)
 * only with --allow-super-admin.
 */
import { readFile } from 'node:fs/promises';
import { parseTenantFile, type TenantFile } from '../src/features/tenants/tenant-file.ts';
import { importTenant } from '../src/features/tenants/tenants.server.ts';
import { getServiceClient, readClientEnv } from '../src/lib/supabase.server.ts';
import { withStack } from './stack/index.ts';
import { runMain } from './lib/main.ts';

runMain(async () => {
	const args = process.argv.slice(2);
	const files = args.filter((a) => !a.startsWith('--'));
	const unknown = args.filter((a) => a.startsWith('--') && a !== '--allow-super-admin');
	if (files.length === 0 || unknown.length > 0)
		throw new Error(
			'Usage: npm run tenant:import -- FILE.json [FILE.json …] [--allow-super-admin]' +
				(unknown.length ? ` (unknown option ${unknown.join(', ')})` : ''),
		);
	const allowSuperAdmin = args.includes('--allow-super-admin');
	// Parse everything first, so a bad file fails before the stack even starts.
	const parsed: { file: string; data: TenantFile }[] = [];
	for (const file of files) {
		let json: unknown;
		try {
			json = JSON.parse(await readFile(file, 'utf8'));
		} catch (error) {
			throw new Error(`${file}: not readable JSON: ${(error as Error).message}`, { cause: error });
		}
		parsed.push({ file, data: parseTenantFile(json, file) });
	}
	await withStack(async (stack) => {
		const client = getServiceClient(readClientEnv({ ...process.env, ...stack.env }));
		for (const { file, data } of parsed) {
			const started = Date.now();
			const summary = await importTenant(client, data, { allowSuperAdmin });
			console.log(
				`Imported ${file} as tenant "${data.tenant.slug}": ${summary.businesses} businesses, ` +
					`${summary.events} events, ${summary.users} users (${Date.now() - started} ms)`,
			);
		}
		await stack.vacuum();
	});
});
