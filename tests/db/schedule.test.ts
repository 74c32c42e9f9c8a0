// Runs on: hosted — scheduled publishes are stored and checked in SQL: proved on the production
// shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anon, db, service, stack } from './clients.ts';
import fireScheduled, {
	config as fireConfig,
} from '../../netlify/functions/fire-scheduled-publishes.ts';
import {
	instantToZonedWallTime,
	zonedWallTimeToInstant,
} from '../../src/features/config/time-zone.ts';
import { finishPublish, startPublish } from '../../src/features/publish/publish.server.ts';
import { fireDueSchedules } from '../../src/features/publish/schedule.server.ts';
import { nextScheduleMark, SCHEDULE_STEP_MINUTES } from '../../src/features/publish/schedule.ts';
import type { NetlifyStandin } from '../support/netlify-api-standin.ts';
import { storedConfig, userClient } from '../support/db-clients.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';
import { configVersions, importChamber, type StaffChamber } from './fixtures.ts';

// Scheduled publishing over real HTTP in the local Netlify server: 'Publish at…' stores a save or
// a restore checked as its author, the scheduled function (here called with an injected clock)
// writes what is due in the author's name and publishes it once; Cancel; and what the database
// refuses, whichever way a request comes in.

const DOMAIN = 'schedule.test';
const ZONE = 'America/Los_Angeles';

let site: StaffSite<typeof chamber>;
let netlify: NetlifyStandin;
let chamber: StaffChamber<'admin' | 'second' | 'editor' | 'otherEditor'>;
let slug: string;
let tenantId: string;
let tokens: typeof chamber.tokens;
const email = (key: keyof typeof chamber.emails) => chamber.emails[key];

const call = (method: string, path: string, token?: string, body?: unknown) =>
	site.server.call(path, { method, token, body });

const cancel = (id: number, token: string) =>
	call('DELETE', `/api/publish-schedule?id=${id}`, token);

const config = () => storedConfig(service, { tenant_id: tenantId });

const versions = () => configVersions(service, tenantId);

/** The chamber's configuration row as a restore's snapshot holds it (without its slug). */
async function currentRow(): Promise<Record<string, unknown>> {
	const { rows } = await db.query(
		`select to_jsonb(c) - 'slug' - 'tenant_id' - 'updated_at' as row from public.chamber_config c where tenant_id = $1`,
		[tenantId],
	);
	return rows[0].row;
}

async function scheduledCount(): Promise<number> {
	const { rows } = await db.query(
		'select count(*)::int as n from public.scheduled_publishes where tenant_id = $1',
		[tenantId],
	);
	return rows[0].n;
}

/** A time to come on the chamber's clock (a 5-minute mark at least 10 minutes ahead). */
const soon = () => nextScheduleMark(new Date(), ZONE);

async function heroTitleChange(value: string) {
	return { section: 'content', field: 'heroTitle', value, version: (await versions()).content };
}

beforeAll(async () => {
	// The scheduled function is also called in this process: the server's environment serves it.
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importChamber(stack, service, {
				prefix: 'schedule',
				domain: DOMAIN,
				password: 'schedule-password',
				name: 'Schedule',
				config: { state: 'CA', content: { heroTitle: 'Before' }, contact: { timeZone: ZONE } },
				staff: { admin: 'admin', second: 'admin', editor: 'editor', otherEditor: 'editor' },
			}),
	});
	({ netlify, chambers: chamber } = site);
	({ slug, tenantId, tokens } = chamber);
});

afterAll(() => site?.close());

beforeEach(async () => {
	await db.query('delete from public.scheduled_publishes where tenant_id = $1', [tenantId]);
	await site.reset();
});

