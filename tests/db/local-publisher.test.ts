// Runs on: PGlite — `npm start`'s own publisher is the subject; the publish states in SQL are
// publish.test.ts's, on the production shape.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import {
	createLocalPublisher,
	INTERRUPTED,
	type LocalBuild,
	type LocalPublisher,
	type SiteBuilder,
} from '../../scripts/local-netlify/publisher.ts';
import { startSiteServer, type SiteServer } from '../../scripts/local-netlify/server.ts';
import { requestPublish } from '../../src/features/publish/publish.server.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { randomSlug } from './fixtures.ts';
import { freePort } from '../support/db-clients.ts';
import { setFunctionEnv } from '../support/function-server.ts';

// `npm start`'s publishing: its own build hook, a build into a fresh folder, and the swap. The
// builds here are small stand-ins for `astro build` that write their files slowly, so requests
// made while a build is under way, and during the swap, can show whether anything half-built is
// ever served. The publishes record moves through the same states as with Netlify.

let restoreEnv: (() => void) | undefined;

let slug: string;
let tenantId: string;
let root: string;
let server: SiteServer;
let publisher: LocalPublisher;
let builder: SiteBuilder;
let buildCount = 0;
let concurrentBuilds = 0;
let maxConcurrentBuilds = 0;

/** `npm start`'s publisher of the chamber, building with `builder` into this test's folder. */
const newPublisher = () =>
	createLocalPublisher({
		tenant: { id: tenantId, slug },
		service,
		buildsDir: join(root, 'builds'),
		build: (outDir, signal) => builder(outDir, signal),
		log: () => {},
	});

/** A whole site of version `label`: two pages, a hashed asset they load, an SSR function. */
async function writeSite(
	dir: string,
	label: string,
	pace = 0,
	signal?: AbortSignal,
): Promise<LocalBuild> {
	const dist = join(dir, 'dist');
	const asset = `/_astro/app.${label}.js`;
	const page = (title: string) =>
		`<!doctype html><title>${title}</title><main data-build="${label}">${title} of build ${label}</main><script src="${asset}"></script>`;
	await mkdir(join(dist, 'about'), { recursive: true });
	await mkdir(join(dist, '_astro'), { recursive: true });
	await writeFile(join(dist, 'index.html'), page('Home'));
	await sleep(pace, undefined, { signal });
	await writeFile(join(dist, 'about', 'index.html'), page('About'));
	await sleep(pace, undefined, { signal });
	await writeFile(join(dist, asset), `console.log(${JSON.stringify(label)});`);
	await writeFile(join(dist, '_redirects'), `/old-about /about/ 301\n`);
	const ssr = join(dir, 'ssr');
	await mkdir(ssr, { recursive: true });
	await writeFile(
		join(ssr, 'ssr.mjs'),
		`export default async () => new Response('on demand, build ${label}', { headers: { 'content-type': 'text/plain' } });\n`,
	);
	return { distDir: dist, ssrDir: ssr };
}

async function get(path: string): Promise<{ status: number; text: string }> {
	const response = await fetch(new URL(path, server.url.replace('localhost', '127.0.0.1')), {
		redirect: 'manual',
	});
	return { status: response.status, text: await response.text() };
}

async function publishRows() {
	const { rows } = await db.query<{
		id: number;
		state: string;
		error: string | null;
		deploy_id: string | null;
	}>(
		`select id::int, state, error, deploy_id from public.publishes where tenant_id = $1 order by id`,
		[tenantId],
	);
	return rows;
}

const publish = (reason = 'Content saved') => requestPublish({ client: service, tenantId, reason });

beforeAll(async () => {
	await db.connect();
	slug = randomSlug('local-pub');
	const imported = await importTenant(
		service,
		parseTenantFile({ tenant: { slug, name: `Local ${slug}` } }, 'fixture'),
	);
	tenantId = imported.tenant_id;
	restoreEnv = setFunctionEnv(stack, { tenant: slug, env: { NETLIFY_PURGE_API_TOKEN: undefined } });

	root = await mkdtemp(join(tmpdir(), 'chamber-publisher-test-'));
	const initial = await writeSite(join(root, 'initial'), 'A');
	publisher = newPublisher();
	const port = await freePort();
	server = await startSiteServer({
		distDir: initial.distDir,
		ssrDir: initial.ssrDir,
		functionsDir: join(root, 'no-functions'),
		port,
		routes: [publisher.route, publisher.buildsRoute],
	});
	publisher.attach(server);
	process.env.NETLIFY_BUILD_HOOK_URL = `http://127.0.0.1:${port}${publisher.hookPath}`;
});

afterAll(async () => {
	await publisher?.close();
	await server?.close();
	restoreEnv?.();
	await db.query('delete from public.tenants where slug = $1', [slug]);
	await db.end();
	await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
	await publisher.idle();
	await db.query('delete from public.publishes where tenant_id = $1', [tenantId]);
	concurrentBuilds = 0;
	maxConcurrentBuilds = 0;
});

