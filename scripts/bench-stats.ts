/**
 * npm run bench:stats -- [--slug demo] [--seconds 10] [--concurrency 8] [--batch 10]
 * How many statistics events POST /api/stats takes per second: the function over real HTTP in
 * the local Netlify-like server, against the data stack (the running one, or its own), with
 * batches from many visitors at once (each batch leaves from its own loopback address, 127.x.y.z,
 * so the repeat filter counts every event). Checks that the counters grew by exactly the events
 * sent, then puts the day's counters of the chamber back as they were. A benchmark, not a test:
 * it prints its figures and the machine's load.
 */
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ACTION_KINDS, utcDay } from '../src/features/reports/reports.ts';
import { getTenantBySlug } from '../src/features/tenants/lookup.server.ts';
import { getServiceClient, readClientEnv } from '../src/lib/supabase.server.ts';
import type { Row } from '../src/lib/database.ts';
import { startSiteServer } from './local-netlify/server.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { withStack } from './stack/index.ts';
import { freePort } from './lib/free-port.ts';

const CHROME =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The 1-minute load average, as `uptime` prints it. */
const load = () => loadavg()[0]!.toFixed(2);

function post(port: number, from: string, body: string, origin: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = request(
			{
				hostname: '127.0.0.1',
				port,
				path: '/api/stats',
				method: 'POST',
				localAddress: from,
				headers: {
					'content-type': 'text/plain;charset=UTF-8',
					'content-length': Buffer.byteLength(body),
					origin,
					'user-agent': CHROME,
				},
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			slug: { type: 'string', default: 'demo' },
			seconds: { type: 'string', default: '10' },
			concurrency: { type: 'string', default: '8' },
			batch: { type: 'string', default: '10' },
		},
	});
	const seconds = Number(values.seconds);
	if (!(seconds > 0 && seconds <= 120)) throw new Error('--seconds takes 1 to 120');
	const concurrency = wholeNumber('concurrency', values.concurrency, { max: 64 });
	const batchSize = wholeNumber('batch', values.batch, { max: 50 });

	await withStack(async (stack) => {
		Object.assign(process.env, stack.env, { TENANT: values.slug });
		const service = getServiceClient(readClientEnv());
		const tenant = await getTenantBySlug(service, values.slug);
		const { data: profiles, error } = await service
			.from('profiles')
			.select('id')
			.eq('tenant_id', tenant.id)
			.eq('published', true)
			.limit(1000);
		if (error || !profiles?.length) throw new Error(`No published businesses in "${values.slug}"`);
		const ids = profiles.map((p) => p.id);
		if (ids.length < batchSize) throw new Error(`--batch needs at least ${batchSize} businesses`);

		const day = utcDay(new Date());
		const snapshot = async () => {
			const rows: Row<'business_stats'>[] = [];
			for (let from = 0; ; from += 1000) {
				const { data, error: readError } = await service
					.from('business_stats')
					.select('*')
					.eq('tenant_id', tenant.id)
					.eq('day', day)
					.order('business_id')
					.order('kind')
					.order('words')
					.range(from, from + 999);
				if (readError) throw new Error(`Failed to read the counters: ${readError.message}`);
				rows.push(...(data ?? []));
				if ((data ?? []).length < 1000) return rows;
			}
		};
		const total = (rows: Row<'business_stats'>[]) => rows.reduce((sum, row) => sum + row.count, 0);
		const before = await snapshot();
		/** The chamber's counters of the day as they were before the benchmark. */
		const restore = async () => {
			const { error: clearError } = await service
				.from('business_stats')
				.delete()
				.eq('tenant_id', tenant.id)
				.eq('day', day);
			if (clearError) throw new Error(`Failed to put the counters back: ${clearError.message}`);
			for (let i = 0; i < before.length; i += 500) {
				const { error: putError } = await service
					.from('business_stats')
					.insert(before.slice(i, i + 500));
				if (putError) throw new Error(`Failed to put the counters back: ${putError.message}`);
			}
		};

		const port = await freePort();
		const site = await startSiteServer({
			distDir: 'public',
			functionsDir: 'netlify/functions',
			port,
		});
		const origin = `http://localhost:${port}`;
		const kinds = ['shown', 'shown', 'shown', 'view', ...ACTION_KINDS];
		let visitor = 0;
		let sent = 0;
		let failures = 0;
		const latencies: number[] = [];
		const loadStart = load();
		try {
			// Warm up: the function's first call loads its modules and the tenant.
			await post(
				port,
				'127.0.0.2',
				JSON.stringify({ events: [{ kind: 'shown', business: ids[0] }] }),
				origin,
			);
			sent += 1;
			const started = performance.now();
			const until = started + seconds * 1000;
			await Promise.all(
				Array.from({ length: concurrency }, async () => {
					while (performance.now() < until) {
						const n = ++visitor;
						const from = `127.${1 + ((n >> 16) % 250)}.${(n >> 8) & 255}.${n & 255}`;
						const offset = (n * 7) % (ids.length - batchSize + 1);
						const events = ids.slice(offset, offset + batchSize).map((business, i) => ({
							kind: kinds[(n + i) % kinds.length]!,
							business,
						}));
						const at = performance.now();
						const status = await post(port, from, JSON.stringify({ events }), origin);
						latencies.push(performance.now() - at);
						if (status === 204) sent += events.length;
						else failures++;
					}
				}),
			);
			const elapsed = (performance.now() - started) / 1000;
			const after = await snapshot();
			const counted = total(after) - total(before);
			latencies.sort((a, b) => a - b);
			const at = (q: number) =>
				latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
			console.log(
				`\nPOST /api/stats on "${values.slug}" (${ids.length} businesses): ${concurrency} visitors at once, ${batchSize} events a batch, ${seconds} s`,
			);
			console.log(
				'| Batches | Events | Events/s | Batch p50 ms | p95 ms | max ms | Failed | Counted | Load (1 min) |',
			);
			console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
			console.log(
				`| ${latencies.length} | ${sent - 1} | ${Math.round((sent - 1) / elapsed)} | ${at(0.5).toFixed(1)} | ${at(0.95).toFixed(1)} | ${latencies.at(-1)!.toFixed(1)} | ${failures} | ${counted === sent ? 'all' : `${counted} of ${sent}`} | ${loadStart} → ${load()} |`,
			);
			if (counted !== sent) process.exitCode = 1;
		} finally {
			await site.close();
			await restore();
		}
	});
});
