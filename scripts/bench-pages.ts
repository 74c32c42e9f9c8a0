/**
 * npm run bench:pages: what the built site (dist/) costs a visitor, page by page, against the
 * budgets in docs/performance.md.
 *
 * For the home page, the search page, one category page, one business profile, the three calendar
 * pages and an upcoming event's detail page (rendered on demand by the SSR function): the HTML
 * gzipped; the JavaScript the page loads before any interaction, gzipped (every <script src>,
 * modulepreload and Astro island component/renderer, plus their static imports, each file once);
 * the inline scripts, gzipped (already counted in the HTML); and a Lighthouse run with its mobile
 * preset (simulated slow 4G, mid-range phone) in Debian's Chromium against the built site served
 * with its functions on a free port. Prints a table, writes it with the machine's load average into
 * docs/performance.md (its bench:pages section)
 * and exits with 1 when a page misses a target.
 *
 * Lighthouse slows the CPU down 4 times, assuming a host about 4 times faster than the phone it
 * emulates. On a slower or busy host that makes the phone slower than the real one, so the
 * slowdown is calibrated the way Lighthouse's throttling guide describes: the host's benchmark
 * index (measured by Lighthouse) over the emulated phone's, at most 4.
 *
 * Options: --runs N (Lighthouse runs per page, the median is kept; default 3), --cpu N (a fixed
 * CPU slowdown instead of the calibrated one, e.g. 4 for Lighthouse's own), --page NAME (one
 * page only, e.g. Search, or several, comma-separated: --page 'Events,Event detail'), --no-docs.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, posix } from 'node:path';
import { parseArgs } from 'node:util';
import { eventPath, type Event } from '../src/features/events/events.ts';
import { startSiteServer } from './local-netlify/server.ts';
import { onShutdown, runMain } from './lib/main.ts';
import { loadBenchTool, type ChromeLauncher, type Lighthouse } from './bench/lighthouse.ts';
import { ROOT } from './lib/site.ts';
import { ensureStack } from './stack/index.ts';
import { freePort } from './lib/free-port.ts';
import { weighPage, type Weights } from './bench/page-weight.ts';

const DIST = join(ROOT, 'dist');
const DOC = join(ROOT, 'docs/performance.md');
const KB = 1024;

interface PageBudget {
	/** Most gzipped JavaScript loaded before any interaction. */
	maxJs: number;
}

const HTML_BUDGET = 30 * KB;
/**
 * Benchmark index of the phone Lighthouse's mobile preset emulates (Moto G Power), as Chrome
 * DevTools' CPU calibration puts it.
 */
const PHONE_BENCHMARK_INDEX = 264;
const SCORE_TARGETS = { performance: 95, accessibility: 100, seo: 100, bestPractices: 95 };

interface BenchPage {
	name: string;
	path: string;
	budget: PageBudget;
}

interface Scores {
	performance: number;
	accessibility: number;
	seo: number;
	bestPractices: number;
	/** The performance metrics of the median run, to show where a missed score went. */
	metrics: string;
}

/** Lighthouse's performance metrics, shown next to each page's result. */
const METRICS = [
	['FCP', 'first-contentful-paint'],
	['LCP', 'largest-contentful-paint'],
	['TBT', 'total-blocking-time'],
	['CLS', 'cumulative-layout-shift'],
	['SI', 'speed-index'],
] as const;

async function exists(path: string): Promise<boolean> {
	return (await stat(path).catch(() => null)) !== null;
}

/** The first page below dist/{dir} (sorted), as a site path, or null. */
async function firstPage(dir: string, depth: number): Promise<string | null> {
	const base = join(DIST, dir);
	if (!(await exists(base))) return null;
	let paths = [''];
	for (let level = 0; level < depth; level++) {
		const next: string[] = [];
		for (const path of paths) {
			const entries = await readdir(join(base, path), { withFileTypes: true });
			for (const entry of entries.filter((e) => e.isDirectory()).sort()) {
				next.push(posix.join(path, entry.name));
			}
		}
		paths = next;
	}
	for (const path of paths.sort()) {
		if (await exists(join(base, path, 'index.html'))) return `/${dir}/${path}/`;
	}
	return null;
}

