// Runs on: hosted — the functions' deadline against a paused data API and a held lock, on the
// production shape (PGlite held by one transaction is stack-faults.test.ts's).
import type { Context } from '@netlify/functions';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, service, stack } from './clients.ts';
import businesses from '../../netlify/functions/businesses.ts';
import events from '../../netlify/functions/events.ts';
import {
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';
import { setFunctionEnv } from '../support/function-server.ts';

// No function waits on the data API past its deadline (SUPABASE_TIMEOUT_MS): while PostgREST is
// paused, or a transaction left open holds what a request needs, a read answers 503 with a JSON
// error within the deadline, or its last good answer when it has one, and answers normally once
// the stack is whole again.

let restoreEnv: (() => void) | undefined;
const DEADLINE_MS = 2000;
let fx: DirectoryFixture;

async function list(
	query: string,
): Promise<{ status: number; ms: number; body: unknown; stale: string | null }> {
	const began = performance.now();
	const res = await businesses(
		new Request(`http://localhost/api/businesses?${query}`),
		{} as Context,
	);
	return {
		status: res.status,
		ms: performance.now() - began,
		body: await res.json(),
		stale: res.headers.get('x-stale-since'),
	};
}

async function calendar(): Promise<{
	status: number;
	ms: number;
	body: unknown;
	stale: string | null;
}> {
	const began = performance.now();
	const res = await events(new Request('http://localhost/api/events'), {} as Context);
	return {
		status: res.status,
		ms: performance.now() - began,
		body: await res.json(),
		stale: res.headers.get('x-events-stale-since'),
	};
}

async function health(): Promise<{ ok: boolean; postgrest: { pid: number } }> {
	const res = await fetch(`${stack.supabaseUrl}/_stack/health`);
	return (await res.json()) as { ok: boolean; postgrest: { pid: number } };
}

beforeAll(async () => {
	await db.connect();
	fx = await seedDirectoryTenants(service, { prefix: 'deadline' });
	restoreEnv = setFunctionEnv(stack, {
		tenant: fx.a.slug,
		env: { SUPABASE_TIMEOUT_MS: String(DEADLINE_MS) },
	});
});

afterAll(async () => {
	for (let i = 0; i < 600 && !(await health().catch(() => ({ ok: false }))).ok; i++) {
		await new Promise((r) => setTimeout(r, 100));
	}
	if (fx) await removeDirectoryTenants(db, fx);
	await db.end();
	restoreEnv?.();
});

describe('deadlines', () => {
	it('answers 503 within the deadline while PostgREST is paused, and its last good answer where it has one', async () => {
		const known = await list('searchQuery=Bakery&page=1');
		expect(known.status).toBe(200);
		const knownEvents = await calendar();
		expect(knownEvents.status).toBe(200);
		const { pid } = (await health()).postgrest;
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
		process.kill(pid, 'SIGSTOP');
		try {
			const fresh = await list('searchQuery=Hardware&page=1');
			expect(fresh.status).toBe(503);
			expect(fresh.body).toEqual({
				error: 'The service is busy right now. Please try again in a moment.',
			});
			expect(fresh.ms).toBeLessThan(DEADLINE_MS + 1500);

			const again = await list('searchQuery=Bakery&page=1');
			expect(again.status).toBe(200);
			expect(again.body).toEqual(known.body);
			expect(again.stale).not.toBeNull();
			expect(again.ms).toBeLessThan(DEADLINE_MS + 1500);

			// The events API too, though it reads the configuration first (whether events are on).
			const events = await calendar();
			expect(events).toMatchObject({ status: 200, body: knownEvents.body });
			expect(events.stale).not.toBeNull();
			expect(events.ms).toBeLessThan(DEADLINE_MS + 1500);
		} finally {
			try {
				process.kill(pid, 'SIGCONT');
			} catch {
				// The supervisor may have replaced the paused PostgREST already.
			}
			quiet.mockRestore();
		}
		await expect
			.poll(async () => (await list('searchQuery=Hardware&page=1')).status, { timeout: 30_000 })
			.toBe(200);
	});

	it('answers 503 within the deadline while an idle transaction holds what the read needs', async () => {
		const holder = new pg.Client({ connectionString: stack.databaseUrl });
		holder.on('error', () => {});
		await holder.connect();
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			await holder.query('begin');
			// On PostgreSQL an open transaction stops only those who need its locks; on PGlite it
			// stops everyone.
			await holder.query('lock table public.cache_versions in access exclusive mode');
			const held = await list('category=Restaurants&page=1');
			expect(held.status).toBe(503);
			expect(held.ms).toBeLessThan(DEADLINE_MS + 1500);
		} finally {
			quiet.mockRestore();
			await holder.query('rollback').catch(() => {});
			await holder.end().catch(() => {});
		}
		await expect
			.poll(async () => (await list('category=Restaurants&page=1')).status, { timeout: 30_000 })
			.toBe(200);
	});
});
