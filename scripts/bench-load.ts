/**
 * npm run bench:load -- [--url http://localhost:8888] [--connections 20,50] [--seconds 30]
 * Load on the running `npm start` (start it first): a fixed mix of what visitors ask for — half
 * `/api/businesses` with varied search, category, page and sort, the rest category pages, the
 * search page, business profiles, the events page and the calendar feed — from N keep-alive
 * connections at once, each sending its next request when the last one is answered. Prints
 * requests per second, p50/p95/p99 per route, errors, the server's memory and the machine's load
 * average, and the targets. Loopback only, and bounded (at most 100 connections, 120 s a level).
 * A benchmark, not a test: it prints.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { runMain } from './lib/main.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_CONNECTIONS = 100;
const MAX_SECONDS = 120;
/** Targets on the project's 2-core machine (docs/performance.md). */
const TARGETS = {
	20: { apiP95: 300, errors: 0 },
	50: { p99: 2000, errors: 0 },
	rssBytes: 1024 ** 3,
};

type RouteName =
	| 'api/businesses'
	| 'api/events.ics'
	| 'page: category'
	| 'page: profile'
	| 'page: search'
	| 'page: events';

interface Target {
	route: RouteName;
	path: string;
}

/** A small seeded generator, so every run asks for the same sequence. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const SEARCH_WORDS = [
	'law',
	'dental',
	'cafe',
	'auto',
	'bank',
	'home',
	'repair',
	'the',
	'co',
	'inn',
];
const SORTS = ['nameAsc', 'nameDesc', 'membershipHighToLow', 'listingPositionHighToLow'];

/** The site's own addresses, read from its sitemap: category pages and business profiles. */
async function discover(
	site: string,
	agent: Agent,
): Promise<{ categories: string[]; profiles: string[]; categorySlugs: string[] }> {
	const res = await request(`${site}/sitemap.xml`, { dispatcher: agent });
	if (res.statusCode !== 200) throw new Error(`${site}/sitemap.xml answered ${res.statusCode}`);
	const xml = await res.body.text();
	const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
	const categories = paths.filter((p) => p.startsWith('/category/') && p !== '/category/');
	const profiles = paths.filter((p) => p.startsWith('/business/'));
	if (!categories.length || !profiles.length) {
		throw new Error('The sitemap lists no category pages or business profiles');
	}
	const categorySlugs = categories.map((p) => decodeURIComponent(p.split('/')[2] ?? ''));
	return { categories, profiles, categorySlugs };
}

function mix(
	next: () => number,
	site: { categories: string[]; profiles: string[]; categorySlugs: string[] },
): Target {
	const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
	const roll = next();
	if (roll < 0.5) {
		const query = new URLSearchParams();
		const kind = next();
		if (kind < 0.4) query.set('searchQuery', pick(SEARCH_WORDS));
		else if (kind < 0.8) query.set('category', pick(site.categorySlugs));
		query.set('page', String(1 + Math.floor(next() * 3)));
		query.set('sortBy', pick(SORTS));
		return { route: 'api/businesses', path: `/api/businesses?${query}` };
	}
	if (roll < 0.6) return { route: 'page: category', path: pick(site.categories) };
	if (roll < 0.7) return { route: 'page: search', path: '/search' };
	if (roll < 0.8) return { route: 'page: profile', path: pick(site.profiles) };
	if (roll < 0.9) return { route: 'page: events', path: '/events' };
	return { route: 'api/events.ics', path: '/api/events.ics' };
}

interface Sample {
	route: RouteName;
	ms: number;
	ok: boolean;
	status: number;
}

function percentile(sorted: number[], p: number): number {
	if (!sorted.length) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The process listening on the port (the `npm start` server), read from /proc. */
async function listeningPid(port: number): Promise<number | null> {
	const inodes = new Set<string>();
	for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
		const text = await readFile(file, 'utf8').catch(() => '');
		for (const line of text.split('\n').slice(1)) {
			const cols = line.trim().split(/\s+/);
			const local = cols[1]?.split(':')[1];
			// 0A: LISTEN
			if (local && parseInt(local, 16) === port && cols[3] === '0A') inodes.add(cols[9]!);
		}
	}
	if (!inodes.size) return null;
	for (const pid of await readdir('/proc')) {
		if (!/^\d+$/.test(pid)) continue;
		const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
		for (const fd of fds) {
			const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
			const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
			if (inode && inodes.has(inode)) return Number(pid);
		}
	}
	return null;
}

