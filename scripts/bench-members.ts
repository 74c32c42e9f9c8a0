/**
 * npm run bench:members -- [--slug big] [--runs 9]
 * Times the Members tab's list on a large chamber, signed in as its admin (admin@{slug}.test, as
 * tenant:demo makes it): GET /api/admin/businesses through the local server's functions (the
 * token check, the chamber, the list) and the database call alone (admin_list_businesses as the
 * user), for the first page, a deep page, name searches, each status, a level and a category.
 * Make the chamber first with `npm run tenant:demo -- --businesses 50000 --slug big`. A
 * benchmark, not a test: it prints.
 */
import { parseArgs } from 'node:util';
import { listMembers } from '../src/features/members/members.server.ts';
import { memberListQuerySchema } from '../src/features/members/members.ts';
import { getTenantBySlug } from '../src/features/tenants/lookup.server.ts';
import { createAuthClient, getUserClient, readClientEnv } from '../src/lib/supabase.server.ts';
import { startSiteServer } from './local-netlify/server.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { withStack } from './stack/index.ts';
import { freePort } from './lib/free-port.ts';

function stats(times: number[]) {
	const sorted = [...times].sort((a, b) => a - b);
	return {
		median: Math.round(sorted[Math.floor(sorted.length / 2)]!),
		min: Math.round(sorted[0]!),
		max: Math.round(sorted.at(-1)!),
	};
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			slug: { type: 'string', default: 'big' },
			runs: { type: 'string', default: '9' },
		},
	});
	const runs = wholeNumber('runs', values.runs);
	await withStack(
		async (stack) => {
			Object.assign(process.env, stack.env, { TENANT: values.slug });
			const env = readClientEnv();
			const auth = createAuthClient(env);
			const email = `admin@${values.slug}.test`;
			const { data, error } = await auth.auth.signInWithPassword({
				email,
				password: 'demo-password',
			});
			if (error || !data.session) {
				throw new Error(
					`Cannot sign in as ${email}: run \`npm run tenant:demo -- --businesses 50000 --slug ${values.slug}\` first (${error?.message})`,
				);
			}
			const token = data.session.access_token;
			const client = getUserClient(token, env);
			const tenant = await getTenantBySlug(client, values.slug);
			const site = await startSiteServer({
				distDir: 'public',
				functionsDir: 'netlify/functions',
				port: await freePort(),
			});
			try {
				const { count } = await client
					.from('profiles')
					.select('id', { count: 'exact', head: true })
					.eq('tenant_id', tenant.id);
				const { data: sample } = await client
					.from('profiles')
					.select('membership_level_name, categories')
					.eq('tenant_id', tenant.id)
					.limit(1)
					.single<{ membership_level_name: string; categories: string[] }>();
				const cases: [string, Record<string, string>][] = [
					['first page', {}],
					['page 1000', { page: '1000' }],
					['name "bakery"', { q: 'bakery' }],
					['name "zz" (few)', { q: 'zz' }],
					['published', { status: 'published' }],
					['unpublished', { status: 'unpublished' }],
					['removed', { status: 'removed' }],
					[
						`level "${sample?.membership_level_name}"`,
						{ level: sample?.membership_level_name ?? '' },
					],
					[`category "${sample?.categories[0]}"`, { category: sample?.categories[0] ?? '' }],
					['name + category', { q: 'service', category: sample?.categories[0] ?? '' }],
				];
				const rows: string[] = [];
				for (const [label, input] of cases) {
					const query = memberListQuerySchema.parse(input);
					const url = new URL('/api/admin/businesses', site.url.replace('localhost', '127.0.0.1'));
					for (const [key, value] of Object.entries(input)) url.searchParams.set(key, value);
					const api = async () => {
						const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
						if (!response.ok)
							throw new Error(`${url}: ${response.status} ${await response.text()}`);
						return ((await response.json()) as { total: number }).total;
					};
					// One warm-up each, so the table shows steady-state times.
					await api();
					await listMembers(client, tenant.id, query);
					const apiTimes: number[] = [];
					const dbTimes: number[] = [];
					let total = 0;
					for (let i = 0; i < runs; i++) {
						let started = performance.now();
						total = await api();
						apiTimes.push(performance.now() - started);
						started = performance.now();
						await listMembers(client, tenant.id, query);
						dbTimes.push(performance.now() - started);
					}
					const a = stats(apiTimes);
					const d = stats(dbTimes);
					rows.push(
						`| ${label} | ${total} | ${a.median} | ${a.min} | ${a.max} | ${d.median} | ${d.min} | ${d.max} |`,
					);
				}
				console.log(
					`\nGET /api/admin/businesses on "${tenant.slug}" (${count} businesses), 25 a page, ${runs} runs each, ms:\n`,
				);
				console.log(
					'| Case | Matches | API median | API min | API max | Database call median | min | max |',
				);
				console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
				for (const row of rows) console.log(row);
			} finally {
				await site.close();
			}
		},
		{ quiet: true },
	);
});