/** A built page's site path, or null when the build left it out (e.g. an area switched off). */
async function builtPage(path: string): Promise<string | null> {
	return (await exists(join(DIST, path, 'index.html'))) ? path : null;
}

/**
 * An upcoming event's on-demand detail page: the first event /api/events answers from today on
 * (the page is rendered by the SSR function, not in dist/), or null without one.
 */
async function eventDetailPage(origin: string): Promise<string | null> {
	const day = new Date().toISOString().slice(0, 10);
	const response = await fetch(`${origin}/api/events`);
	if (!response.ok) return null;
	const { Result } = (await response.json()) as { Result: Event[] };
	const event = Result.find((e) => e.StartDate.slice(0, 10) >= day) ?? Result[0];
	return event ? eventPath(event) : null;
}

/**
 * A profile rendered on demand, when the build pre-rendered none (above PRERENDERED_PROFILES_MAX
 * businesses): the first /business/ address of the sitemap, answered by the business-legacy
 * function with the SSR function's page, as on Netlify.
 */
async function onDemandProfile(): Promise<string | null> {
	const files = (await readdir(DIST)).filter((f) => /^sitemap(-\d+)?\.xml$/.test(f)).sort();
	for (const file of files) {
		const match = /<loc>[^<]*?(\/business\/[^<]+)<\/loc>/.exec(
			await readFile(join(DIST, file), 'utf8'),
		);
		if (match?.[1]) return match[1];
	}
	return null;
}

async function pagesToBench(origin: string): Promise<BenchPage[]> {
	const interactive: PageBudget = { maxJs: 80 * KB };
	const staticOnly: PageBudget = { maxJs: 0 };
	const candidates: [string, string | null, PageBudget][] = [
		['Home', '/', interactive],
		['Search', await builtPage('/search'), interactive],
		['Category', await firstPage('category', 1), staticOnly],
		['Profile', (await firstPage('business', 2)) ?? (await onDemandProfile()), staticOnly],
		['Events', await builtPage('/events'), interactive],
		['Events list', await builtPage('/events-list'), interactive],
		['Community events', await builtPage('/community-events'), interactive],
		['Event detail', await eventDetailPage(origin), staticOnly],
	];
	const pages: BenchPage[] = [];
	for (const [name, path, budget] of candidates) {
		if (path) pages.push({ name, path, budget });
		else console.warn(`  ${name}: not in dist/, skipped`);
	}
	return pages;
}

/** A page's HTML: the built file, else as the server renders it on demand. */
async function htmlFile(path: string, origin: string): Promise<string> {
	const clean = path.replace(/\/$/, '');
	for (const file of [join(DIST, clean, 'index.html'), join(DIST, `${clean}.html`)]) {
		if (await exists(file)) return readFile(file, 'utf8');
	}
	const response = await fetch(`${origin}${path}`);
	if (response.ok) return response.text();
	throw new Error(`No page for ${path}: HTTP ${response.status}`);
}

