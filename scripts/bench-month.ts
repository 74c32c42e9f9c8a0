/**
 * npm run bench:month -- [--month 2027-01] [--seed 2026] [--budget 40] [--visits 6000]
 * A month of a chamber of 300 members, replayed on a fake clock against the real publish
 * pipeline: the database's policy (request_publish, collect_publish, fire_publish_window and the
 * month's count), the server's publishing code and npm start's local publisher, whose builds are
 * real `astro build`s of the chamber. Staff save in bursts on 15 working days, members update
 * their own listings 60 times, the membership system's sync changes listings 4 times and an admin
 * imports a member file once (scripts/bench/month-scenario.ts). Prints the builds (started, went
 * live, cancelled), the credits they cost on Netlify's table, and for each change the time from
 * save to live; exits with 1 when a target is missed: at most 40 deploys, every staff change live
 * within 15 s of its publish, every member change live by the end of its window.
 *
 * Which of the product's functions each change goes through, all as the service role with the
 * bench's clock:
 * - A staff save: saveConfigWrite (update_chamber_config, the panel's write through
 *   /api/update-config with `publish: false`), then requestPublish, what the panel's publish after
 *   a save (/api/publish) calls. At the budget that refuses; as /api/publish does, the save is
 *   collected to wait (collectChange, source staff), and the bench's staff confirm the cost as the
 *   panel's dialog does (requestPublish with confirmCost).
 * - A member's save: the listing is written as the service role, then publishMemberChange
 *   (publishChange, origin member), the policy the Members tab's saves go through: nothing, a
 *   purge of the business's tags (a field only its profile shows, profiles on demand) or
 *   collect_publish for the window. The member's own page calls submitMemberChanges instead, which
 *   makes the same choice with the member's token; it cannot run here: the database judges a
 *   member's calls at its own time (p_now is honoured for the service role only), so the window a
 *   save waits for would be the real clock's, not the month's. What it adds, at most one purge per
 *   member every 10 minutes (a second one waits for the window), no member of the scenario meets:
 *   no listing is changed twice within 10 minutes.
 * - A sync or an import: the listings are written as the service role, then collectChange, as the
 *   import's apply does (members/import/import.server.ts).
 * - The scheduled function's window publish: fireWindow, as fire-scheduled-publishes calls it.
 *
 * The clock: the database and the publishing code take the bench's clock (p_now, as the service
 * role's tests do); it runs with real time while a burst plays and a build runs, and jumps to the
 * next event when nothing is under way. The scheduled function's 5-minute runs are replayed at
 * each mark a waiting change reaches. Builds take their real time; a staff change's time to live
 * is real seconds, a member's is on the clock. PRERENDERED_PROFILES_MAX decides, as for a
 * deployment, whether the chamber's profiles are rendered on demand (the default, 0) or
 * pre-rendered (e.g. 1000). Page weights are printed in KB of 1,000 bytes, the unit of Netlify's
 * GB.
 */
import { createServer } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { TZDate } from '@date-fns/tz';
import { addMonths } from 'date-fns/addMonths';
import { format } from 'date-fns/format';
import { saveConfigWrite } from '../src/features/admin/update-config.server.ts';
import { parseConfigChange } from '../src/features/admin/update-config.ts';
import { getChamberConfig } from '../src/features/config/config.server.ts';
import { chamberTimeZone } from '../src/features/config/time-zone.ts';
import { prerenderedProfilesMax } from '../src/features/business/prerender.ts';
import {
	businessChangeImpact,
	NETLIFY_CREDITS,
	WINDOW_LEAD_MINUTES,
} from '../src/features/publish/policy.ts';
import { publishMemberChange } from '../src/features/members/members.server.ts';
import { fireWindow, profilesOnDemand } from '../src/features/publish/policy.server.ts';
import {
	BudgetReachedError,
	collectChange,
	readPublishEnv,
	requestPublish,
	type WaitingAnswer,
} from '../src/features/publish/publish.server.ts';
import { parseHoursText } from '../src/features/business/hours/hours.ts';
import { getTenantBySlug } from '../src/features/tenants/tenants.server.ts';
import type { Json } from '../src/lib/database.ts';
import { getServiceClient, readClientEnv } from '../src/lib/supabase.server.ts';
import { ensureBenchTenant } from './bench/tenant.ts';
import { createLocalPublisher } from './local-netlify/publisher.ts';
import { runMain, wholeNumber } from './lib/main.ts';
import { monthScenario, type MemberBenchField, type MonthEvent } from './bench/month-scenario.ts';
import { weighPage } from './bench/page-weight.ts';
import { astroSiteBuilder, ROOT } from './lib/site.ts';
import { withStack } from './stack/index.ts';