describe('Publish at… on a save', () => {
	it('stores the change, which goes live at its time (and not before) in one publish, in its author’s name', async () => {
		const at = soon();
		const answer = await call('POST', '/api/publish-schedule', tokens.admin, {
			at,
			changes: [
				await heroTitleChange('Scheduled title'),
				{ field: 'city', value: 'Lakeside', version: (await versions()).identity },
			],
		});
		expect(answer.status).toBe(201);
		const runAt = zonedWallTimeToInstant(at, ZONE);
		expect(answer.body.scheduled).toMatchObject({
			runAt: expect.any(String),
			kind: 'save',
			state: 'scheduled',
			summary: '2 changes: content.heroTitle, city',
			createdBy: email('admin'),
		});
		expect(new Date(answer.body.scheduled.runAt).getTime()).toBe(runAt.getTime());
		expect(instantToZonedWallTime(answer.body.scheduled.runAt, ZONE)).toBe(at);
		// Stored, not written.
		expect((await config()).content.heroTitle).toBe('Before');
		expect(netlify.buildHooks).toHaveLength(0);

		const status = await call('GET', '/api/publish-status', tokens.editor);
		expect(status.body.scheduled).toEqual([
			expect.objectContaining({ id: answer.body.scheduled.id, state: 'scheduled' }),
		]);

		const early = await fireDueSchedules(tenantId, { now: new Date(runAt.getTime() - 60_000) });
		expect(early).toEqual({ fired: [], publish: null });
		expect((await config()).content.heroTitle).toBe('Before');

		const due = await fireDueSchedules(tenantId, { now: runAt });
		expect(due.fired).toEqual([
			expect.objectContaining({ id: answer.body.scheduled.id, state: 'published' }),
		]);
		expect(due.publish).toMatchObject({ state: expect.stringMatching(/queued|building/) });
		const saved = await config();
		expect([saved.content.heroTitle, saved.city]).toEqual(['Scheduled title', 'Lakeside']);
		expect(netlify.buildHooks).toHaveLength(1);
		expect(netlify.buildHooks[0]!.triggerTitle).toContain(`Scheduled by ${email('admin')}`);
		const { rows } = await db.query(
			`select actor_email, actor_role from public.audit_log
			where tenant_id = $1 and section = 'content' and field = 'heroTitle' order by id desc limit 1`,
			[tenantId],
		);
		expect(rows[0]).toEqual({ actor_email: email('admin'), actor_role: 'admin' });
		const { rows: linked } = await db.query(
			'select publish_id from public.scheduled_publishes where id = $1',
			[answer.body.scheduled.id],
		);
		expect(Number(linked[0].publish_id)).toBe(due.publish!.id);

		// Fired once only.
		expect(await fireDueSchedules(tenantId, { now: new Date(runAt.getTime() + 600_000) })).toEqual({
			fired: [],
			publish: null,
		});
	});

	it('the scheduled function runs every 5 minutes and fires what is due', async () => {
		expect(fireConfig.schedule).toBe(`*/${SCHEDULE_STEP_MINUTES} * * * *`);
		// Stored by the server side, already due.
		await db.query(
			`insert into public.scheduled_publishes (tenant_id, run_at, kind, changes, summary)
			values ($1, now() - interval '1 minute', 'save', $2, 'By the server')`,
			[
				tenantId,
				JSON.stringify([
					{
						column: 'content',
						field: 'footerTagline',
						value: 'From the scheduler',
						version: (await versions()).content,
						path: 'content.footerTagline',
					},
				]),
			],
		);
		const response = await fireScheduled();
		expect(response.status).toBe(204);
		expect((await config()).content.footerTagline).toBe('From the scheduler');
		expect(netlify.buildHooks).toHaveLength(1);
	});

	it('a field someone saved since it was scheduled fails it, naming them; nothing is overwritten', async () => {
		const answer = await call('POST', '/api/publish-schedule', tokens.editor, {
			at: soon(),
			changes: [await heroTitleChange('Editor’s scheduled title')],
		});
		expect(answer.status).toBe(201);
		const now = await call('POST', '/api/update-config', tokens.second, {
			chamber: slug,
			...(await heroTitleChange('Saved meanwhile')),
		});
		expect(now.status).toBe(200);
		netlify.reset();
		const due = await fireDueSchedules(tenantId, { now: new Date(answer.body.scheduled.runAt) });
		expect(due.publish).toBeNull();
		expect(due.fired).toEqual([
			expect.objectContaining({
				state: 'failed',
				error: `Not published: ${email('second')} changed content.heroTitle after it was scheduled. Schedule it again to publish it over their change.`,
			}),
		]);
		expect((await config()).content.heroTitle).toBe('Saved meanwhile');
		expect(netlify.buildHooks).toHaveLength(0);
	});

	it('an author who lost their role: it fails rather than writing with rights they no longer have', async () => {
		const answer = await call('POST', '/api/publish-schedule', tokens.second, {
			at: soon(),
			changes: [{ colors: { primary: '#123456' }, version: (await versions()).colors }],
		});
		expect(answer.status).toBe(201);
		await db.query(`update public.admin_users set role = 'editor' where email = $1`, [
			email('second'),
		]);
		try {
			const due = await fireDueSchedules(tenantId, { now: new Date(answer.body.scheduled.runAt) });
			expect(due.fired).toEqual([
				expect.objectContaining({
					state: 'failed',
					error: `Not published: ${email('second')} no longer has the rights to publish this`,
				}),
			]);
			expect((await config()).colors.primary).not.toBe('#123456');
		} finally {
			await db.query(`update public.admin_users set role = 'admin' where email = $1`, [
				email('second'),
			]);
		}
	});
});