/** Sizes of a page and of the JavaScript it loads before any interaction. */
async function weigh(path: string, origin: string): Promise<Weights> {
	return weighPage(await htmlFile(path, origin), path, DIST);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/**
 * How long the server takes to answer a page (to its headers): the first request (a page rendered
 * on demand renders then, as after a publish or a purge behind the CDN) and the median of the
 * ten after it.
 */
async function serverTimes(
	origin: string,
	path: string,
): Promise<{ first: number; median: number }> {
	const once = async () => {
		const began = performance.now();
		const response = await fetch(`${origin}${path}`);
		const took = performance.now() - began;
		await response.body?.cancel();
		if (!response.ok) throw new Error(`${path} answered ${response.status}`);
		return took;
	};
	const first = await once();
	const next: number[] = [];
	for (let i = 0; i < 10; i++) next.push(await once());
	return { first, median: median(next) };
}

/** Loaded when the benchmark starts, from tools/bench (bench/lighthouse.ts). */
let lighthouse: Lighthouse;
let mobileSlow4G: object;

async function runLighthouse(url: string, port: number, cpu: number, categories: string[]) {
	const result = await lighthouse(
		url,
		{ port, output: 'json', logLevel: 'error', onlyCategories: categories },
		{
			extends: 'lighthouse:default',
			settings: { throttling: { ...mobileSlow4G, cpuSlowdownMultiplier: cpu } },
		},
	);
	if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
	if (result.lhr.runtimeError) {
		throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.message}`);
	}
	return result.lhr;
}

/** The CPU slowdown that makes this host behave like the emulated phone (at most 4). */
async function calibrate(url: string, port: number): Promise<{ index: number; cpu: number }> {
	const indexes: number[] = [];
	for (let run = 0; run < 3; run++) {
		const lhr = await runLighthouse(url, port, 4, ['performance']);
		indexes.push(lhr.environment.benchmarkIndex);
	}
	const index = Math.round(median(indexes));
	return {
		index,
		cpu: Math.min(4, Math.max(1, Math.round((index / PHONE_BENCHMARK_INDEX) * 10) / 10)),
	};
}

async function audit(url: string, port: number, runs: number, cpu: number): Promise<Scores> {
	const all: Scores[] = [];
	for (let run = 0; run < runs; run++) {
		const { categories, audits } = await runLighthouse(url, port, cpu, [
			'performance',
			'accessibility',
			'seo',
			'best-practices',
		]);
		const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
		all.push({
			performance: score('performance'),
			accessibility: score('accessibility'),
			seo: score('seo'),
			bestPractices: score('best-practices'),
			metrics: METRICS.map(([name, id]) => `${name} ${audits[id]?.displayValue ?? '?'}`).join(', '),
		});
	}
	const performance = median(all.map((s) => s.performance));
	return {
		performance,
		accessibility: median(all.map((s) => s.accessibility)),
		seo: median(all.map((s) => s.seo)),
		bestPractices: median(all.map((s) => s.bestPractices)),
		metrics: all.find((s) => s.performance === performance)?.metrics ?? '',
	};
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

interface Row {
	page: BenchPage;
	weights: Weights;
	scores: Scores;
	misses: string[];
	times: { first: number; median: number };
}

function misses(page: BenchPage, weights: Weights, scores: Scores): string[] {
	const out: string[] = [];
	if (weights.html > HTML_BUDGET) out.push(`HTML ${kb(weights.html)} > ${kb(HTML_BUDGET)}`);
	if (weights.js > page.budget.maxJs) out.push(`JS ${kb(weights.js)} > ${kb(page.budget.maxJs)}`);
	if (scores.performance < SCORE_TARGETS.performance) out.push(`performance ${scores.performance}`);
	if (scores.accessibility < SCORE_TARGETS.accessibility)
		out.push(`accessibility ${scores.accessibility}`);
	if (scores.seo < SCORE_TARGETS.seo) out.push(`SEO ${scores.seo}`);
	if (scores.bestPractices < SCORE_TARGETS.bestPractices)
		out.push(`best practices ${scores.bestPractices}`);
	return out;
}

function table(rows: Row[]): string {
	const head = [
		'Page',
		'Path',
		'HTML (gz)',
		'JS before interaction (gz)',
		'Inline JS (gz)',
		'Performance',
		'Accessibility',
		'SEO',
		'Best practices',
		'Server answer: first / then',
		'Budget',
	];
	const lines = rows.map((r) => [
		r.page.name,
		`\`${r.page.path}\``,
		kb(r.weights.html),
		kb(r.weights.js),
		kb(r.weights.inlineJs),
		String(r.scores.performance),
		String(r.scores.accessibility),
		String(r.scores.seo),
		String(r.scores.bestPractices),
		`${Math.round(r.times.first)} / ${Math.round(r.times.median)} ms`,
		r.misses.length ? `missed: ${r.misses.join(', ')}` : 'met',
	]);
	const all = [head, ...lines];
	const widths = head.map((_, i) => Math.max(...all.map((line) => (line[i] ?? '').length)));
	const format = (line: string[]) =>
		`| ${line.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
	return [format(head), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n');
}

const START = '<!-- bench:pages:start -->';
const END = '<!-- bench:pages:end -->';

interface Setup {
	runs: number;
	cpu: number;
	/** The host's benchmark index, when the slowdown was calibrated. */
	index?: number;
	/** The 1-minute load average when the bench started. */
	loadAtStart: number;
}

async function writeDoc(rows: Row[], setup: Setup): Promise<void> {
	const readme = await readFile(DOC, 'utf8');
	const at = readme.indexOf(START);
	const to = readme.indexOf(END);
	if (at === -1 || to === -1) throw new Error(`docs/performance.md has no ${START} … ${END} block`);
	const when = new Date().toISOString().slice(0, 10);
	const block = [
		START,
		'',
		`Measured ${when} by \`npm run bench:pages\` on the demo chamber (tenant \`${process.env.TENANT || 'demo'}\`),`,
		`Lighthouse ${setup.runs === 1 ? 'one run' : `median of ${setup.runs} runs`} per page, mobile preset, CPU slowdown ${setup.cpu}×` +
			(setup.index ? ` (calibrated: host benchmark index ${setup.index}).` : '.'),
		'',
		table(rows),
		'',
		`Load average (1 minute) ${setup.loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
		'',
		END,
	].join('\n');
	await writeFile(DOC, readme.slice(0, at) + block + readme.slice(to + END.length));
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			runs: { type: 'string', default: '3' },
			cpu: { type: 'string' },
			'no-docs': { type: 'boolean' },
			page: { type: 'string' },
		},
	});
	const runs = Math.max(1, Number.parseInt(values.runs ?? '3', 10) || 3);
	if (!(await exists(join(DIST, 'index.html')))) {
		throw new Error('dist/ has no built site: run `npm run build` first');
	}

	lighthouse = (await loadBenchTool<{ default: Lighthouse }>('lighthouse')).default;
	mobileSlow4G = (
		await loadBenchTool<{ throttling: { mobileSlow4G: object } }>(
			'lighthouse/core/config/constants.js',
		)
	).throttling.mobileSlow4G;
	const chromeLauncher = await loadBenchTool<ChromeLauncher>('chrome-launcher');
	const stack = await ensureStack({ quiet: true });
	onShutdown(() => stack.stop());
	Object.assign(process.env, stack.env, { TENANT: process.env.TENANT || 'demo' });
	const server = await startSiteServer({
		distDir: DIST,
		functionsDir: join(ROOT, 'netlify/functions'),
		// The event detail page is rendered on demand, as on Netlify.
		ssrDir: join(ROOT, '.netlify/v1/functions/ssr'),
		port: await freePort(),
	});
	onShutdown(() => server.close());
	const chrome = await chromeLauncher.launch({
		chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
		chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
	});
	onShutdown(async () => chrome.kill());

	const fixed = Number(values.cpu);
	const loadAtStart = loadavg()[0]!;
	const setup: Setup =
		values.cpu && fixed > 0
			? { runs, cpu: fixed, loadAtStart }
			: { runs, loadAtStart, ...(await calibrate(`${server.url}/`, chrome.port)) };
	console.log(
		`  CPU slowdown ${setup.cpu}×${setup.index ? ` (host benchmark index ${setup.index})` : ''}`,
	);

	const rows: Row[] = [];
	const only = values.page?.toLowerCase();
	const names = only?.split(',').map((name) => name.trim());
	const pages = (await pagesToBench(server.url)).filter(
		(p) => !names || names.includes(p.name.toLowerCase()),
	);
	if (pages.length === 0) throw new Error(`No page named ${values.page} to bench`);
	for (const page of pages) {
		const times = await serverTimes(server.url, page.path);
		const weights = await weigh(page.path, server.url);
		const scores = await audit(`${server.url}${page.path}`, chrome.port, runs, setup.cpu);
		rows.push({ page, weights, scores, misses: misses(page, weights, scores), times });
		console.log(`  ${page.name} ${page.path}: ${weights.jsFiles.join(', ') || 'no JS files'}`);
		console.log(`    performance ${scores.performance}: ${scores.metrics}`);
	}
	console.log(`\n${table(rows)}\n`);
	console.log(
		`Load average (1 minute) ${setup.loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.\n`,
	);
	// A one-page run would replace the whole table with one row.
	if (!values['no-docs'] && !only) {
		await writeDoc(rows, setup);
		console.log('docs/performance.md: bench:pages section updated');
	}
	if (rows.some((r) => r.misses.length > 0)) throw new Error('Some pages miss their budget');
});