/** CPU time (user + system, ms) of the process and each one under it, by name. */
async function cpuOf(pid: number): Promise<Map<string, number>> {
	const ticks = 100; // USER_HZ on Linux
	const procs = new Map<number, { ppid: number; name: string; ms: number }>();
	for (const entry of await readdir('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
		const match = /^\d+ \((.*)\) \S (\d+)(?: \S+){9} (\d+) (\d+)/.exec(stat);
		if (!match) continue;
		procs.set(Number(entry), {
			ppid: Number(match[2]),
			name: match[1]!,
			ms: ((Number(match[3]) + Number(match[4])) * 1000) / ticks,
		});
	}
	const totals = new Map<string, number>();
	const add = (id: number, label: string) => {
		const info = procs.get(id);
		if (!info) return;
		totals.set(label, (totals.get(label) ?? 0) + info.ms);
		for (const [child, c] of procs) if (c.ppid === id) add(child, labelOf(c.name, c.ppid === pid));
	};
	add(pid, 'server');
	return totals;
}

function labelOf(name: string, direct: boolean): string {
	if (name === 'postgrest') return 'PostgREST';
	// The server's direct node children: the embedded database (a build would be one too).
	return direct ? 'database' : 'other';
}

function describeCpu(
	before: Map<string, number>,
	after: Map<string, number>,
	requests: number,
): string {
	return [...after]
		.map(([label, ms]) => `${label} ${((ms - (before.get(label) ?? 0)) / requests).toFixed(1)} ms`)
		.join(', ');
}

interface Memory {
	/** The server process itself. */
	server: number;
	/** It and every process under it (the database, PostgREST, builds). */
	tree: number;
	children: { pid: number; name: string; rss: number }[];
}

async function memoryOf(pid: number): Promise<Memory | null> {
	const procs = new Map<number, { ppid: number; name: string; rss: number }>();
	for (const entry of await readdir('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
		const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
		const match = /^\d+ \((.*)\) \S (\d+)/.exec(stat);
		const rss = /VmRSS:\s+(\d+) kB/.exec(status);
		if (!match) continue;
		procs.set(Number(entry), {
			ppid: Number(match[2]),
			name: match[1]!,
			rss: rss ? Number(rss[1]) * 1024 : 0,
		});
	}
	const self = procs.get(pid);
	if (!self) return null;
	const children: Memory['children'] = [];
	const walk = (parent: number) => {
		for (const [child, info] of procs) {
			if (info.ppid !== parent) continue;
			children.push({ pid: child, name: info.name, rss: info.rss });
			walk(child);
		}
	};
	walk(pid);
	return {
		server: self.rss,
		tree: self.rss + children.reduce((sum, c) => sum + c.rss, 0),
		children,
	};
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;
const load = () =>
	loadavg()
		.map((n) => n.toFixed(2))
		.join(', ');

function describeMemory(memory: Memory | null): string {
	if (!memory) return 'unknown (server process not found)';
	const parts = memory.children
		.filter((c) => c.rss > 20 * 1024 ** 2)
		.map((c) => `${c.name} ${mb(c.rss)}`);
	return `server ${mb(memory.server)}, with its children ${mb(memory.tree)}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

async function runLevel(
	site: string,
	connections: number,
	seconds: number,
	pages: Awaited<ReturnType<typeof discover>>,
): Promise<{ samples: Sample[]; elapsed: number }> {
	const agent = new Agent({ connections, pipelining: 1, keepAliveTimeout: 30_000 });
	const samples: Sample[] = [];
	const started = performance.now();
	const end = started + seconds * 1000;
	await Promise.all(
		Array.from({ length: connections }, async (_, index) => {
			const next = random(1000 + index);
			while (performance.now() < end) {
				const target = mix(next, pages);
				const began = performance.now();
				let status = 0;
				try {
					const res = await request(site + target.path, {
						dispatcher: agent,
						headers: { 'accept-encoding': 'gzip' },
						headersTimeout: 30_000,
						bodyTimeout: 30_000,
					});
					status = res.statusCode;
					for await (const _chunk of res.body) {
						// The whole answer is read, as a browser would.
					}
				} catch {
					// No answer (refused, reset, timed out): counted with status 0.
				}
				samples.push({
					route: target.route,
					ms: performance.now() - began,
					ok: status >= 200 && status < 400,
					status,
				});
			}
		}),
	);
	const elapsed = (performance.now() - started) / 1000;
	await agent.close();
	return { samples, elapsed };
}

function report(
	connections: number,
	samples: Sample[],
	elapsed: number,
): { apiP95: number; p99: number; errors: number } {
	const routes = [...new Set(samples.map((s) => s.route))].sort();
	const errors = samples.filter((s) => !s.ok);
	console.log(
		`\n${connections} connections: ${samples.length} requests in ${elapsed.toFixed(1)} s = ${(samples.length / elapsed).toFixed(1)} requests/s, ${errors.length} errors`,
	);
	const row = (name: string, list: Sample[]) => {
		const ms = list.map((s) => s.ms).sort((a, b) => a - b);
		const bad = list.filter((s) => !s.ok).length;
		console.log(
			`  ${name.padEnd(16)} ${String(list.length).padStart(6)}  p50 ${percentile(ms, 50).toFixed(0).padStart(5)} ms  p95 ${percentile(ms, 95).toFixed(0).padStart(5)} ms  p99 ${percentile(ms, 99).toFixed(0).padStart(5)} ms  errors ${bad}`,
		);
	};
	console.log(`  ${'route'.padEnd(16)} ${'count'.padStart(6)}`);
	for (const route of routes)
		row(
			route,
			samples.filter((s) => s.route === route),
		);
	row('all', samples);
	const statuses = new Map<number, number>();
	for (const e of errors) statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
	if (statuses.size) {
		console.log(
			`  error statuses: ${[...statuses].map(([s, n]) => `${s === 0 ? 'no answer' : s} ×${n}`).join(', ')}`,
		);
	}
	const api = samples
		.filter((s) => s.route.startsWith('api/'))
		.map((s) => s.ms)
		.sort((a, b) => a - b);
	const all = samples.map((s) => s.ms).sort((a, b) => a - b);
	return { apiP95: percentile(api, 95), p99: percentile(all, 99), errors: errors.length };
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			url: { type: 'string', default: `http://localhost:${process.env.PORT || 8888}` },
			connections: { type: 'string', default: '20,50' },
			seconds: { type: 'string', default: '30' },
			warmup: { type: 'string', default: '5' },
		},
	});
	const site = values.url.replace(/\/$/, '');
	const url = new URL(site);
	if (!LOOPBACK.has(url.hostname)) {
		throw new Error(
			`bench:load loads only this machine's own server (localhost), not ${url.hostname}`,
		);
	}
	const levels = values.connections.split(',').map(Number);
	if (levels.some((n) => !Number.isInteger(n) || n < 1 || n > MAX_CONNECTIONS)) {
		throw new Error(`--connections takes whole numbers from 1 to ${MAX_CONNECTIONS}`);
	}
	const seconds = Number(values.seconds);
	const warmup = Number(values.warmup);
	if (!(seconds > 0 && seconds <= MAX_SECONDS) || !(warmup >= 0 && warmup <= MAX_SECONDS)) {
		throw new Error(`--seconds and --warmup take up to ${MAX_SECONDS}`);
	}

	const probe = new Agent({ connections: 1 });
	const pages = await discover(site, probe).catch((error: Error) => {
		throw new Error(
			`Nothing usable answers at ${site} (start it first: npm start): ${error.message}`,
		);
	});
	await probe.close();
	const port = Number(url.port || 80);
	const pid = await listeningPid(port);

	console.log(`bench:load against ${site} (server pid ${pid ?? 'unknown'})`);
	console.log(`  memory before: ${describeMemory(pid ? await memoryOf(pid) : null)}`);
	console.log(`  load average before: ${load()}`);
	if (warmup > 0) {
		await runLevel(site, Math.min(...levels), warmup, pages);
		console.log(`  warmed up for ${warmup} s`);
	}
	const results = new Map<number, ReturnType<typeof report>>();
	for (const connections of levels) {
		const cpuBefore = pid ? await cpuOf(pid) : null;
		const { samples, elapsed } = await runLevel(site, connections, seconds, pages);
		results.set(connections, report(connections, samples, elapsed));
		if (pid && cpuBefore) {
			console.log(
				`  CPU time per request: ${describeCpu(cpuBefore, await cpuOf(pid), samples.length)}`,
			);
		}
		console.log(`  load average after: ${load()}`);
	}
	const after = pid ? await memoryOf(pid) : null;
	console.log(`\n  memory after: ${describeMemory(after)}`);

	console.log('\nTargets (2-core machine):');
	const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
	const at20 = results.get(20);
	if (at20) {
		console.log(
			`  20 connections: API p95 ${at20.apiP95.toFixed(0)} ms ≤ ${TARGETS[20].apiP95} ms, errors ${at20.errors} = 0: ${verdict(at20.apiP95 <= TARGETS[20].apiP95 && at20.errors === 0)}`,
		);
	}
	const at50 = results.get(50);
	if (at50) {
		console.log(
			`  50 connections: p99 ${at50.p99.toFixed(0)} ms ≤ ${TARGETS[50].p99} ms, errors ${at50.errors} = 0: ${verdict(at50.p99 <= TARGETS[50].p99 && at50.errors === 0)}`,
		);
	}
	if (after) {
		console.log(
			`  memory after the run ${mb(after.tree)} ≤ ${mb(TARGETS.rssBytes)}: ${verdict(after.tree <= TARGETS.rssBytes)}`,
		);
	}
});
