/**
 * npm run bench:import -- [--rows 50000] [--slug bench-import]
 * Times the member import on the embedded stack, through the same code the background function
 * runs: a CSV of --rows members is uploaded to the imports bucket, dry-run and applied (every row
 * added), then the same file with the city changed in every tenth row is dry-run and applied. The
 * chamber is emptied first. Prints each phase's wall-clock time, the peak resident memory of this
 * process (which runs PGlite too when no stack was running) and the load average. A benchmark,
 * not a test: it prints.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { SupabaseClient } from '../src/lib/database.ts';
import { IMPORTS_BUCKET, runImportJob } from '../src/features/members/import/import.server.ts';
import { importTenant } from '../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../src/features/tenants/tenant-file.ts';
import { getServiceClient, readClientEnv } from '../src/lib/supabase.server.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { withStack } from './stack/index.ts';

const CITIES = ['Lakeside', 'Harbor', 'Cedar Falls', 'Riverside', 'Oak Hill'];
// Names from a vocabulary a chamber's might have (the search words are the names' words).
const FIRST = [
	'Lakeside',
	'Harbor',
	'Cedar',
	'Valley',
	'Main Street',
	'Golden',
	'Summit',
	'River',
	'Prairie',
	'Heritage',
	'Northside',
	'Elm',
	'Pioneer',
	'Blue Sky',
	'Maple',
	'Liberty',
	'Union',
	'Old Town',
	'Sunrise',
	'Granite',
];
const SECOND = [
	'Bakery',
	'Hardware',
	'Dental',
	'Law Office',
	'Auto Repair',
	'Florist',
	'Insurance',
	'Realty',
	'Cafe',
	'Fitness',
	'Plumbing',
	'Printing',
	'Pharmacy',
	'Books',
	'Veterinary Clinic',
	'Salon',
	'Bank',
	'Brewing',
	'Landscaping',
	'Electric',
];
const THIRD = [
	'',
	' & Co.',
	' Group',
	' LLC',
	' Inc.',
	' Partners',
	' Services',
	' Studio',
	' Shop',
	' Center',
];
const LEVELS = ['Member', 'Business Partner', 'Corporate', 'Executive', 'Trustee'];

function csv(rows: number, changed: boolean): string {
	const lines = [
		'Profile ID,Organization Name,Address,City,State,Zip,Phone,Website,Membership Level,Categories,Description',
	];
	for (let i = 0; i < rows; i++) {
		const city = changed && i % 10 === 0 ? 'New Town' : CITIES[i % CITIES.length];
		lines.push(
			[
				900_000 + i,
				`"${FIRST[i % 20]} ${SECOND[Math.floor(i / 20) % 20]}${THIRD[Math.floor(i / 400) % 10]}"`,
				`${100 + (i % 900)} Main Street`,
				city,
				'IA',
				`5${String(i % 10000).padStart(4, '0')}`,
				`(319) 555-${String(i % 10000).padStart(4, '0')}`,
				`https://bench-${i}.example`,
				LEVELS[i % LEVELS.length],
				`"Retail; Services ${i % 40}"`,
				`"Bench business number ${i}, serving the valley since ${1950 + (i % 70)}."`,
			].join(','),
		);
	}
	return `${lines.join('\r\n')}\r\n`;
}

async function state(service: SupabaseClient, id: string) {
	const { data, error } = await service
		.from('member_imports')
		.select('state, error, counts, rows_applied')
		.eq('id', id)
		.single<{
			state: string;
			error: string | null;
			counts: Record<string, number>;
			rows_applied: number;
		}>();
	if (error) throw new Error(error.message);
	return data;
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			rows: { type: 'string', default: '50000' },
			slug: { type: 'string', default: 'bench-import' },
		},
	});
	const rows = wholeNumber('rows', values.rows);
	await withStack(async (stack) => {
		// The import code reads the stack's address from the environment, as the functions do.
		Object.assign(process.env, stack.env);
		const service = getServiceClient(readClientEnv());
		const { tenant_id: tenantId } = await importTenant(
			service,
			parseTenantFile({ tenant: { slug: values.slug, name: 'Import benchmark' } }, 'bench'),
			{ only: [] },
		);
		await service.from('member_imports').delete().eq('tenant_id', tenantId);
		await service.from('profiles').delete().eq('tenant_id', tenantId);

		let peak = 0;
		const sampler = setInterval(() => {
			peak = Math.max(peak, process.memoryUsage().rss);
		}, 100);
		const results: {
			phase: string;
			seconds: number;
			cpu: number;
			load: string;
			outcome: string;
		}[] = [];
		const phase = async (name: string, fn: () => Promise<string>) => {
			const before = loadavg()[0]!.toFixed(1);
			const started = performance.now();
			const cpuBefore = process.cpuUsage();
			const outcome = await fn();
			const seconds = (performance.now() - started) / 1000;
			const used = process.cpuUsage(cpuBefore);
			results.push({
				phase: name,
				seconds,
				cpu: (used.user + used.system) / 1e6,
				load: `${before} – ${loadavg()[0]!.toFixed(1)}`,
				outcome,
			});
			console.log(`${name}: ${seconds.toFixed(1)} s (${outcome})`);
		};

		for (const [round, changed] of [
			['add', false],
			['change 10%', true],
		] as const) {
			const path = `${tenantId}/${crypto.randomUUID()}-bench.csv`;
			const text = csv(rows, changed);
			const { error: uploadError } = await service.storage
				.from(IMPORTS_BUCKET)
				.upload(path, new Blob([text], { type: 'text/csv' }), { contentType: 'text/csv' });
			if (uploadError) throw new Error(`Upload failed: ${uploadError.message}`);
			const { data: id, error } = await service.rpc('create_member_import', {
				p_tenant_id: tenantId,
				p_kind: 'file',
				p_source: 'bench.csv',
				p_storage_path: path,
			});
			if (error) throw new Error(error.message);
			await phase(`${round}: dry run of ${rows.toLocaleString('en-US')} rows`, async () => {
				await runImportJob(service, id as string);
				const s = await state(service, id as string);
				if (s.state !== 'previewed') throw new Error(`Dry run ended ${s.state}: ${s.error}`);
				return JSON.stringify(s.counts);
			});
			const { error: applyError } = await service.rpc('request_member_import_apply', {
				p_import_id: id,
				p_missing: 'keep',
			});
			if (applyError) throw new Error(applyError.message);
			await phase(`${round}: apply`, async () => {
				await runImportJob(service, id as string);
				const s = await state(service, id as string);
				if (s.state !== 'applied') throw new Error(`Apply ended ${s.state}: ${s.error}`);
				return `${s.rows_applied} businesses written`;
			});
		}
		clearInterval(sampler);
		const where =
			stack.owned && stack.mode === 'embedded'
				? 'the embedded database runs in this process: CPU and memory include it'
				: stack.mode === 'embedded'
					? 'the database runs in another process (npm run stack): CPU and memory are the import’s own'
					: 'the database is a PostgreSQL server (DATABASE_URL): CPU and memory are the import’s own';
		console.log(`\n${where}`);
		console.log('| Phase | Wall-clock s | CPU s | Load average (1 min, start – end) |');
		console.log('| --- | ---: | ---: | --- |');
		for (const r of results) {
			console.log(`| ${r.phase} | ${r.seconds.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.load} |`);
		}
		console.log(`\nPeak resident memory of this process: ${Math.round(peak / 1024 / 1024)} MB`);
		await stack.vacuum();
	});
});