describe('what cannot be scheduled', () => {
	it('a time not on a 5-minute mark, a time gone, a bad change: 400, nothing stored', async () => {
		const change = await heroTitleChange('x');
		const cases: [unknown, RegExp][] = [
			[{ at: '2030-01-01T09:03', changes: [change] }, /5-minute marks/],
			[{ at: 'tomorrow', changes: [change] }, /^at: Expected at, a date and time/],
			[{ at: '2020-01-01T09:00', changes: [change] }, /has passed/],
			[{ at: soon(), changes: [] }, /at least one change/],
			[
				{ at: soon(), changes: [{ section: 'content', field: 'heroTitle', value: 'x' }] },
				/^changes\[0\]: Expected version/,
			],
			[
				{ at: soon(), changes: [{ ...change, value: 'x'.repeat(201) }] },
				/^changes\[0\]: content\.heroTitle: Expected at most 200 characters/,
			],
		];
		for (const [body, message] of cases) {
			const answer = await call('POST', '/api/publish-schedule', tokens.admin, body);
			expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
			expect(answer.body.error).toMatch(message);
		}
		const { rows } = await db.query(
			'select count(*)::int as n from public.scheduled_publishes where tenant_id = $1',
			[tenantId],
		);
		expect(rows[0].n).toBe(0);
	});

	it('what the author may not save now: an editor’s colours (403), a stale version (409)', async () => {
		const colors = await call('POST', '/api/publish-schedule', tokens.editor, {
			at: soon(),
			changes: [{ colors: { primary: '#000000' }, version: (await versions()).colors }],
		});
		expect(colors).toEqual({
			status: 403,
			body: { error: 'Editors can change content and text only, not colors' },
		});
		const stale = (await versions()).content;
		await call('POST', '/api/update-config', tokens.admin, {
			chamber: slug,
			...(await heroTitleChange('Newer')),
		});
		const conflict = await call('POST', '/api/publish-schedule', tokens.editor, {
			at: soon(),
			changes: [{ section: 'content', field: 'heroTitle', value: 'Old view', version: stale }],
		});
		expect(conflict.status).toBe(409);
		expect(conflict.body.conflicts).toEqual([
			expect.objectContaining({
				field: 'content.heroTitle',
				value: 'Newer',
				changedBy: email('admin'),
			}),
		]);
		expect((await config()).content.heroTitle).toBe('Newer');
	});

	it('a staff token writing the table directly meets the same checks', async () => {
		const editor = userClient(stack, tokens.editor);
		const runAt = zonedWallTimeToInstant(soon(), ZONE).toISOString();
		const colors = await editor.from('scheduled_publishes').insert({
			tenant_id: tenantId,
			run_at: runAt,
			kind: 'save',
			changes: [
				{
					column: 'colors',
					field: 'primary',
					value: '#000000',
					version: (await versions()).colors,
				},
			],
		});
		expect(colors.error).toMatchObject({
			code: '42501',
			message: 'Editors can change content and text only, not colors',
		});
		const published = await editor.from('scheduled_publishes').insert({
			tenant_id: tenantId,
			run_at: runAt,
			kind: 'save',
			state: 'published',
			changes: [
				{ column: 'content', field: 'heroTitle', value: 'x', version: (await versions()).content },
			],
		});
		expect(published.error?.message).toMatch(/permission denied/);
		const past = await editor.from('scheduled_publishes').insert({
			tenant_id: tenantId,
			run_at: new Date(Date.now() - 60_000).toISOString(),
			kind: 'save',
			changes: [
				{ column: 'content', field: 'heroTitle', value: 'x', version: (await versions()).content },
			],
		});
		expect(past.error?.message).toBe('A publish is scheduled for a time still to come');
		// Who scheduled it is the token's user, whatever the row says.
		const mine = await editor
			.from('scheduled_publishes')
			.insert({
				tenant_id: tenantId,
				run_at: runAt,
				kind: 'save',
				changes: [
					{
						column: 'content',
						field: 'heroTitle',
						value: 'Mine',
						version: (await versions()).content,
					},
				],
			})
			.select('created_by_email, created_role, state')
			.single();
		expect(mine.data).toEqual({
			created_by_email: email('editor'),
			created_role: 'editor',
			state: 'scheduled',
		});
		expect((await config()).content.heroTitle).not.toBe('Mine');
		expect((await anon.from('scheduled_publishes').select('id')).error?.code).toBe('42501');
	});
});

