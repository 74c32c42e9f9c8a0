// Runs on: hosted — a stored message and its delivery state are SQL: proved on the production
// shape.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import type { Context } from '@netlify/functions';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, service, stack } from './clients.ts';
import contactBusiness from '../../netlify/functions/contact-business.ts';
import { retryContactMessages } from '../../netlify/functions/contact-retry.ts';
import { freePort, signInAs } from '../support/db-clients.ts';
import { setFunctionEnv } from '../support/function-server.ts';
import {
	removeDirectoryTenants,
	seedDirectoryTenants,
	type DirectoryFixture,
} from './directory-fixtures.ts';
import { FIXTURE_PASSWORD, fixtureUser } from './fixtures.ts';

// A stored message is the visitor's success, whatever the mail server does: down, or answering
// nothing at all. The message goes out in the background and again later (contact-retry), each
// exactly once: counted at a real SMTP server (smtp-server) by Message-ID.

let restoreEnv: (() => void) | undefined;
const SMTP_TIMEOUT_MS = 1000;
let fx: DirectoryFixture;
let port: number;
/** Background work the function handed to waitUntil. */
let background: Promise<unknown>[] = [];

interface Received {
	messageId: string;
	text: string;
}

/** A mail server on `port` that takes every message and keeps what it got. */
async function mailServer(received: Received[]): Promise<SMTPServer> {
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		onData(stream, _session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8');
				received.push({
					messageId: /^Message-ID:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '',
					text: raw,
				});
				callback();
			});
		},
	});
	server.listen(port, '127.0.0.1');
	await once(server.server, 'listening');
	return server;
}

async function closeMailServer(server: SMTPServer): Promise<void> {
	await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A server that takes the connection and never says a word (no SMTP greeting). */
async function silentServer(): Promise<{ server: NetServer; sockets: Set<Socket> }> {
	const sockets = new Set<Socket>();
	const server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.listen(port, '127.0.0.1');
	await once(server, 'listening');
	return { server, sockets };
}

async function submit(text: string, ip: string) {
	const began = performance.now();
	const res = await contactBusiness(
		new Request('http://localhost/api/contact-business', {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				origin: 'http://localhost',
				'x-nf-client-connection-ip': ip,
			},
			body: JSON.stringify({
				name: 'Ada Visitor',
				email: 'ada@example.com',
				message: text,
				businessId: fx.ids["Bella's Restaurant"].id,
				businessName: "Bella's Restaurant",
				website: '',
				idempotencyKey: randomUUID(),
			}),
		}),
		{ waitUntil: (work: Promise<unknown>) => void background.push(work) } as unknown as Context,
	);
	return { status: res.status, body: await res.json(), ms: performance.now() - began };
}

async function statuses(prefix: string): Promise<Record<string, number>> {
	const { rows } = await db.query<{ delivery_status: string; n: number }>(
		`select delivery_status, count(*)::int as n from public.contact_messages
		where tenant_id = $1 and message like $2 group by 1`,
		[fx.a.id, `${prefix}%`],
	);
	return Object.fromEntries(rows.map((r) => [r.delivery_status, r.n]));
}

/** Runs the scheduled retry until nothing with this prefix is left to send (at most 20 runs). */
async function retryUntilDelivered(prefix: string): Promise<number> {
	let runs = 0;
	while (runs < 20 && (await statuses(prefix)).failed) {
		await retryContactMessages();
		runs++;
	}
	return runs;
}

beforeAll(async () => {
	await db.connect();
	fx = await seedDirectoryTenants(service, {
		prefix: 'mail',
		config: { services: { emailDomain: 'cedarchamber.example' } },
		users: (slug) => [fixtureUser(slug, 'admin'), fixtureUser(slug, 'editor')],
	});
	port = await freePort();
	restoreEnv = setFunctionEnv(stack, {
		tenant: fx.a.slug,
		env: {
			SMTP_URL: `smtp://127.0.0.1:${port}`,
			SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT_MS),
			// The back-off's first pause (×4 each attempt); none here, so a test runs retries at once.
			CONTACT_RETRY_BASE_SECONDS: '0',
			RECAPTCHA_SECRET: undefined,
		},
	});
});

afterEach(async () => {
	await Promise.allSettled(background);
	background = [];
});

