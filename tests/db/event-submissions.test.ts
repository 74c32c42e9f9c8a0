// Runs on: hosted — who reads and decides a submission, its limits and what approval publishes are decided in SQL: proved on the production shape.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import type { Event } from '../../src/features/events/events.ts';
import { SUBMISSION_TEXTS } from '../../src/features/chamber-events/submission-limits.ts';
import type { Answer, CallOptions } from '../support/function-server.ts';
import { anon, db, service, stack } from './clients.ts';
import { importStaffChambers, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// 'Submit an event' and its review over real HTTP: a visitor (or a member signed in by their
// link) submits through /api/event-submissions, as the dialog on /community-events does; nothing
// of it is on the calendars until staff approve it in /api/admin/event-submissions (as submitted,
// or edited), and the submitter is e-mailed either way through the outbox.

const DOMAIN = 'event-submissions.test';

let site: StaffSite<StaffChambers>;
let tokens: StaffChambers['tokens'];
let outbox: string;
let siteverify: Server;
let siteverifyUrl: string;
let memberToken: string;
let memberId: string;
let memberEmail: string;
let nextAddress = 10;

/** Each test's own visitor address (127.0.0.x), so the network limits start afresh. */
const visitor = () => `127.0.0.${nextAddress++}`;

beforeAll(async () => {
	siteverify = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const form = new URLSearchParams(body);
			const good = form.get('secret') === 'test-secret' && form.get('response') === 'good';
			res
				.writeHead(200, { 'content-type': 'application/json' })
				.end(
					JSON.stringify(
						good
							? { success: true, score: 0.9, action: 'submit', hostname: 'localhost' }
							: { success: false, 'error-codes': ['invalid-input-response'] },
					),
				);
		});
	});
	await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
	siteverifyUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}`;
	outbox = await mkdtemp(join(tmpdir(), 'chamber-submissions-outbox-'));
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'event-submissions',
				domain: DOMAIN,
				password: 'event-submissions-password',
				name: 'Submissions Chamber',
			}),
		env: { OUTBOX_DIR: outbox, RECAPTCHA_SECRET: undefined, SMTP_URL: undefined },
	});
	({ tokens } = site.chambers);
	memberEmail = `member-${randomUUID()}@${DOMAIN}`;
	const created = await service.auth.admin.createUser({
		email: memberEmail,
		password: 'event-submissions-member',
		email_confirm: true,
	});
	if (created.error) throw created.error;
	memberId = created.data.user.id;
	memberToken = await linkSession(memberEmail);
});

afterAll(async () => {
	if (memberId) await db.query('delete from auth.users where id = $1', [memberId]);
	await site?.close();
	siteverify?.close();
	await rm(outbox, { recursive: true, force: true });
});

beforeEach(async () => {
	await db.query('delete from public.event_submissions where tenant_id = $1', [
		site.chambers.tenantId,
	]);
});

afterEach(() => {
	delete process.env.RECAPTCHA_SECRET;
	delete process.env.RECAPTCHA_VERIFY_URL;
});

/**
 * A member's session begun with an e-mailed sign-in link (GoTrue's magic link, read from the
 * stack's outbox and followed), as a member of a business has one: a password's does not count.
 */
async function linkSession(email: string): Promise<string> {
	const { error } = await anon.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
	if (error) throw error;
	const stackOutbox = join(stack.dataDir, 'outbox');
	const file = await vi.waitFor(async () => {
		const files = (await readdir(stackOutbox)).filter((f) => f.includes(email)).sort();
		expect(files.length).toBeGreaterThan(0);
		return files.at(-1)!;
	});
	const mail = await simpleParser(await readFile(join(stackOutbox, file)));
	const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0];
	const followed = await fetch(link, { redirect: 'manual' });
	const fragment = new URLSearchParams(
		new URL(followed.headers.get('location') ?? 'http://x').hash.slice(1),
	);
	return fragment.get('access_token')!;
}

/** 'yyyy-mm-dd' `days` from today in Chicago (the chamber's state has no zone: Eastern). */
function dayFromToday(days: number): string {
	return format(new TZDate(Date.now() + days * 86_400_000, 'America/New_York'), 'yyyy-MM-dd');
}

function submission(name: string, overrides: Record<string, unknown> = {}) {
	const day = dayFromToday(12);
	return {
		submitterName: 'Dana Rivers',
		submitterEmail: 'dana@example.org',
		event: {
			name,
			description: 'Books for every age.\n\nAll proceeds go to the library.',
			starts_local: `${day}T10:00`,
			ends_local: `${day}T14:00`,
			venue: 'Cedar Falls Public Library',
			address1: '524 Main St',
			city: 'Cedar Falls',
			...overrides,
		},
	};
}

/** A POST from this site's page, as the dialog sends it. */
function submit(body: unknown, options: CallOptions = {}): Promise<Answer> {
	return site.server.call('/api/event-submissions', {
		method: 'POST',
		body,
		from: options.from ?? visitor(),
		...options,
		headers: { origin: site.server.url, ...options.headers },
	});
}

const staff = (method: string, path: string, token: string | undefined, body?: unknown) =>
	site.server.call(path, { method, token, body });

async function community(): Promise<Event[]> {
	const answer = await site.server.call(
		`/api/community-events?startDate=${dayFromToday(-1)}&endDate=${dayFromToday(60)}`,
	);
	expect(answer.status).toBe(200);
	return answer.body.Result as Event[];
}

async function stored(name: string) {
	const { rows } = await db.query<{
		id: string;
		status: string;
		submitter_email: string;
		member_user_id: string | null;
		event: Record<string, unknown>;
	}>(
		`select id, status, submitter_email, member_user_id, event from public.event_submissions
		where tenant_id = $1 and event ->> 'name' = $2`,
		[site.chambers.tenantId, name],
	);
	return rows;
}

async function mails(tag: string) {
	const files = (await readdir(outbox)).filter((f) => f.includes(tag)).sort();
	return Promise.all(files.map(async (f) => simpleParser(await readFile(join(outbox, f)))));
}

describe('submitting an event (POST /api/event-submissions)', () => {
	it('stores it for review, on the chamber’s clock, and nothing of it is public', async () => {
		const answer = await submit(submission('Used Book Sale'));
		expect(answer).toMatchObject({ status: 201, body: { success: true } });
		const [row] = await stored('Used Book Sale');
		expect(row).toMatchObject({
			status: 'pending',
			submitter_email: 'dana@example.org',
			member_user_id: null,
			event: { time_zone: 'America/New_York', starts_local: `${dayFromToday(12)}T10:00` },
		});
		expect((await community()).map((e) => e.EventName)).not.toContain('Used Book Sale');
	});

	it('refuses what is not valid, from another site or not JSON; a filled hidden field stores nothing', async () => {
		expect(await submit(submission(''))).toMatchObject({
			status: 400,
			body: { success: false, error: 'Title is required' },
		});
		expect(
			await submit(submission('Backwards', { ends_local: `${dayFromToday(11)}T09:00` })),
		).toMatchObject({ status: 400, body: { error: 'End: before the start' } });
		expect(
			await submit(submission('Scripted', { registration_url: 'javascript:alert(1)' })),
		).toMatchObject({ status: 400 });
		expect(
			await submit(submission('Cross site'), { headers: { origin: 'https://evil.example' } }),
		).toMatchObject({
			status: 403,
			body: { error: 'Events can only be submitted from this site' },
		});
		expect(
			await site.server.call('/api/event-submissions', {
				method: 'POST',
				raw: 'name=x',
				headers: { origin: site.server.url, 'content-type': 'text/plain' },
			}),
		).toMatchObject({ status: 415 });
		expect(await submit({ ...submission('Bot'), website: 'http://spam.example' })).toMatchObject({
			status: 200,
			body: { success: true },
		});
		expect(await stored('Bot')).toEqual([]);
		expect(await stored('Cross site')).toEqual([]);
	});

	it('holds a network to 5 an hour, and an address to 3 waiting (the database’s limit)', async () => {
		const from = visitor();
		for (let i = 0; i < 3; i++) {
			expect((await submit(submission(`Fair ${i}`), { from })).status).toBe(201);
		}
		expect(await submit(submission('Fair 3'), { from: visitor() })).toMatchObject({
			status: 429,
			body: { error: expect.stringMatching(/^Three events of yours are waiting/) },
		});
		// Another address from the same network: the network's limit.
		for (let i = 0; i < 2; i++) {
			const other = submission(`Market ${i}`);
			other.submitterEmail = `market${i}@example.org`;
			expect((await submit(other, { from })).status).toBe(201);
		}
		const sixth = submission('Market 2');
		sixth.submitterEmail = 'market2@example.org';
		expect(await submit(sixth, { from })).toMatchObject({
			status: 429,
			body: { error: SUBMISSION_TEXTS.tooMany },
		});
	});

	it('asks reCAPTCHA of a visitor, not of a member signed in by their link', async () => {
		try {
			process.env.RECAPTCHA_SECRET = 'test-secret';
			process.env.RECAPTCHA_VERIFY_URL = `${siteverifyUrl}/recaptcha/api/siteverify`;
			const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
			expect(await submit({ ...submission('Forged'), recaptchaToken: 'forged' })).toMatchObject({
				status: 403,
				body: { error: SUBMISSION_TEXTS.recaptcha },
			});
			warn.mockRestore();
			expect((await submit({ ...submission('Verified'), recaptchaToken: 'good' })).status).toBe(
				201,
			);
			// The member: their token instead of a token of reCAPTCHA's, their own address.
			const asMember = await submit(
				{ ...submission('Member Open House'), submitterEmail: 'someone-else@example.org' },
				{ token: memberToken },
			);
			expect(asMember.status).toBe(201);
			expect((await stored('Member Open House'))[0]).toMatchObject({
				submitter_email: memberEmail,
				member_user_id: memberId,
			});
		} finally {
			delete process.env.RECAPTCHA_SECRET;
		}
	});
});

describe('reviewing submissions (/api/admin/event-submissions)', () => {
	it('approves as edited: a published community event at once, and the submitter is e-mailed', async () => {
		await submit(submission('Street Fair'));
		const queue = await staff('GET', '/api/admin/event-submissions', tokens.editor);
		expect(queue.status).toBe(200);
		expect(queue.body).toMatchObject({ pending: 1 });
		const [item] = queue.body.submissions as { id: string; event: { name: string } }[];
		expect(item!.event.name).toBe('Street Fair');

		const approved = await staff(
			'POST',
			`/api/admin/event-submissions/${item!.id}/approve`,
			tokens.editor,
			{ changes: { name: 'Main Street Fair', venue: 'Main Street' }, note: 'We named the street.' },
		);
		expect(approved.status, JSON.stringify(approved.body)).toBe(200);
		expect(approved.body).toMatchObject({ status: 'approved', name: 'Main Street Fair' });
		const eventId = approved.body.eventId as number;
		const onCalendar = (await community()).find((e) => e.EventId === eventId);
		expect(onCalendar).toMatchObject({ EventName: 'Main Street Fair', Venue: 'Main Street' });
		const detail = await site.server.call(`/api/event-details?eventId=${eventId}`);
		expect(detail.body).toMatchObject({
			EventName: 'Main Street Fair',
			Descr: '<p>Books for every age.</p><p>All proceeds go to the library.</p>',
			StartTime: '10:00 AM',
		});
		// In the tab: a community event that came from a submission.
		const list = await staff('GET', '/api/admin/events?source=submission', tokens.editor);
		expect(list.body.events).toMatchObject([
			{ name: 'Main Street Fair', calendar: 'community', source: 'submission' },
		]);

		await vi.waitFor(async () => expect(await mails('event-submission-approved')).toHaveLength(1));
		const [mail] = await mails('event-submission-approved');
		expect(mail!.subject).toMatch(/^Your event is on the .* calendar: Main Street Fair$/);
		expect(mail!.text).toContain(`/events/${eventId}/main-street-fair`);
		expect(mail!.text).toContain('We named the street.');
		expect((mail!.to as { text: string }).text).toContain('dana@example.org');

		// Decided already: 409.
		expect(
			(await staff('POST', `/api/admin/event-submissions/${item!.id}/approve`, tokens.admin, {}))
				.status,
		).toBe(409);
	});

	it('declines with a note: nothing public, the submitter told why', async () => {
		await submit(submission('Garage Sale'));
		const [row] = await stored('Garage Sale');
		const declined = await staff(
			'POST',
			`/api/admin/event-submissions/${row!.id}/decline`,
			tokens.admin,
			{ note: 'Private sales are not on the community calendar.' },
		);
		expect(declined).toMatchObject({ status: 200, body: { status: 'declined' } });
		expect((await community()).map((e) => e.EventName)).not.toContain('Garage Sale');
		await vi.waitFor(async () => expect(await mails(`declined-${row!.id}`)).toHaveLength(1));
		const [mail] = await mails(`declined-${row!.id}`);
		expect(mail!.text).toContain('Private sales are not on the community calendar.');
		const decided = await staff(
			'GET',
			'/api/admin/event-submissions?status=declined',
			tokens.admin,
		);
		expect(decided.body.submissions).toMatchObject([
			{ id: row!.id, note: 'Private sales are not on the community calendar.' },
		]);
	});

	it('refuses other chambers’ staff, members and visitors', async () => {
		await submit(submission('Quilt Show'));
		const [row] = await stored('Quilt Show');
		expect((await staff('GET', '/api/admin/event-submissions', undefined)).status).toBe(401);
		expect((await staff('GET', '/api/admin/event-submissions', memberToken)).status).toBe(403);
		expect((await staff('GET', '/api/admin/event-submissions', tokens.otherAdmin)).status).toBe(
			403,
		);
		const theirs = await staff(
			'POST',
			`/api/admin/event-submissions/${row!.id}/approve?chamber=${site.chambers.otherSlug}`,
			tokens.otherAdmin,
			{},
		);
		expect([403, 404]).toContain(theirs.status);
		expect((await stored('Quilt Show'))[0]!.status).toBe('pending');
	});
});