/**
 * A builder writing build `label` at the given pace, counting how many run at once; it stops
 * when told to, as astro build's process does.
 */
function slowBuilder(label: () => string, pace: number): SiteBuilder {
	return async (outDir, signal) => {
		buildCount++;
		concurrentBuilds++;
		maxConcurrentBuilds = Math.max(maxConcurrentBuilds, concurrentBuilds);
		try {
			return await writeSite(outDir, label(), pace, signal);
		} finally {
			concurrentBuilds--;
		}
	};
}

describe('the local build hook', () => {
	it('answers at once, as Netlify does, and only to POST', async () => {
		builder = slowBuilder(() => 'H', 50);
		const response = await fetch(process.env.NETLIFY_BUILD_HOOK_URL!, { method: 'POST' });
		expect(response.status).toBe(200);
		expect(await response.text()).toBe('');
		expect((await get(publisher.hookPath)).status).toBe(405);
		await publisher.idle();
	});
});

describe('a successful build', () => {
	it('goes live as a whole: pages, assets, redirects and the SSR function of that build', async () => {
		builder = slowBuilder(() => 'B', 20);
		const { publish: queued } = await publish();
		expect(queued.state === 'queued' || queued.state === 'building').toBe(true);
		await publisher.idle();

		expect(await publishRows()).toEqual([
			expect.objectContaining({
				id: queued.id,
				state: 'live',
				error: null,
				deploy_id: expect.stringMatching(/^local-/),
			}),
		]);
		expect((await get('/')).text).toContain('Home of build B');
		expect((await get('/about/')).text).toContain('About of build B');
		expect((await get('/_astro/app.B.js')).status).toBe(200);
		expect(await get('/anything-on-demand')).toEqual({ status: 200, text: 'on demand, build B' });
		// The assets of the build before stay reachable for pages loaded just before the swap.
		expect((await get('/_astro/app.A.js')).status).toBe(200);
	});
});

describe('a failing build', () => {
	it('leaves the live site as it was and fails the publish with the reason', async () => {
		builder = slowBuilder(() => 'C', 0);
		await publish();
		await publisher.idle();
		const before = (await get('/')).text;

		builder = async (outDir) => {
			await writeFile(join(outDir, 'half.html'), 'half a site');
			throw new Error(
				'The site could not be built: Invalid chamber configuration in chamber_config',
			);
		};
		const { publish: doomed } = await publish();
		await publisher.idle();

		expect((await publishRows()).at(-1)).toMatchObject({
			id: doomed.id,
			state: 'failed',
			error: 'The site could not be built: Invalid chamber configuration in chamber_config',
		});
		expect((await get('/')).text).toBe(before);
		expect((await get('/half.html')).text).not.toContain('half a site');
		// Its folder is gone; only the live build and the one before it stay.
		const folders = (await readdir(join(root, 'builds'), { withFileTypes: true })).filter((e) =>
			e.isDirectory(),
		);
		expect(folders.length).toBeLessThanOrEqual(2);
	});
});

describe('requests during a build and the swap', () => {
	it('never see a half-built site: every answer is wholly one build, and builds only move forward', async () => {
		builder = slowBuilder(() => 'D', 0);
		await publish();
		await publisher.idle();

		builder = slowBuilder(() => 'E', 150);
		const seen: string[] = [];
		const problems: string[] = [];
		let stop = false;
		const visitor = async () => {
			while (!stop) {
				for (const path of ['/', '/about/']) {
					const page = await get(path);
					const build = /data-build="(\w)"/.exec(page.text)?.[1];
					if (page.status !== 200 || !build) {
						problems.push(`${path}: ${page.status} ${page.text.slice(0, 60)}`);
						continue;
					}
					seen.push(build);
					const asset = /src="([^"]+)"/.exec(page.text)?.[1] ?? '';
					const script = await get(asset);
					if (script.status !== 200 || !script.text.includes(`"${build}"`)) {
						problems.push(`${asset} of build ${build}: ${script.status}`);
					}
				}
			}
		};
		const visitors = Array.from({ length: 4 }, visitor);
		await sleep(50);
		await publish();
		await publisher.idle();
		await sleep(50);
		stop = true;
		await Promise.all(visitors);

		expect(problems).toEqual([]);
		expect(seen).toContain('D');
		expect(seen.at(-1)).toBe('E');
		// Once a visitor got E, nobody got D again.
		expect(seen.slice(seen.indexOf('E'))).not.toContain('D');
	});
});

