import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScheduledFunctions, startScheduler, type Scheduler } from './scheduler.ts';

// npm start runs netlify/functions' scheduled functions on their schedules: found by their
// config.schedule alone, so a function added later runs too.

let scheduler: Scheduler | undefined;
let dir: string | undefined;

afterEach(async () => {
	scheduler?.stop();
	scheduler = undefined;
	if (dir) await rm(dir, { recursive: true, force: true });
	dir = undefined;
});

describe('loadScheduledFunctions', () => {
	it(
		"finds the project's scheduled functions by their config.schedule",
		{ timeout: 60_000 },
		async () => {
			const found = await loadScheduledFunctions(
				join(import.meta.dirname, '../../netlify/functions'),
			);
			expect(found.map((f) => [f.name, f.schedule])).toContainEqual([
				'contact-retry',
				'*/5 * * * *',
			]);
			// Functions with a path are the server's, not the scheduler's.
			expect(found.map((f) => f.name)).not.toContain('contact-business');
		},
	);

	it('finds a function added later, and refuses a schedule Netlify would not take', async () => {
		dir = await mkdtemp(join(tmpdir(), 'chamber-scheduled-'));
		await writeFile(
			join(dir, 'nightly-sync.mjs'),
			"export const config = { schedule: '@daily' };\nexport default async () => new Response(null, { status: 204 });\n",
		);
		await writeFile(
			join(dir, 'page.mjs'),
			"export const config = { path: '/api/page' };\nexport default async () => new Response('x');\n",
		);
		expect((await loadScheduledFunctions(dir)).map((f) => [f.name, f.schedule])).toEqual([
			['nightly-sync', '@daily'],
		]);
		await writeFile(
			join(dir, 'broken.mjs'),
			"export const config = { schedule: 'every day' };\nexport default async () => new Response(null);\n",
		);
		await expect(loadScheduledFunctions(dir)).rejects.toThrow(
			/broken\.mjs: config\.schedule "every day" is not a cron expression/,
		);
	});
});

// These run on the wall clock, seconds at a time (croner's own timers): room for a busy machine.
describe('startScheduler', { timeout: 30_000 }, () => {
	it('runs each function on its schedule with the request Netlify sends, never two runs at once', async () => {
		const requests: { method: string; body: unknown }[] = [];
		let active = 0;
		let mostAtOnce = 0;
		const lines: string[] = [];
		scheduler = startScheduler(
			[
				{
					name: 'slow-every-second',
					schedule: '* * * * * *',
					handler: async (req) => {
						active++;
						mostAtOnce = Math.max(mostAtOnce, active);
						requests.push({ method: req.method, body: await req.json() });
						// Longer than the schedule's interval: the next runs must wait.
						await new Promise((r) => setTimeout(r, 1500));
						active--;
						return new Response(null, { status: 204 });
					},
				},
			],
			{ mode: '6-part', log: (line) => lines.push(line) },
		);
		expect(scheduler.jobs()).toEqual([
			{ name: 'slow-every-second', schedule: '* * * * * *', nextRun: expect.any(Date) },
		]);
		await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
		expect(mostAtOnce).toBe(1);
		expect(requests[0]).toEqual({
			method: 'POST',
			body: { next_run: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
		});
		expect(lines).toContainEqual(expect.stringMatching(/^slow-every-second: 204 in \d+ ms$/));
		expect(lines).toContainEqual(
			'slow-every-second: the last run is still going, this one is skipped',
		);
	});

	it('runs one on demand, and logs a failure without stopping the schedule', async () => {
		const lines: string[] = [];
		scheduler = startScheduler(
			[
				{
					name: 'failing',
					schedule: '@yearly',
					handler: async () => {
						throw new Error('mail server down');
					},
				},
			],
			{ log: (line) => lines.push(line) },
		);
		expect((await scheduler.run('failing')).status).toBe(500);
		expect(lines).toEqual([
			expect.stringMatching(/^failing: failed after \d+ ms: mail server down$/),
		]);
		expect(scheduler.jobs()[0]?.nextRun).toBeInstanceOf(Date);
		await expect(scheduler.run('unknown')).rejects.toThrow('No scheduled function unknown');
	});

	it('runs none by the clock when its runs are on request, and each one asked for', async () => {
		const ran: string[] = [];
		scheduler = startScheduler(
			[
				{
					name: 'every-second',
					schedule: '* * * * * *',
					handler: async (req) => {
						ran.push(req.headers.get('user-agent') ?? '');
						return new Response(null, { status: 204 });
					},
				},
			],
			{ mode: '6-part', runs: 'on-request', log: () => {} },
		);
		expect(scheduler.jobs()).toEqual([
			{ name: 'every-second', schedule: '* * * * * *', nextRun: null },
		]);
		expect((await scheduler.run('every-second')).status).toBe(204);
		expect(ran).toEqual(['Netlify Clockwork']);
		// Two of the schedule's seconds go by: on the clock it would have run twice more.
		await new Promise((resolve) => setTimeout(resolve, 2100));
		expect(ran).toHaveLength(1);
	});
});