const SLUG = 'bench-month';
const BUSINESSES = 300;
/** Targets (docs/performance.md#benchmonth). */
const MAX_DEPLOYS = 40;
const STAFF_SECONDS = 15;
/** A gap up to this long inside the scenario is waited for in real time (a burst); longer ones are jumped. */
const REAL_GAP_MS = 60_000;
const STEP_MS = 5 * 60_000;

/** The bench's clock: real time from an anchor, jumped forward when nothing is under way. */
class Clock {
	private fake: number;
	private real = Date.now();
	constructor(start: Date) {
		this.fake = start.getTime();
	}
	now(): Date {
		return new Date(this.fake + (Date.now() - this.real));
	}
	jumpTo(at: Date): void {
		if (at.getTime() <= this.now().getTime()) return;
		this.fake = at.getTime();
		this.real = Date.now();
	}
}

interface Change {
	label: string;
	/** Staff: when the publish its save created was requested (real time), for the publish's own time. */
	requestedReal?: number;
	kind: MonthEvent['kind'];
	savedAt: Date;
	savedReal: number;
	/** Staff: the publish that takes it (or a later one, if that one is superseded). */
	publishId?: number;
	/** Waiting ones: their row, and when they are live at the latest. */
	waiting?: WaitingAnswer;
	/** Live at once (a purge of an on-demand profile). */
	purged?: boolean;
	confirmed?: boolean;
}