describe('Cancel', () => {
	it('by its author or an admin, while it waits; it then never goes live', async () => {
		const first = await call('POST', '/api/publish-schedule', tokens.editor, {
			at: soon(),
			changes: [await heroTitleChange('Never')],
		});
		const other = await cancel(first.body.scheduled.id, tokens.otherEditor);
		expect(other).toEqual({
			status: 403,
			body: { error: 'Only its author or an admin can cancel it' },
		});
		const own = await cancel(first.body.scheduled.id, tokens.editor);
		expect(own.body.scheduled).toMatchObject({ state: 'canceled', canceledBy: email('editor') });
		const again = await cancel(first.body.scheduled.id, tokens.admin);
		expect(again).toEqual({ status: 409, body: { error: 'It is canceled already' } });

		const second = await call('POST', '/api/publish-schedule', tokens.editor, {
			at: soon(),
			changes: [await heroTitleChange('Also never')],
		});
		const byAdmin = await cancel(second.body.scheduled.id, tokens.admin);
		expect(byAdmin.body.scheduled).toMatchObject({ state: 'canceled', canceledBy: email('admin') });

		const due = await fireDueSchedules(tenantId, { now: new Date(Date.now() + 3_600_000) });
		expect(due).toEqual({ fired: [], publish: null });
		expect((await config()).content.heroTitle).not.toMatch(/never/i);
		const list = await call('GET', '/api/publish-schedule', tokens.editor);
		expect(list.body.scheduled.map((s: { state: string }) => s.state)).toEqual([
			'canceled',
			'canceled',
		]);
	});
});

