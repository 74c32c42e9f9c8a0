// Runs on: both — PostgREST's supervision on both; PGlite's restart and the end of an idle
// transaction on PGlite; the API roles' timeouts on Postgres.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { db, stack } from './clients.ts';

// The stack's parts fail and come back without anyone restarting the stack: PostgREST and the
// embedded database are supervised, /_stack/health says what answers, and a transaction left
// idle is ended. These tests kill and hold the suite's own stack's processes; each one waits
// until the stack is whole again before it ends.

interface Health {
	ok: boolean;
	database: { ok: boolean; pid?: number; restarts?: number };
	postgrest: { ok: boolean; pid?: number; restarts: number };
}

async function health(): Promise<{ status: number; body: Health }> {
	const res = await fetch(`${stack.supabaseUrl}/_stack/health`, {
		signal: AbortSignal.timeout(10_000),
	});
	return { status: res.status, body: (await res.json()) as Health };
}

/** One read through the gateway as a visitor; 0 when no answer came within the time. */
async function read(timeoutMs = 3000): Promise<number> {
	try {
		const res = await fetch(`${stack.supabaseUrl}/rest/v1/tenants?select=id&limit=1`, {
			headers: { apikey: stack.anonKey },
			signal: AbortSignal.timeout(timeoutMs),
		});
		await res.body?.cancel();
		return res.status;
	} catch {
		return 0;
	}
}

/** When (performance.now()) a read first answers 200, trying again after each failure. */
async function readableAt(giveUpMs: number): Promise<number> {
	const began = performance.now();
	while (performance.now() - began < giveUpMs) {
		const left = Math.round(giveUpMs - (performance.now() - began));
		if ((await read(Math.max(100, left))) === 200) {
			return performance.now();
		}
		await new Promise((r) => setTimeout(r, 50));
	}
	return Infinity;
}

/** The identity service's and the file service's answers to a call that reads the database. */
async function services(): Promise<number[]> {
	const headers = { apikey: stack.serviceKey, authorization: `Bearer ${stack.serviceKey}` };
	return Promise.all(
		['/auth/v1/admin/users?per_page=1', '/storage/v1/bucket'].map(async (path) => {
			const res = await fetch(`${stack.supabaseUrl}${path}`, {
				headers,
				signal: AbortSignal.timeout(10_000),
			}).catch(() => null);
			await res?.body?.cancel();
			return res?.status ?? 0;
		}),
	);
}

async function whole(): Promise<Health> {
	await expect.poll(async () => (await health()).status, { timeout: 60_000 }).toBe(200);
	return (await health()).body;
}

// The next test file gets a whole stack.
afterAll(async () => {
	for (let i = 0; i < 600 && (await health()).status !== 200; i++) {
		await new Promise((r) => setTimeout(r, 100));
	}
});

describe('supervision', () => {
	it('restarts PostgREST when it is killed: reads answer again within 5 s, health tells the truth meanwhile', async () => {
		const before = await whole();
		expect(before.postgrest.pid).toEqual(expect.any(Number));
		process.kill(before.postgrest.pid!, 'SIGKILL');
		const killedAt = performance.now();
		const during = await health();
		expect(during.status).toBe(503);
		expect(during.body).toMatchObject({ ok: false, postgrest: { ok: false } });

		expect((await readableAt(15_000)) - killedAt).toBeLessThanOrEqual(5000);
		const after = await whole();
		expect(after.postgrest.pid).not.toBe(before.postgrest.pid);
		expect(after.postgrest.restarts).toBe(before.postgrest.restarts + 1);
	});

	if (stack.mode === 'embedded') {
		it('restarts the embedded database when its process dies, with its data', async () => {
			const before = await whole();
			expect(before.database.pid).toEqual(expect.any(Number));
			// The identity and file services keep idle connections: losing them must not end the stack.
			expect(await services()).toEqual([200, 200]);
			const tenants = await (
				await fetch(`${stack.supabaseUrl}/rest/v1/tenants?select=id`, {
					headers: { apikey: stack.serviceKey },
				})
			).json();
			process.kill(before.database.pid!, 'SIGKILL');
			const killedAt = performance.now();
			expect((await health()).body.database.ok).toBe(false);

			// PGlite replays its write-ahead log on the way up: longer than PostgREST.
			expect((await readableAt(30_000)) - killedAt).toBeLessThan(30_000);
			const after = await whole();
			expect(after.database.pid).not.toBe(before.database.pid);
			expect(after.database.restarts).toBe((before.database.restarts ?? 0) + 1);
			const again = await (
				await fetch(`${stack.supabaseUrl}/rest/v1/tenants?select=id`, {
					headers: { apikey: stack.serviceKey },
				})
			).json();
			expect(again).toEqual(tenants);
			await expect.poll(services, { timeout: 30_000 }).toEqual([200, 200]);
		});

		it('ends a connection that holds the database idle in a transaction, and the others go on', async () => {
			await whole();
			const idle = new pg.Client({ connectionString: stack.databaseUrl });
			const ended = new Promise<Error>((resolve) => idle.on('error', resolve));
			await idle.connect();
			await idle.query('begin');
			await idle.query('select 1');
			const began = performance.now();
			// PGlite is one session: while the transaction is open nobody else gets an answer.
			expect(await read(1000)).toBe(0);
			const error = await ended;
			const after = performance.now() - began;
			expect(error).toMatchObject({ code: '25P03' });
			// DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, 10 s by default.
			expect(after).toBeGreaterThan(8000);
			expect(after).toBeLessThan(20_000);
			expect(await read(5000)).toBe(200);
			await idle.end().catch(() => {});
		});
	} else {
		it('has the database end statements and idle transactions of the API roles', async () => {
			await db.connect();
			try {
				const { rows } = await db.query<{ rolname: string; rolconfig: string[] }>(
					`select rolname, rolconfig from pg_roles
					where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname`,
				);
				const settings = Object.fromEntries(rows.map((r) => [r.rolname, r.rolconfig ?? []]));
				expect(settings.anon).toEqual(
					expect.arrayContaining([
						'statement_timeout=3s',
						'idle_in_transaction_session_timeout=60s',
					]),
				);
				expect(settings.authenticated).toEqual(
					expect.arrayContaining([
						'statement_timeout=8s',
						'idle_in_transaction_session_timeout=60s',
					]),
				);
				expect(settings.service_role).toEqual(
					expect.arrayContaining([
						'statement_timeout=5min',
						'idle_in_transaction_session_timeout=60s',
					]),
				);
				expect(settings.authenticator).toEqual(
					expect.arrayContaining(['idle_in_transaction_session_timeout=60s']),
				);
			} finally {
				await db.end();
			}
		});
	}
});
