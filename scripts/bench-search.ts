/**
 * npm run bench:search -- [--slug big] [--runs 5]
 * Times listBusinesses (the search page's one call) on a large tenant: every sort, searches,
 * filters and a deep page, as an anonymous visitor. Make the tenant first with
 * `npm run tenant:demo -- --businesses 50000 --slug big`. A benchmark, not a test: it prints.
 */
import { parseArgs } from 'node:util';
import { getChamberConfig } from '../src/features/config/config.server.ts';
import { businessListQuerySchema } from '../src/features/directory/directory.ts';
import { SORT_VALUES } from '../src/features/directory/rules.ts';
import { listBusinesses, listCategories } from '../src/features/directory/directory.server.ts';
import { getTenantBySlug } from '../src/features/tenants/tenants.server.ts';
import { getAnonClient, readClientEnv, LONG_CALL_TIMEOUT_MS } from '../src/lib/supabase.server.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { withStack } from './stack/index.ts';

runMain(async () => {
	const { values } = parseArgs({
		options: {
			slug: { type: 'string', default: 'big' },
			runs: { type: 'string', default: '5' },
		},
	});
	const runs = wholeNumber('runs', values.runs);
	await withStack(
		async (stack) => {
			const client = getAnonClient(
				readClientEnv({
					...process.env,
					...stack.env,
					SUPABASE_TIMEOUT_MS: String(LONG_CALL_TIMEOUT_MS),
				}),
			);
			const tenant = await getTenantBySlug(client, values.slug).catch(() => {
				throw new Error(
					`No tenant "${values.slug}": run \`npm run tenant:demo -- --businesses 50000 --slug ${values.slug}\` first`,
				);
			});
			const config = await getChamberConfig(client, tenant.id);
			const [topCategory] = await listCategories(client, tenant.id);
			const cases: [string, Record<string, string>][] = [
				...SORT_VALUES.map((sortBy): [string, Record<string, string>] => [sortBy, { sortBy }]),
				['search "restaurant"', { searchQuery: 'restaurant' }],
				['search "resturant" (typo)', { searchQuery: 'resturant' }],
				['search "lawyers" (word form)', { searchQuery: 'lawyers' }],
				['search "roofers"', { searchQuery: 'roofers' }],
				[`category "${topCategory?.name}"`, { category: topCategory?.name ?? '' }],
				['new members only', { newMembersOnly: 'true' }],
				[
					'search + category + random',
					{ searchQuery: 'service', category: topCategory?.name ?? '', sortBy: 'random' },
				],
				['page 1000 (nameAsc)', { sortBy: 'nameAsc', page: '1000' }],
			];
			const rows: { case: string; total: number; median: number; min: number; max: number }[] = [];
			for (const [label, input] of cases) {
				const query = businessListQuerySchema.parse(input);
				const times: number[] = [];
				let total = 0;
				// One warm-up call, so the table shows steady-state times.
				await listBusinesses(client, tenant.id, query, config);
				for (let i = 0; i < runs; i++) {
					const started = performance.now();
					total = (await listBusinesses(client, tenant.id, query, config)).total;
					times.push(performance.now() - started);
				}
				times.sort((a, b) => a - b);
				rows.push({
					case: label,
					total,
					median: Math.round(times[Math.floor(times.length / 2)]!),
					min: Math.round(times[0]!),
					max: Math.round(times.at(-1)!),
				});
			}
			const { count } = await client
				.from('profiles')
				.select('id', { count: 'exact', head: true })
				.eq('tenant_id', tenant.id);
			console.log(
				`\nlistBusinesses on tenant "${tenant.slug}" (${count} businesses), ${runs} runs each, ms:\n`,
			);
			console.log('| Case | Matches | Median | Min | Max |');
			console.log('| --- | ---: | ---: | ---: | ---: |');
			for (const r of rows)
				console.log(`| ${r.case} | ${r.total} | ${r.median} | ${r.min} | ${r.max} |`);
		},
		{ quiet: true },
	);
});