describe('Publish at… on a restore', () => {
	it('copies the kept configuration and writes it back at its time', async () => {
		const kept = await call('POST', '/api/publish', tokens.admin, { reason: 'Keep' });
		const id = kept.body.publish.id as number;
		await startPublish(service, id, 'deploy-keep');
		await finishPublish(service, id, { state: 'live' });
		const keptTitle = (await config()).content.heroTitle;
		await call('POST', '/api/update-config', tokens.admin, {
			chamber: slug,
			...(await heroTitleChange('After the kept one')),
		});
		const editor = await call('POST', '/api/publish-restore', tokens.editor, {
			publishId: id,
			at: soon(),
		});
		expect(editor.status).toBe(403);
		const answer = await call('POST', '/api/publish-restore', tokens.admin, {
			publishId: id,
			at: soon(),
		});
		expect(answer.status).toBe(201);
		expect(answer.body.scheduled).toMatchObject({
			kind: 'restore',
			summary: expect.stringMatching(
				/^Restore the configuration published \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
			),
		});
		expect((await config()).content.heroTitle).toBe('After the kept one');
		netlify.reset();
		const due = await fireDueSchedules(tenantId, { now: new Date(answer.body.scheduled.runAt) });
		expect(due.fired).toEqual([expect.objectContaining({ state: 'published' })]);
		expect((await config()).content.heroTitle).toBe(keptTitle);
		// The save's build is still queued: the restore joins it (one build for both).
		expect(due.publish).toMatchObject({ state: 'queued', requests: 2 });
	});

	it('an editor writing a restore into the table directly is refused (403), as the route refuses it', async () => {
		const snapshot = await currentRow();
		const res = await fetch(`${stack.supabaseUrl}/rest/v1/scheduled_publishes`, {
			method: 'POST',
			headers: {
				apikey: stack.anonKey,
				authorization: `Bearer ${tokens.editor}`,
				'content-type': 'application/json',
				prefer: 'return=representation',
			},
			body: JSON.stringify({
				tenant_id: tenantId,
				run_at: zonedWallTimeToInstant(soon(), ZONE).toISOString(),
				kind: 'restore',
				snapshot,
			}),
		});
		expect({ status: res.status, body: await res.json() }).toEqual({
			status: 403,
			body: expect.objectContaining({ code: '42501' }),
		});
		expect(await scheduledCount()).toBe(0);
	});

	it('a restore an editor scheduled before that rule fails when it fires: judged as the editor, now', async () => {
		const before = await config();
		const snapshot = { ...(await currentRow()), colors: { ...before.colors, primary: '#101010' } };
		// Stored as such a row was, with the editor as its author (the insert trigger and policy
		// would now refuse it; the table's owner sets the trigger aside for this one insert).
		await db.query('begin');
		try {
			await db.query(
				'alter table public.scheduled_publishes disable trigger scheduled_publishes_check',
			);
			await db.query(
				`insert into public.scheduled_publishes (tenant_id, run_at, kind, snapshot, summary, created_by, created_by_email, created_role)
				values ($1, now() - interval '1 minute', 'restore', $2, 'Old restore', $3, $4, 'editor')`,
				[tenantId, snapshot, chamber.ids.editor, email('editor')],
			);
			await db.query(
				'alter table public.scheduled_publishes enable trigger scheduled_publishes_check',
			);
			await db.query('commit');
		} catch (error) {
			await db.query('rollback');
			throw error;
		}
		const due = await fireDueSchedules(tenantId);
		expect(due.fired).toEqual([
			expect.objectContaining({
				state: 'failed',
				error: 'Not published: Editors can change content and text only, not colors',
			}),
		]);
		expect(due.publish).toBeNull();
		expect((await config()).colors.primary).toBe(before.colors.primary);
	});

	it('a restore fails when a field it would take back was changed after it was scheduled', async () => {
		const kept = await call('POST', '/api/publish', tokens.admin, { reason: 'Keep colours' });
		const id = kept.body.publish.id as number;
		await startPublish(service, id, 'deploy-keep-colours');
		await finishPublish(service, id, { state: 'live' });
		const answer = await call('POST', '/api/publish-restore', tokens.admin, {
			publishId: id,
			at: soon(),
		});
		expect(answer.status).toBe(201);
		const meanwhile = await call('POST', '/api/update-config', tokens.second, {
			chamber: slug,
			colors: { ...(await config()).colors, primary: '#abcdef' },
			version: (await versions()).colors,
		});
		expect(meanwhile.status).toBe(200);
		netlify.reset();
		const due = await fireDueSchedules(tenantId, { now: new Date(answer.body.scheduled.runAt) });
		expect(due.fired).toEqual([
			expect.objectContaining({
				state: 'failed',
				error: `Not published: ${email('second')} changed colors.primary after it was scheduled. Schedule it again to publish it over their change.`,
			}),
		]);
		expect((await config()).colors.primary).toBe('#abcdef');
		expect(netlify.buildHooks).toHaveLength(0);
	});
});