describe('builds', () => {
	it('run one at a time; saves during a build are built once, and cancel the build they supersede', async () => {
		let n = 0;
		builder = slowBuilder(() => `F${++n}`.slice(-1), 300);
		const before = buildCount;
		const { publish: first } = await publish();
		// Let the first build start, then save twice during it.
		await expect.poll(() => buildCount - before).toBe(1);
		const [second, third] = await Promise.all([publish(), publish()]);
		expect(second.publish.id).toBe(third.publish.id);
		await publisher.idle();

		expect(buildCount - before).toBe(2);
		expect(maxConcurrentBuilds).toBe(1);
		expect(await publishRows()).toEqual([
			expect.objectContaining({
				id: first.id,
				state: 'failed',
				error: `Cancelled: publish ${second.publish.id} supersedes it.`,
			}),
			expect.objectContaining({ id: second.publish.id, state: 'live', error: null }),
		]);
		// The cancelled build never went live: the second did, whole.
		expect((await get('/')).text).toContain('Home of build 2');
	});

	it("refuse another chamber's publish, saying so", async () => {
		const otherSlug = randomSlug('local-pub-other');
		const other = await importTenant(
			service,
			parseTenantFile({ tenant: { slug: otherSlug, name: 'Other' } }, 'fixture'),
		);
		try {
			const { publish: theirs } = await requestPublish({
				client: service,
				tenantId: other.tenant_id,
				reason: 'Content saved',
			});
			await publisher.idle();
			const { rows } = await db.query('select state, error from public.publishes where id = $1', [
				theirs.id,
			]);
			expect(rows[0]).toEqual({ state: 'failed', error: `This local server builds only ${slug}.` });
		} finally {
			await db.query('delete from public.tenants where id = $1', [other.tenant_id]);
		}
	});
});

describe('after the server was killed', () => {
	/** A publish row as a build that died with its server left it. */
	async function leftBehind(state: 'queued' | 'building'): Promise<number> {
		const { rows } = await db.query<{ id: number }>(
			`insert into public.publishes (tenant_id, state, reason, started_at, last_report_at)
			values ($1, $2, 'Content saved', case when $2 = 'building' then now() end, now() - interval '1 minute')
			returning id::int`,
			[tenantId, state],
		);
		return rows[0]!.id;
	}

	it('serves the last live build again, fails the publishes it left, and removes half-built folders', async () => {
		builder = slowBuilder(() => 'G', 0);
		await publish();
		await publisher.idle();
		// A build under way (its folder half written) and a save made during it.
		const building = await leftBehind('building');
		const queued = await leftBehind('queued');
		await mkdir(join(root, 'builds', 'local-half-built', 'dist'), { recursive: true });

		const restarted = newPublisher();
		const recovery = await restarted.recover();
		expect(recovery.live?.distDir).toMatch(/builds\/local-[\w-]+\/dist$/);
		expect(await readFile(join(recovery.live!.distDir, 'index.html'), 'utf8')).toContain(
			'Home of build G',
		);
		expect(recovery.failed.sort()).toEqual([building, queued].sort());
		expect(recovery.unpublishedChanges).toBe(true);
		const rows = await publishRows();
		for (const id of [building, queued]) {
			expect(rows.find((r) => r.id === id)).toMatchObject({ state: 'failed', error: INTERRUPTED });
		}
		expect(await readdir(join(root, 'builds'))).not.toContain('local-half-built');
		await restarted.close();
	});

	it('counts a build that was swapped in before the server died as live', async () => {
		builder = slowBuilder(() => 'H', 0);
		await publish();
		await publisher.idle();
		// Killed between putting the build live and reporting it: live.json names the publish.
		const building = await leftBehind('building');
		const record = JSON.parse(await readFile(join(root, 'builds', 'live.json'), 'utf8'));
		await writeFile(
			join(root, 'builds', 'live.json'),
			JSON.stringify({ ...record, publishId: building }),
		);
		const restarted = newPublisher();
		const recovery = await restarted.recover();
		expect(recovery.failed).toEqual([]);
		expect(recovery.unpublishedChanges).toBe(false);
		expect((await publishRows()).find((r) => r.id === building)).toMatchObject({ state: 'live' });
		await restarted.close();
	});

	it('fails a publish its builder no longer holds when a new one is requested, and builds the new one', async () => {
		const url = new URL(process.env.NETLIFY_BUILD_HOOK_URL!);
		process.env.LOCAL_BUILDS_URL = `${url.origin}${publisher.buildsRoute.path}`;
		try {
			const held = await fetch(process.env.LOCAL_BUILDS_URL);
			expect(await held.json()).toEqual({ publishIds: [] });
			const stale = await leftBehind('building');
			builder = slowBuilder(() => 'J', 0);
			// Without the check it would join nothing and never build: the stale row is building,
			// and the next one would wait behind it until the 15-minute expiry.
			const { publish: next, created } = await publish();
			expect(created).toBe(true);
			await publisher.idle();
			const rows = await publishRows();
			expect(rows.find((r) => r.id === stale)).toMatchObject({
				state: 'failed',
				error: 'The local server has no build for this publish (it was restarted). Publish again.',
			});
			expect(rows.find((r) => r.id === next.id)).toMatchObject({ state: 'live' });
			expect((await get('/')).text).toContain('Home of build J');
		} finally {
			delete process.env.LOCAL_BUILDS_URL;
		}
	});
});
