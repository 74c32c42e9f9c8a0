/**
 * npm run tenant:demo -- [--slug demo] [--businesses 300] [--seed 2026] [--out FILE.json]
 *                        [--allow-super-admin]
 * Generates a demo chamber with faker (fixed seed, dates relative to today) and imports it,
 * or writes it to --out. Large tenants (benchmarks) go in batches of 1,000 businesses. Its
 * super@{slug}.test super_admin is imported only with --allow-super-admin, as tenant:import's.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseTenantFile } from '../src/features/tenants/tenant-file.ts';
import { importTenant } from '../src/features/tenants/tenants.server.ts';
import {
	getServiceClient,
	readClientEnv,
	LONG_CALL_TIMEOUT_MS,
} from '../src/lib/supabase.server.ts';
import { generateTenant } from '../tenants/demo/generate.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { withStack } from './stack/index.ts';

const BATCH = 1000;

runMain(async () => {
	const { values } = parseArgs({
		options: {
			slug: { type: 'string', default: 'demo' },
			name: { type: 'string' },
			businesses: { type: 'string', default: '300' },
			seed: { type: 'string', default: '2026' },
			out: { type: 'string' },
			'allow-super-admin': { type: 'boolean', default: false },
		},
	});
	const count = wholeNumber('businesses', values.businesses);
	const started = Date.now();
	const input = generateTenant({
		slug: values.slug,
		name: values.name,
		businesses: count,
		seed: Number(values.seed),
	});
	const file = parseTenantFile(input, `generated tenant ${values.slug}`);
	console.log(`Generated ${file.businesses.length} businesses in ${Date.now() - started} ms`);
	if (values.out) {
		await writeFile(values.out, JSON.stringify(input, null, '\t') + '\n');
		console.log(`Wrote ${values.out}`);
		return;
	}
	await withStack(async (stack) => {
		const client = getServiceClient(
			readClientEnv({
				...process.env,
				...stack.env,
				SUPABASE_TIMEOUT_MS: String(LONG_CALL_TIMEOUT_MS),
			}),
		);
		const all = file.businesses;
		const allowSuperAdmin = values['allow-super-admin'];
		const users = allowSuperAdmin ? file.users : file.users.filter((u) => u.role !== 'super_admin');
		await importTenant(
			client,
			{ ...file, users, businesses: all.slice(0, BATCH) },
			{ allowSuperAdmin },
		);
		for (let i = BATCH; i < all.length; i += BATCH) {
			await importTenant(
				client,
				{ ...file, businesses: all.slice(i, i + BATCH) },
				{ replaceBusinesses: false, only: ['businesses'] },
			);
			process.stdout.write(`\r${Math.min(i + BATCH, all.length)} / ${all.length} businesses`);
		}
		if (all.length > BATCH) process.stdout.write('\n');
		await stack.vacuum();
		console.log(
			`Imported tenant "${file.tenant.slug}" in ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
	});
});
