/**
 * npm run bench:search -- [--slug big] [--runs 5] [--only near]
 * Times listBusinesses (the search page's one call) on a large tenant: every sort, searches,
 * filters and a deep page, as an anonymous visitor; near a point at each radius the page offers
 * (with a search, a category, a deep page), in a map's area; and the map's points
 * (listBusinessLocations) of the whole chamber and near a point. Make the tenant first with
 * `npm run tenant:demo -- --businesses 50000 --slug big` (the demo's towns, its own coordinates).
 * A benchmark, not a test: it prints the times and the load average.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { getChamberConfig } from '../src/features/config/config.server.ts';
import { businessListQuerySchema } from '../src/features/directory/directory.ts';
import { SORT_VALUES } from '../src/features/directory/rules.ts';
import {
	listBusinesses,
	listBusinessLocations,
	listCategories,
} from '../src/features/directory/directory.server.ts';
import { getTenantBySlug } from '../src/features/tenants/tenants.server.ts';
import { getAnonClient, readClientEnv, LONG_CALL_TIMEOUT_MS } from '../src/lib/supabase.server.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { withStack } from './stack/index.ts';

runMain(async () => {
	const { values } = parseArgs({
		options: {
			slug: { type: 'string', default: 'big' },
			runs: { type: 'string', default: '5' },
			/** 'near': only the distance cases (and the map's points). */
			only: { type: 'string' },
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
			// Cedarbrook's middle, as the page sends a position (three decimals).
			const near = '41.978,-91.666';
			const nearCases: [string, Record<string, string>][] = [
				...['1', '5', '10', '25'].map((radius): [string, Record<string, string>] => [
					`near me, ${radius} mi`,
					{ near, radius },
				]),
				['near me, 10 mi + search "restaurant"', { near, radius: '10', searchQuery: 'restaurant' }],
				[
					`near me, 25 mi + category "${topCategory?.name}"`,
					{ near, radius: '25', category: topCategory?.name ?? '' },
				],
				['near me, 25 mi, page 100', { near, radius: '25', page: '100' }],
				["map's area (Cedarbrook, 8 × 8 km)", { bounds: '41.942,-91.714,42.014,-91.618' }],
			];
			const chosen = values.only === 'near' ? nearCases : [...cases, ...nearCases];
			const rows: {
				case: string;
				total: number;
				median: number;
				p95: number;
				min: number;
				max: number;
			}[] = [];
			const timed = async (label: string, call: () => Promise<number>) => {
				const times: number[] = [];
				let total = 0;
				// One warm-up call, so the table shows steady-state times.
				await call();
				for (let i = 0; i < runs; i++) {
					const started = performance.now();
					total = await call();
					times.push(performance.now() - started);
				}
				times.sort((a, b) => a - b);
				rows.push({
					case: label,
					total,
					median: Math.round(times[Math.floor(times.length / 2)]!),
					p95: Math.round(times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]!),
					min: Math.round(times[0]!),
					max: Math.round(times.at(-1)!),
				});
			};
			const loadBefore = loadavg()[0]!;
			for (const [label, input] of chosen) {
				const query = businessListQuerySchema.parse(input);
				await timed(
					label,
					async () => (await listBusinesses(client, tenant.id, query, config)).total,
				);
			}
			for (const [label, input] of [
				["map's points, the whole chamber", {}],
				["map's points, near me 10 mi", { near, radius: '10' }],
			] as const) {
				const query = businessListQuerySchema.parse(input);
				await timed(
					label,
					async () => (await listBusinessLocations(client, tenant.id, query, config)).located,
				);
			}
			const { count } = await client
				.from('profiles')
				.select('id', { count: 'exact', head: true })
				.eq('tenant_id', tenant.id);
			console.log(
				`\nlistBusinesses on tenant "${tenant.slug}" (${count} businesses), ${runs} runs each, ms; load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end:\n`,
			);
			console.log('| Case | Matches | Median | p95 | Min | Max |');
			console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
			for (const r of rows)
				console.log(`| ${r.case} | ${r.total} | ${r.median} | ${r.p95} | ${r.min} | ${r.max} |`);
		},
		{ quiet: true },
	);
});