interface Built {
	state: 'live' | 'failed' | 'cancelled';
	/** The clock and real time when it went live (or ended). */
	at: Date;
	real: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** '214.4 KB': bytes in KB of 1,000, the unit of Netlify's GB (which bandwidth is billed in). */
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

function memberChange(
	field: MemberBenchField,
	n: number,
): { hours?: Json; work_phone?: string; website?: string } {
	switch (field) {
		case 'hours': {
			const parsed = parseHoursText(`Mon-Fri 8:00-17:${String(n % 60).padStart(2, '0')}`);
			return 'hours' in parsed ? { hours: parsed.hours as Json } : {};
		}
		case 'work_phone':
			return { work_phone: `555-01${String(n % 100).padStart(2, '0')}` };
		case 'website':
			return { website: `https://member-${n}.example` };
		default:
			return {};
	}
}

runMain(async () => {
	const { values } = parseArgs({
		options: {
			month: { type: 'string' },
			seed: { type: 'string', default: '2026' },
			budget: { type: 'string' },
			visits: { type: 'string', default: '6000' },
		},
	});
	if (values.budget) process.env.PUBLISH_MONTHLY_BUDGET = values.budget;
	const visits = wholeNumber('visits', values.visits ?? '6000', { min: 0 });
	const load = loadavg()[0]!;

	await withStack(async (stack) => {
		Object.assign(process.env, stack.env, { TENANT: SLUG });
		await ensureBenchTenant(stack, BUSINESSES, SLUG);
		const service = getServiceClient(readClientEnv());
		const tenant = await getTenantBySlug(service, SLUG);
		const config = await getChamberConfig(service, tenant.id);
		const zone = chamberTimeZone(config);
		const month = values.month ?? format(addMonths(new TZDate(Date.now(), zone), 1), 'yyyy-MM');
		const events = monthScenario({
			month,
			zone,
			seed: Number(values.seed),
			businesses: BUSINESSES,
		});
		const env = readPublishEnv();

		// The month starts empty: no publish of the chamber's, nothing waiting.
		for (const table of ['publishes', 'waiting_changes', 'publish_months'] as const) {
			const { error } = await service.from(table).delete().eq('tenant_id', tenant.id);
			if (error) throw new Error(`Clearing ${table}: ${error.message}`);
		}
		const { data: businesses, error } = await service
			.from('profiles')
			.select('id, report_name')
			.eq('tenant_id', tenant.id)
			.eq('published', true)
			.order('report_name')
			.limit(BUSINESSES);
		if (error) throw new Error(`Reading the businesses: ${error.message}`);

		// npm start's publisher, behind a build hook on a port of its own.
		const clock = new Clock(events[0]!.at);
		const built = new Map<number, Built>();
		const dataDir = join(ROOT, process.env.CHAMBER_DATA_DIR || '.data');
		const publisher = createLocalPublisher({
			tenant,
			service,
			buildsDir: join(dataDir, 'builds', SLUG),
			build: astroSiteBuilder(stack, SLUG, {
				compileCacheDir: join(dataDir, 'node-compile-cache'),
				traceCacheDir: join(dataDir, 'function-traces', SLUG),
			}),
			log: (line) => {
				const live = /^publish (\d+) \(.*\): live after/.exec(line);
				const failed = /^publish (\d+) \(.*\): failed after/.exec(line);
				const cancelled = /^publish (\d+): cancelled/.exec(line);
				const id = Number((live ?? failed ?? cancelled)?.[1]);
				if (live) built.set(id, { state: 'live', at: clock.now(), real: Date.now() });
				else if (cancelled)
					built.set(id, { state: 'cancelled', at: clock.now(), real: Date.now() });
				else if (failed && built.get(id)?.state !== 'cancelled') {
					built.set(id, { state: 'failed', at: clock.now(), real: Date.now() });
				}
				if (live || failed) console.log(`    ${line}`);
			},
		});
		await publisher.recover();
		publisher.attach({ swap: async () => {} });
		const hook = createServer((req, res) => {
			const route = req.method === 'POST' ? publisher.route : publisher.buildsRoute;
			void route
				.handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method }))
				.then(async (answer) => {
					res.writeHead(answer.status, { 'content-type': 'application/json' });
					res.end(await answer.text());
				});
		});
		await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
		const port = (hook.address() as { port: number }).port;
		process.env.NETLIFY_BUILD_HOOK_URL = `http://127.0.0.1:${port}${publisher.hookPath}`;
		process.env.LOCAL_BUILDS_URL = `http://127.0.0.1:${port}${publisher.buildsRoute.path}`;
		const publishEnv = readPublishEnv();

		const onDemand = await profilesOnDemand(tenant.id);
		console.log(
			`bench:month: ${SLUG} (${businesses.length} businesses, profiles ${onDemand ? 'rendered on demand' : 'pre-rendered'}, PRERENDERED_PROFILES_MAX ${prerenderedProfilesMax()}), ${month} on the clock of ${zone}, budget ${env.PUBLISH_MONTHLY_BUDGET}, window ${config.features.publishWindow}; load average ${load.toFixed(1)}`,
		);
		const counts = events.reduce<Record<string, number>>(
			(all, e) => ({ ...all, [e.kind]: (all[e.kind] ?? 0) + 1 }),
			{},
		);
		console.log(
			`  ${counts.staff ?? 0} staff saves in ${new Set(events.flatMap((e) => (e.kind === 'staff' ? [e.burst] : []))).size} bursts, ${counts.member ?? 0} member updates, ${counts.sync ?? 0} syncs, ${counts.import ?? 0} import`,
		);

		/** The scheduled function's runs (every 5 minutes) up to `until`, where something is due. */
		async function scheduledRuns(until: Date): Promise<void> {
			for (;;) {
				const { data: next } = await service
					.from('waiting_changes')
					.select('due_at')
					.eq('tenant_id', tenant.id)
					.eq('state', 'waiting')
					.order('due_at')
					.limit(1);
				const due = next?.[0]?.due_at;
				if (!due) return;
				const mark = new Date(
					Math.ceil((Date.parse(due) - WINDOW_LEAD_MINUTES * 60_000) / STEP_MS) * STEP_MS,
				);
				const at = mark.getTime() < clock.now().getTime() ? clock.now() : mark;
				if (at.getTime() > until.getTime()) return;
				await publisher.idle();
				clock.jumpTo(at);
				const publish = await fireWindow(tenant.id, { now: clock.now(), service, env: publishEnv });
				await publisher.idle();
				// Nothing to build at this mark (moved to the daily one): look again from the next.
				if (!publish) clock.jumpTo(new Date(at.getTime() + STEP_MS));
			}
		}

		const changes: Change[] = [];
		/** When each publish a staff save created was requested (real time). */
		const requested = new Map<number, number>();
		let confirmations = 0;
		let n = 0;
		for (const event of events) {
			await scheduledRuns(event.at);
			const gap = event.at.getTime() - clock.now().getTime();
			if (gap > REAL_GAP_MS) {
				await publisher.idle();
				clock.jumpTo(event.at);
			} else if (gap > 0) await sleep(gap);
			n += 1;
			const savedAt = clock.now();
			const savedReal = Date.now();
			if (event.kind === 'staff') {
				const label = `staff save ${event.burst}.${event.save}`;
				const { write } = parseConfigChange({
					chamber: SLUG,
					section: 'content',
					field: 'heroTitle',
					value: `Bench month ${n}`,
				});
				await saveConfigWrite(service, tenant.id, write, null);
				let confirmed = false;
				const ask = (confirmCost: boolean) =>
					requestPublish(
						{ client: service, tenantId: tenant.id, reason: label, confirmCost, now: clock.now() },
						publishEnv,
					);
				let result;
				try {
					result = await ask(false);
				} catch (refusal) {
					if (!(refusal instanceof BudgetReachedError)) throw refusal;
					// As /api/publish: the save waits meanwhile. The panel asks; the bench's staff confirm.
					await collectChange(
						{
							client: service,
							tenantId: tenant.id,
							source: 'staff',
							summary: label,
							now: clock.now(),
						},
						publishEnv,
					);
					confirmations += 1;
					confirmed = true;
					result = await ask(true);
				}
				if (result.created) requested.set(result.publish.id, Date.now());
				changes.push({
					label,
					kind: 'staff',
					savedAt,
					savedReal,
					publishId: result.publish.id,
					confirmed,
				});
				continue;
			}
			if (event.kind === 'member') {
				const business = businesses[event.business % businesses.length]!;
				const label = `member ${business.report_name}: ${event.field}`;
				const values = memberChange(event.field, n);
				if (Object.keys(values).length) {
					await service.from('profiles').update(values).eq('id', business.id);
				} else if (event.field === 'social_media') {
					await service.from('social_media').delete().eq('profile_id', business.id);
				} else {
					await service
						.from('listings')
						.update({ description: `<p>Updated by its member, change ${n}.</p>` })
						.eq('profile_id', business.id);
				}
				const outcome = await publishMemberChange(service, tenant, business.id, label, {
					origin: 'member',
					impact: businessChangeImpact({
						fields: [event.field],
						publishedBefore: true,
						publishedAfter: true,
						cardsShowDescription: config.features.showBusinessShortDescription,
					}),
					now: clock.now(),
				});
				if (outcome.kind === 'purged') {
					changes.push({ label, kind: 'member', savedAt, savedReal, purged: true });
				} else if (outcome.kind === 'waiting') {
					changes.push({ label, kind: 'member', savedAt, savedReal, waiting: outcome.waiting });
				} else {
					throw new Error(
						`${label}: a member's save of a listing on the site made ${outcome.kind}`,
					);
				}
				continue;
			}
			const label = `${event.kind} of ${event.businesses} businesses`;
			for (let i = 0; i < event.businesses; i++) {
				const business = businesses[(n * 7 + i * 13) % businesses.length]!;
				await service
					.from('profiles')
					.update({ city: `City ${n}` })
					.eq('id', business.id);
			}
			const waiting = await collectChange(
				{
					client: service,
					tenantId: tenant.id,
					source: event.kind,
					summary: label,
					now: clock.now(),
				},
				publishEnv,
			);
			changes.push({ label, kind: event.kind, savedAt, savedReal, waiting });
		}
		// The month's last waiting changes go out at their marks.
		await scheduledRuns(new Date(events.at(-1)!.at.getTime() + 2 * 86_400_000));
		await publisher.idle();
		await publisher.close();
		hook.close();

		// Where each waiting change went live.
		const ids = changes.flatMap((c) => (c.waiting ? [c.waiting.id] : []));
		const { data: rows } = await service
			.from('waiting_changes')
			.select('id, publish_id, state')
			.in('id', ids.length ? ids : [0]);
		const takenBy = new Map(
			(rows ?? []).map((r) => [Number(r.id), r.publish_id === null ? null : Number(r.publish_id)]),
		);
		const liveAfter = (id: number) =>
			[...built.entries()]
				.filter(([publish, b]) => publish >= id && b.state === 'live')
				.sort(([a], [b]) => a - b)[0];

		console.log(
			'\n  Change                                             saved (clock)         live after',
		);
		let staffMissed = 0;
		let memberMissed = 0;
		const staffSeconds: number[] = [];
		for (const change of changes) {
			let text: string;
			if (change.purged) text = 'at once (profile purged)';
			else if (change.kind === 'staff') {
				// From the save, and from the request of the publish that took it live (a later save's,
				// when that one superseded its own build) to live: the target is on the latter.
				const found = liveAfter(change.publishId!);
				const live = found?.[1];
				const fromSave = live ? (live.real - change.savedReal) / 1000 : Number.POSITIVE_INFINITY;
				const start = found ? requested.get(found[0]) : undefined;
				const fromPublish = live && start ? (live.real - start) / 1000 : fromSave;
				staffSeconds.push(fromPublish);
				if (fromPublish > STAFF_SECONDS) staffMissed += 1;
				text = `${fromSave.toFixed(1)} s from the save, ${fromPublish.toFixed(1)} s from its publish (${found?.[0] ?? '-'})${change.confirmed ? ', confirmed past the budget' : ''}${fromPublish > STAFF_SECONDS ? ': MISSED' : ''}`;
			} else {
				const publish = takenBy.get(change.waiting!.id);
				const live = publish === null || publish === undefined ? undefined : built.get(publish);
				const due = new Date(change.waiting!.dueAt);
				const late = !live || live.state !== 'live' || live.at.getTime() > due.getTime();
				if (late) memberMissed += 1;
				text = live
					? `${((live.at.getTime() - change.savedAt.getTime()) / 60_000).toFixed(1)} min, by ${format(new TZDate(due, zone), 'MMM d HH:mm')}${change.waiting!.daily ? ' (daily)' : ''}${late ? ': MISSED' : ''}`
					: 'never: MISSED';
			}
			console.log(
				`  ${change.label.slice(0, 50).padEnd(50)} ${format(new TZDate(change.savedAt, zone), 'MMM d HH:mm:ss')}  ${text}`,
			);
		}

		const outcomes = [...built.values()];
		const deploys = outcomes.filter((b) => b.state === 'live').length;
		const cancelled = outcomes.filter((b) => b.state === 'cancelled').length;
		const failed = outcomes.filter((b) => b.state === 'failed').length;
		const deployCredits = deploys * NETLIFY_CREDITS.deploy;
		const traffic = await trafficEstimate(join(dataDir, 'builds', SLUG), visits);
		const sorted = [...staffSeconds].sort((a, b) => a - b);
		console.log(
			`\n  Builds: ${outcomes.length} started, ${deploys} went live (deploys), ${cancelled} cancelled by a newer publish, ${failed} failed; ${confirmations} staff publishes confirmed past the budget`,
		);
		console.log(
			`  Credits: ${deploys} deploys × ${NETLIFY_CREDITS.deploy} = ${deployCredits}${cancelled ? ` (${cancelled} cancelled builds would be ${cancelled * NETLIFY_CREDITS.deploy} more if Netlify counted them)` : ''}`,
		);
		if (traffic) {
			console.log(
				`  Traffic (${visits} visits, ${traffic.pagesPerVisit} pages each): ${traffic.gigabytes.toFixed(2)} GB × ${NETLIFY_CREDITS.perGigabyte} = ${traffic.bandwidthCredits.toFixed(1)} credits, ${traffic.requests} requests = ${traffic.requestCredits.toFixed(1)} credits (page weight: first view ${kb(traffic.firstViewBytes)}: the home page ${kb(traffic.homeBytes)}, its scripts ${kb(traffic.scriptBytes)}, the fonts ${kb(traffic.fontBytes)}; next page ${kb(traffic.pageBytes)})`,
			);
			console.log(
				`  In all: ${(deployCredits + traffic.bandwidthCredits + traffic.requestCredits).toFixed(0)} credits`,
			);
		}
		console.log(
			`  Staff changes: from their publish to live median ${sorted[sorted.length >> 1]?.toFixed(1) ?? '-'} s, longest ${sorted.at(-1)?.toFixed(1) ?? '-'} s (target ≤ ${STAFF_SECONDS} s: ${staffMissed ? `${staffMissed} missed` : 'met'})`,
		);
		console.log(
			`  Member changes, syncs, imports: ${memberMissed ? `${memberMissed} not live by their mark` : 'every one live by the end of its window'}`,
		);
		console.log(
			`  Deploys ${deploys} (target ≤ ${MAX_DEPLOYS}: ${deploys <= MAX_DEPLOYS ? 'met' : 'missed'}); load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
		);
		if (deploys > MAX_DEPLOYS || staffMissed || memberMissed) process.exitCode = 1;
	});
});

/**
 * What visitors cost on top, from the last build's files: a visit lands on the home page (its
 * HTML and the JavaScript it loads before any interaction, gzipped as the CDN sends them, and the
 * chamber's two fonts' Latin files) and reads two more pages (a category page; profiles weigh
 * about the same and load no script); each page asks the API about twice (the cache version, the
 * statistics' beacon). Logos come from Supabase Storage, not Netlify; banners, through the banner
 * proxy, are not counted. An estimate, for docs/deploy.md.
 */
async function trafficEstimate(buildsDir: string, visits: number) {
	const live = JSON.parse(
		await readFile(join(buildsDir, 'live.json'), 'utf8').catch(() => 'null'),
	) as { deployId: string } | null;
	if (!live) return null;
	const dist = join(buildsDir, live.deployId, 'dist');
	const homeWeights = await weighPage(await readFile(join(dist, 'index.html'), 'utf8'), '/', dist);
	const home = await readFile(join(dist, 'index.html'), 'utf8');
	// The fonts the page's CSS names, their Latin subsets (what English text downloads).
	const fonts = [
		...new Set(
			[...home.matchAll(/url\((\/_astro\/[^)]+-latin-wght-[^)]+\.woff2)\)/g)].map((m) => m[1]!),
		),
	];
	let fontBytes = 0;
	for (const font of fonts) fontBytes += (await stat(join(dist, font))).size;
	const category = (await readdir(join(dist, 'category')).catch(() => [] as string[]))[0];
	const pageBytes = category
		? gzipSync(await readFile(join(dist, 'category', category, 'index.html'))).length
		: 0;
	const firstViewBytes = homeWeights.html + homeWeights.js + fontBytes;
	const pagesPerVisit = 3;
	const bytes = visits * (firstViewBytes + (pagesPerVisit - 1) * pageBytes);
	const files = 1 + homeWeights.jsFiles.length + fonts.length;
	const requests = visits * (files + (pagesPerVisit - 1) + pagesPerVisit * 2);
	const gigabytes = bytes / 1e9;
	return {
		pagesPerVisit,
		firstViewBytes,
		homeBytes: homeWeights.html,
		scriptBytes: homeWeights.js,
		fontBytes,
		pageBytes,
		gigabytes,
		bandwidthCredits: gigabytes * NETLIFY_CREDITS.perGigabyte,
		requests,
		requestCredits: (requests / 10_000) * NETLIFY_CREDITS.per10kRequests,
	};
}