afterAll(async () => {
	if (fx) {
		await db.query('delete from auth.users where email = any($1)', [
			[fixtureUser(fx.a.slug, 'admin').email, fixtureUser(fx.a.slug, 'editor').email],
		]);
		await removeDirectoryTenants(db, fx);
	}
	await db.end();
	restoreEnv?.();
});

describe('contact messages while the mail server fails', () => {
	it('answers success at once when the mail server never answers, and delivers the message later', async () => {
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
		const silent = await silentServer();
		try {
			const answer = await submit('Silent server: a table for six?', '10.78.0.1');
			expect(answer).toMatchObject({ status: 200, body: { success: true } });
			// The visitor does not wait for the mail server.
			expect(answer.ms).toBeLessThan(SMTP_TIMEOUT_MS);
			await Promise.all(background);
			expect(await statuses('Silent server')).toEqual({ failed: 1 });
			const { rows } = await db.query(
				'select delivery_error from public.contact_messages where tenant_id = $1 and message like $2',
				[fx.a.id, 'Silent server%'],
			);
			expect(rows[0].delivery_error).toMatch(/greeting|timeout/i);
		} finally {
			for (const socket of silent.sockets) socket.destroy();
			await new Promise((r) => silent.server.close(r));
			quiet.mockRestore();
		}

		const received: Received[] = [];
		const server = await mailServer(received);
		try {
			expect(await retryUntilDelivered('Silent server')).toBe(1);
			expect(await statuses('Silent server')).toEqual({ sent: 1 });
			expect(received).toHaveLength(1);
			expect(received[0]!.text).toContain('Silent server: a table for six?');
		} finally {
			await closeMailServer(server);
		}
	});

	it('loses none and sends none twice of 100 messages sent while the mail server was down', async () => {
		const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
		const texts = Array.from({ length: 100 }, (_, i) => `Outage message ${i}`);
		try {
			for (let batch = 0; batch < texts.length; batch += 10) {
				const answers = await Promise.all(
					texts.slice(batch, batch + 10).map((text, i) => submit(text, `10.79.${batch}.${i + 1}`)),
				);
				for (const answer of answers) {
					expect(answer).toMatchObject({ status: 200, body: { success: true } });
				}
			}
			await Promise.all(background);
			expect(await statuses('Outage message')).toEqual({ failed: 100 });
		} finally {
			quiet.mockRestore();
		}

		const received: Received[] = [];
		const server = await mailServer(received);
		try {
			await retryUntilDelivered('Outage message');
			expect(await statuses('Outage message')).toEqual({ sent: 100 });
			// Nothing left for a later run to send again.
			expect(await retryContactMessages()).toEqual({ sent: 0, failed: 0 });
		} finally {
			await closeMailServer(server);
		}
		const ids = received.map((r) => r.messageId);
		expect(ids).toHaveLength(100);
		expect(new Set(ids).size).toBe(100);
		for (const text of texts) {
			expect(
				received.filter((r) => r.text.includes(`${text}\n`) || r.text.includes(`${text}\r\n`)),
			).toHaveLength(1);
		}
	});

	it("shows the chamber's admins how many messages are not delivered yet, not its editors", async () => {
		const { default: undelivered } = await import('../../netlify/functions/contact-undelivered.ts');
		const ask = async (email: string) => {
			const token = await signInAs(stack, email, FIXTURE_PASSWORD);
			const res = await undelivered(
				new Request('http://localhost/api/contact-undelivered', {
					headers: { authorization: `Bearer ${token}` },
				}),
				{} as Context,
			);
			return { status: res.status, body: await res.json() };
		};
		const admin = fixtureUser(fx.a.slug, 'admin').email;
		expect(await ask(admin)).toEqual({ status: 200, body: { undelivered: 0, givenUp: 0 } });

		const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			expect((await submit('Counted: still waiting', '10.80.0.1')).status).toBe(200);
			expect((await submit('Counted: given up', '10.80.0.2')).status).toBe(200);
			await Promise.all(background);
		} finally {
			quiet.mockRestore();
		}
		await db.query(
			`update public.contact_messages set attempts = 16 where tenant_id = $1 and message = $2`,
			[fx.a.id, 'Counted: given up'],
		);
		expect(await ask(admin)).toEqual({ status: 200, body: { undelivered: 2, givenUp: 1 } });
		expect((await ask(fixtureUser(fx.a.slug, 'editor').email)).status).toBe(403);
	});
});
