/**
 * npm run bench:build -- [--sizes 300,3000,50000]: `astro build` of a chamber of each size, with
 * the time of each phase (from the build's own log lines, as they arrive), the peak memory and
 * the CPU time of the build (GNU time), and, when this command runs the embedded stack itself, the
 * CPU time of the database meanwhile (it runs in this process). On a machine shared with other
 * work the wall-clock times grow with the load; the CPU times hardly do.
 * (GNU time's maximum resident set size). A chamber `bench-{size}` is generated with
 * `tenant:demo` the first time (not counted); later runs reuse it. Builds go to a temporary
 * folder, so dist/ is left as it is. A chamber above PRERENDERED_PROFILES_MAX (default 0: every
 * profile rendered on demand) gets no pre-rendered profiles; set it higher, e.g.
 * `PRERENDERED_PROFILES_MAX=50000 npm run bench:build`, to time pre-rendering every profile.
 * Each build's largest HTML pages are listed, and the command fails (exit code 1) when any page
 * is over the 300 KB budget: `npm run bench:build -- --sizes 50000` is the check at 50,000.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { prerenderedProfilesMax } from '../src/features/business/business.server.ts';
import { ensureBenchTenant } from './bench/tenant.ts';
import { runMain } from './lib/main.ts';
import {
	describeLargest,
	HTML_PAGE_BUDGET_BYTES,
	overBudget,
	pageSizes,
	type PageSize,
} from './bench/page-sizes.ts';
import { ROOT } from './lib/site.ts';
import { withStack, type Stack } from './stack/index.ts';

/** The build's log lines that begin a phase, in order. */
const PHASES: [name: string, marker: RegExp][] = [
	['start-up (config, integrations)', /^/],
	['build info', /Collecting build info/],
	['bundling (vite: server, client)', /Building server entrypoints/],
	['pre-rendering pages', /prerendering static routes/],
	['adapter (SSR function, _redirects)', /Rearranging server assets/],
];
const DONE = /\[build\] Complete!/;

interface Result {
	size: number;
	phases: number[];
	total: number;
	peakMb: number;
	/** User + system CPU seconds of the build process. */
	cpu: number;
	/** CPU seconds of this process (the embedded database) during the build; null if not ours. */
	dbCpu: number | null;
	/** The build's HTML pages, largest first. */
	pages: PageSize[];
}

async function measure(stack: Stack, size: number, slug: string): Promise<Result> {
	const outDir = await mkdtemp(join(tmpdir(), `chamber-bench-build-${size}-`));
	try {
		const started = performance.now();
		const ownCpu = process.cpuUsage();
		const marks: number[] = [0];
		let finished = 0;
		const child = spawn(
			'/usr/bin/time',
			[
				'-f',
				'peak-rss-kb %M cpu-s %U %S',
				process.execPath,
				join(ROOT, 'node_modules/astro/bin/astro.mjs'),
				'build',
				'--outDir',
				outDir,
			],
			{
				cwd: ROOT,
				env: { ...process.env, ...stack.env, TENANT: slug, ASTRO_TELEMETRY_DISABLED: '1' },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let peakKb = 0;
		let cpu = 0;
		let tail = '';
		const read = (stream: NodeJS.ReadableStream) =>
			createInterface({ input: stream }).on('line', (line) => {
				tail = `${tail}\n${line}`.slice(-3000);
				const next = PHASES[marks.length];
				if (next && next[1].test(line)) marks.push(performance.now() - started);
				if (DONE.test(line)) finished = performance.now() - started;
				const rss = /^peak-rss-kb (\d+) cpu-s ([\d.]+) ([\d.]+)/.exec(line);
				if (rss) {
					peakKb = Number(rss[1]);
					cpu = Number(rss[2]) + Number(rss[3]);
				}
			});
		read(child.stdout!);
		read(child.stderr!);
		const code = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
		if (code !== 0) throw new Error(`The build of ${slug} failed:${tail}`);
		const total = finished || performance.now() - started;
		const phases = PHASES.map((_, i) => ((marks[i + 1] ?? total) - (marks[i] ?? total)) / 1000);
		const used = process.cpuUsage(ownCpu);
		const pages = await pageSizes(outDir);
		return {
			pages,
			size,
			phases,
			total: total / 1000,
			peakMb: Math.round(peakKb / 1024),
			cpu,
			dbCpu: stack.owned ? (used.user + used.system) / 1e6 : null,
		};
	} finally {
		await rm(outDir, { recursive: true, force: true });
	}
}

runMain(async () => {
	const { values } = parseArgs({
		options: { sizes: { type: 'string', default: '300,3000,50000' } },
	});
	const sizes = values.sizes.split(',').map(Number);
	if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) {
		throw new Error('--sizes takes positive whole numbers, e.g. 300,3000,50000');
	}
	const max = prerenderedProfilesMax();
	const results: Result[] = [];
	await withStack(async (stack) => {
		for (const size of sizes) {
			const slug = await ensureBenchTenant(stack, size);
			const load = loadavg()[0]!.toFixed(1);
			console.log(`Building ${slug} (load average ${load})…`);
			results.push(await measure(stack, size, slug));
		}
	});
	const header = [
		'Businesses',
		'Profiles',
		...PHASES.map(([name]) => `${name} s`),
		'Total s',
		'Build CPU s',
		'DB CPU s',
		'Peak RSS MB',
	];
	console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => '---:|').join('')}`);
	for (const r of results) {
		const cells = [
			r.size,
			r.size <= max ? 'pre-rendered' : 'on demand',
			...r.phases.map((s) => s.toFixed(1)),
			r.total.toFixed(1),
			r.cpu.toFixed(1),
			r.dbCpu === null ? 'n/a' : r.dbCpu.toFixed(1),
			r.peakMb,
		];
		console.log(`| ${cells.join(' | ')} |`);
	}
	let over = 0;
	for (const r of results) {
		const count = overBudget(r.pages).length;
		over += count;
		console.log(
			`\n${r.size} businesses: ${r.pages.length} HTML pages, the largest:\n${describeLargest(r.pages).join('\n')}` +
				`\n${count ? `${count} page(s) over` : 'none over'} the ${HTML_PAGE_BUDGET_BYTES / 1024} KB budget`,
		);
	}
	if (over) process.exitCode = 1;
	console.log(
		`\nLoad average now: ${loadavg()
			.map((n) => n.toFixed(1))
			.join(', ')}`,
	);
});
