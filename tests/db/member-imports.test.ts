// Runs on: hosted — the dry run and the apply are SQL and the imports bucket's rules are storage
// policies: proved on the production shape.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, service, stack } from './clients.ts';
import { MAPPING_TARGETS } from '../../src/features/members/import/fields.ts';
import { runImportJob } from '../../src/features/members/import/import.server.ts';
import {
	startAtlasMembersStandin,
	type AtlasMembersStandin,
} from '../support/atlas-members-standin.ts';
import { userClient } from '../support/db-clients.ts';
import { standinFetch, standinUrl } from '../support/standin-fetch.ts';
import { useSourceFetch } from '../../src/lib/public-fetch.server.ts';
import type { Answer } from '../support/function-server.ts';
import { importStaffChambers, removeChamberFiles, type StaffChambers } from './fixtures.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// Member imports over real HTTP: files uploaded to the imports bucket with the user's token, the
// functions and the background function in the local Netlify server, the dry run and the apply
// in the real database, a stand-in of the membership system for the sync and of Netlify's API for
// the publish. The membership system's stand-in listens on 127.0.0.1, which the deployed fetch
// refuses: the sync reaches it as atlas-members.test through the tests' fetch (standinFetch,
// installed by code; no variable can do that).

const DOMAIN = 'member-imports.test';

let site: StaffSite<StaffChambers>;
let atlas: AtlasMembersStandin;
let chambers: StaffChambers;
let slug: string;
let tenantId: string;
let otherTenantId: string;
let tokens: StaffChambers['tokens'];
let restoreFetch: (() => void) | undefined;

function call(path: string, token: string, json?: unknown, method?: string): Promise<Answer> {
	return site.server.call(path, { method, token, body: json });
}

async function upload(token: string, name: string, text: string, tenant = tenantId) {
	const path = `${tenant}/${crypto.randomUUID()}-${name}`;
	const { error } = await userClient(stack, token)
		.storage.from('imports')
		.upload(path, new Blob([text], { type: 'text/csv' }), { contentType: 'text/csv' });
	return { path, error };
}

async function job(id: string) {
	const { rows } = await db.query('select * from public.member_imports where id = $1', [id]);
	return rows[0];
}

/** Waits for the background function to bring the import to a state a person acts on. */
async function settled(id: string) {
	for (let i = 0; i < 300; i += 1) {
		const row = await job(id);
		if (['needs_mapping', 'previewed', 'applied', 'failed', 'discarded'].includes(row.state)) {
			return row;
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`Import ${id} did not settle`);
}

/**
 * Waits for an applied import to be collected for the publish window (once the transaction
 * committed): it makes no build of its own.
 */
async function published(id: string) {
	for (let i = 0; i < 300; i += 1) {
		const row = await settled(id);
		if (row.state !== 'applied' || row.live_by !== null) return row;
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`Import ${id} was not published`);
}

async function startImport(text: string, name = 'members.csv') {
	const { path, error } = await upload(tokens.admin, name, text);
	expect(error).toBeNull();
	const answer = await call('/api/member-imports', tokens.admin, {
		chamber: slug,
		path,
		fileName: name,
	});
	expect(answer.status).toBe(202);
	return settled(answer.body.id);
}

async function previewRows(id: string) {
	const { rows } = await db.query(
		'select row_number, action, name, changes, errors from public.member_import_rows where import_id = $1 order by action, row_number',
		[id],
	);
	return rows;
}

async function business(weblinkId: string) {
	const { rows } = await db.query(
		`select p.*, (select jsonb_agg(s.url order by s.position) from public.social_media s where s.profile_id = p.id) as social
		from public.profiles p where tenant_id = $1 and weblink_profile_id = $2`,
		[tenantId, weblinkId],
	);
	return rows[0];
}

beforeAll(async () => {
	const businesses = [
		{
			weblink_profile_id: '101',
			report_name: 'Lakeside Bakery',
			city: 'Lakeside',
			website: 'https://bakery.example',
		},
		{ weblink_profile_id: '102', report_name: 'Harbor Hardware', city: 'Harbor' },
		{ weblink_profile_id: '103', report_name: 'Gone Gifts', city: 'Lakeside' },
	];
	atlas = await startAtlasMembersStandin({ members: [] });
	restoreFetch = useSourceFetch(standinFetch());
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'imp',
				domain: DOMAIN,
				password: 'member-imports-password',
				name: 'Imports',
				businesses,
			}),
		env: {
			ATLAS_MEMBERS_URL: standinUrl(atlas.membersUrl, 'atlas-members.test'),
			ATLAS_TOKEN_URL: standinUrl(atlas.tokenUrl, 'atlas-members.test'),
			ATLAS_CLIENT_ID: atlas.clientId,
			ATLAS_CLIENT_SECRET: atlas.clientSecret,
			ATLAS_MEMBERS_TENANT: atlas.tenant,
		},
	});
	({ chambers } = site);
	({ slug, tenantId, otherTenantId, tokens } = chambers);
	// The scheduled sync starts the background function at the site's own address.
	process.env.URL = site.server.url.replace('localhost', '127.0.0.1');
});

afterAll(async () => {
	restoreFetch?.();
	await atlas?.close();
	if (chambers) await removeChamberFiles(db, 'imports', [tenantId, otherTenantId]);
	await site?.close();
});

beforeEach(() => site.reset());

describe('a file with a bad row', () => {
	it('previews the row, column and message, and nothing is applied', async () => {
		const before = await business('101');
		const csv =
			'Profile ID,Organization Name,Website,Member Since\r\n' +
			'101,Lakeside Bakery,https://new-bakery.example,2019-04-01\r\n' +
			'104,New Florist,,31/31/2020\r\n';
		const row = await startImport(csv);
		expect(row).toMatchObject({ state: 'previewed', rows_total: 2, rows_validated: 2 });
		expect(row.counts).toMatchObject({ invalid: 1, changed: 1 });
		const invalid = (await previewRows(row.id)).find((r) => r.action === 'invalid');
		expect(invalid).toMatchObject({
			row_number: 3,
			errors: [
				{
					column: 'Member Since',
					field: 'member_since_date',
					message: 'Expected a date like 2027-03-15 or 3/15/2027',
				},
			],
		});
		const apply = await call(`/api/member-imports/${row.id}/apply`, tokens.admin, {
			missing: 'keep',
		});
		expect(apply).toEqual({
			status: 400,
			body: { error: 'The file has invalid rows: correct them and import it again' },
		});
		expect((await business('101')).website).toBe(before.website);
		expect(await business('104')).toBeUndefined();
		expect(site.netlify.buildHooks).toHaveLength(0);
	});
});

describe('a good file', () => {
	it('shows added, changed field by field, kept and missing; applies all at once and waits for the window’s publish', async () => {
		const bakery = await business('101');
		// A panel edit: staff changed the bakery's website here.
		const saved = await userClient(stack, tokens.admin).rpc('save_business', {
			p_tenant_id: tenantId,
			p_business_id: bakery.id,
			p_changes: { website: 'https://staff.example' },
			p_version: bakery.version,
		});
		expect(saved.error).toBeNull();
		const csv =
			'\uFEFFProfile ID;Organization Name;Website;City;Facebook\r\n' +
			'101;Lakeside Bakery;https://file.example;"Lakeside\nNorth";\r\n' +
			'102;Harbor Hardware;;Harbor;https://facebook.com/harbor\r\n' +
			'104;New Florist;https://florist.example;Lakeside;\r\n';
		const row = await startImport(csv);
		expect(row.state).toBe('previewed');
		expect(row.counts).toEqual({
			added: 1,
			changed: 2,
			unchanged: 0,
			missing: 1,
			invalid: 0,
			kept: 1,
		});
		const rows = await previewRows(row.id);
		expect(rows.find((r) => r.name === 'Lakeside Bakery').changes).toEqual([
			{ field: 'city', before: 'Lakeside', after: 'Lakeside\nNorth' },
			{
				field: 'website',
				before: 'https://staff.example',
				after: 'https://file.example',
				kept: true,
			},
		]);
		expect(rows.find((r) => r.action === 'missing')).toMatchObject({
			name: 'Gone Gifts',
			row_number: null,
		});
		expect(await business('104')).toBeUndefined();

		const apply = await call(`/api/member-imports/${row.id}/apply`, tokens.admin, {
			missing: 'unpublish',
		});
		expect(apply.status).toBe(202);
		const applied = await published(row.id);
		expect(applied).toMatchObject({
			state: 'applied',
			rows_applied: 3,
			missing_action: 'unpublish',
		});
		expect(applied.counts.unpublished).toBe(1);
		expect(await business('101')).toMatchObject({
			website: 'https://staff.example',
			city: 'Lakeside\nNorth',
		});
		expect((await business('102')).social).toEqual(['https://facebook.com/harbor']);
		expect(await business('104')).toMatchObject({ report_name: 'New Florist', published: true });
		expect((await business('103')).published).toBe(false);
		// No build of its own: it waits for the chamber's publish window, with members' changes.
		expect(site.netlify.buildHooks).toHaveLength(0);
		expect(applied.publish_id).toBeNull();
		const { rows: waiting } = await db.query(
			`select source, summary, due_at from public.waiting_changes where tenant_id = $1 and source = 'import' and state = 'waiting'`,
			[tenantId],
		);
		expect(waiting).toEqual([
			{
				source: 'import',
				summary: `Member import by ${chambers.emails.admin}: 4 businesses`,
				due_at: new Date(applied.live_by),
			},
		]);
		const { rows: files } = await db.query(
			`select 1 from storage.objects where bucket_id = 'imports' and name = $1`,
			[applied.storage_path],
		);
		expect(files).toHaveLength(0);
	});

	it('refuses to apply a preview when a business changed meanwhile, writing nothing', async () => {
		const row = await startImport('Profile ID,City\r\n102,Harbor East\r\n');
		const harbor = await business('102');
		await userClient(stack, tokens.admin).rpc('save_business', {
			p_tenant_id: tenantId,
			p_business_id: harbor.id,
			p_changes: { county: 'Shore' },
			p_version: harbor.version,
		});
		await call(`/api/member-imports/${row.id}/apply`, tokens.admin, { missing: 'keep' });
		const failed = await settled(row.id);
		expect(failed.state).toBe('failed');
		expect(failed.error).toMatch(/^The directory changed since the preview \(Harbor Hardware/);
		expect((await business('102')).city).toBe('Harbor');
	});
});

describe('headings nobody knows', () => {
	it('asks a person to map them, saves the mapping for the chamber and uses it next time', async () => {
		const csv = 'Profile ID,Shop Motto\r\n102,Nails and more\r\n';
		const row = await startImport(csv);
		expect(row.state).toBe('needs_mapping');
		expect(row.headers).toEqual([
			{ header: 'Profile ID', samples: ['102'], field: 'weblink_profile_id' },
			{ header: 'Shop Motto', samples: ['Nails and more'], field: null },
		]);
		const wrong = await call(`/api/member-imports/${row.id}/mapping`, tokens.admin, {
			mapping: { 'Shop Motto': 'favourite_colour' },
		});
		expect(wrong).toEqual({
			status: 400,
			body: { error: 'Not a field a column can fill: favourite_colour' },
		});
		const answer = await call(`/api/member-imports/${row.id}/mapping`, tokens.admin, {
			mapping: { 'Shop Motto': 'short_description' },
		});
		expect(answer.status).toBe(202);
		const mapped = await settled(row.id);
		expect(mapped.state).toBe('previewed');
		expect(mapped.counts.changed).toBe(1);
		const again = await startImport('Profile ID,Shop Motto\r\n102,Screws too\r\n');
		expect(again.state).toBe('previewed');
		expect(again.mapping).toEqual({
			'Profile ID': 'weblink_profile_id',
			'Shop Motto': 'short_description',
		});
		await call(`/api/member-imports/${again.id}/discard`, tokens.admin, {});
		expect((await job(again.id)).state).toBe('discarded');
	});

	it('the database knows the same fields as the app', async () => {
		const { rows } = await db.query('select public.member_import_targets() as targets');
		expect(rows[0].targets).toEqual([...MAPPING_TARGETS]);
	});
});

describe('who may import', () => {
	it('an editor may neither upload nor start an import', async () => {
		const { error } = await upload(tokens.editor, 'x.csv', 'Profile ID\n1\n');
		expect(error?.message).toMatch(/row-level security/);
		const { path } = await upload(tokens.admin, 'x.csv', 'Profile ID\n1\n');
		const answer = await call('/api/member-imports', tokens.editor, { chamber: slug, path });
		expect(answer).toEqual({ status: 403, body: { error: 'Your role does not allow this.' } });
	});

	it("another chamber's admin can neither upload into nor import from this chamber's folder", async () => {
		const { error } = await upload(tokens.otherAdmin, 'x.csv', 'Profile ID\n1\n');
		expect(error?.message).toMatch(/row-level security/);
		const { path } = await upload(tokens.admin, 'x.csv', 'Profile ID\n1\n');
		const viaOwn = await userClient(stack, tokens.otherAdmin).rpc('create_member_import', {
			p_tenant_id: otherTenantId,
			p_kind: 'file',
			p_source: 'x.csv',
			p_storage_path: path,
		});
		expect(viaOwn.error?.message).toBe(
			"The file must be uploaded to the chamber's folder of the imports bucket",
		);
		const direct = await userClient(stack, tokens.otherAdmin).rpc('create_member_import', {
			p_tenant_id: tenantId,
			p_kind: 'file',
			p_source: 'x.csv',
			p_storage_path: path,
		});
		expect(direct.error?.code).toBe('42501');
		const { rows: open } = await db.query(
			`select id from public.member_imports where tenant_id = $1 order by created_at desc limit 1`,
			[tenantId],
		);
		const preview = (token: string) =>
			userClient(stack, token).rpc('member_import_preview', {
				p_import_id: open[0].id,
				p_kind: 'change',
			});
		expect((await preview(tokens.admin)).error).toBeNull();
		expect((await preview(tokens.otherAdmin)).error?.message).toBe('No such import');
		expect((await preview(tokens.editor)).error?.message).toBe('No such import');
		const { data } = await userClient(stack, tokens.otherAdmin)
			.from('member_imports')
			.select('id')
			.eq('tenant_id', tenantId);
		expect(data).toEqual([]);
		const files = await userClient(stack, tokens.otherAdmin).storage.from('imports').download(path);
		expect(files.data).toBeNull();
	});

	it("a path that leaves the chamber's folder is refused: the other chamber's file never enters its preview", async () => {
		const { path, error } = await upload(
			tokens.otherAdmin,
			'members.csv',
			'Profile ID,City\r\n901,Secret\r\n',
			otherTenantId,
		);
		expect(error).toBeNull();
		const escape = `${tenantId}/../${path}`;
		const answer = await call('/api/member-imports', tokens.admin, { chamber: slug, path: escape });
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatch(/^path: /);
		const direct = await userClient(stack, tokens.admin).rpc('create_member_import', {
			p_tenant_id: tenantId,
			p_kind: 'file',
			p_source: 'x.csv',
			p_storage_path: escape,
		});
		expect(direct.error?.message).toBe(
			"The file must be uploaded to the chamber's folder of the imports bucket",
		);
		// Not even the server side records such a path.
		const stored = await service
			.from('member_imports')
			.insert({ tenant_id: tenantId, kind: 'file', source: 'x.csv', storage_path: escape });
		expect(stored.error?.code).toBe('23514');
		const { rows } = await db.query(
			`select count(*)::int as n from public.member_import_rows where tenant_id = $1 and weblink_profile_id = '901'`,
			[tenantId],
		);
		expect(rows[0].n).toBe(0);
	});

	it('an admin who lost the role before the background function ran: nothing is read or applied', async () => {
		const second = userClient(stack, tokens.second);
		const demote = (role: string) =>
			db.query('update public.admin_users set role = $2 where user_id = $1', [
				chambers.ids.second,
				role,
			]);
		const { path } = await upload(
			tokens.second,
			'members.csv',
			'Profile ID,City\r\n102,Demoted\r\n',
		);
		const queued = await second.rpc('create_member_import', {
			p_tenant_id: tenantId,
			p_kind: 'file',
			p_source: 'members.csv',
			p_storage_path: path,
		});
		expect(queued.error).toBeNull();
		await demote('editor');
		try {
			await runImportJob(service, queued.data!);
			expect(await job(queued.data!)).toMatchObject({
				state: 'failed',
				error: `${chambers.emails.second} may no longer import members of this chamber: nothing was read.`,
				rows_read: 0,
			});
		} finally {
			await demote('admin');
		}

		// The same at the apply: judged as the person who asked for it, when it runs.
		const row = await startImport('Profile ID,City\r\n102,Demoted\r\n');
		expect(row.state).toBe('previewed');
		const asked = await second.rpc('request_member_import_apply', {
			p_import_id: row.id,
			p_missing: 'keep',
		});
		expect(asked.error).toBeNull();
		await demote('editor');
		try {
			await runImportJob(service, row.id);
			expect(await job(row.id)).toMatchObject({
				state: 'failed',
				error: `${chambers.emails.second} may no longer import members of this chamber: nothing was applied.`,
			});
			expect((await business('102')).city).not.toBe('Demoted');
		} finally {
			await demote('admin');
		}
	});

	it('answers bad bodies with the field', async () => {
		expect(await call('/api/member-imports', tokens.admin, { path: 'x' })).toEqual({
			status: 400,
			body: { error: 'chamber: chamber is required' },
		});
		const missing = await call(`/api/member-imports/${crypto.randomUUID()}/apply`, tokens.admin, {
			missing: 'delete',
		});
		expect(missing).toEqual({
			status: 400,
			body: { error: 'missing: missing must be keep or unpublish' },
		});
		const unknown = await call(`/api/member-imports/${crypto.randomUUID()}/apply`, tokens.admin, {
			missing: 'keep',
		});
		expect(unknown).toEqual({ status: 404, body: { error: 'No such import' } });
		expect((await call('/api/member-imports', '', { chamber: slug, path: 'x' })).status).toBe(401);
	});

	it('answers 409 while another import of the chamber works, and for an action its state refuses', async () => {
		const { rows } = await db.query(
			`insert into public.member_imports (tenant_id, kind, source, state) values ($1, 'file', 'busy.csv', 'applying') returning id`,
			[tenantId],
		);
		try {
			const { path } = await upload(tokens.admin, 'x.csv', 'Profile ID\n1\n');
			expect(await call('/api/member-imports', tokens.admin, { chamber: slug, path })).toEqual({
				status: 409,
				body: { error: 'Another import of this chamber is under way; wait for it to finish' },
			});
			expect(
				await call(`/api/member-imports/${rows[0].id}/mapping`, tokens.admin, { mapping: {} }),
			).toEqual({
				status: 409,
				body: { error: 'This import is not waiting for its columns to be mapped' },
			});
		} finally {
			await db.query('delete from public.member_imports where id = $1', [rows[0].id]);
		}
	});
});

describe('the sync from the membership system', () => {
	it('"Sync now" reads the export with the client credentials and previews it like a file', async () => {
		atlas.members = [
			{
				weblink_profile_id: '101',
				report_name: 'Lakeside Bakery',
				website: 'https://atlas.example',
				city: 'Lakeside',
			},
			{ weblink_profile_id: '102', report_name: 'Harbor Hardware', city: 'Harbor' },
			{ weblink_profile_id: '104', report_name: 'New Florist', city: 'Lakeside' },
			{ weblink_profile_id: '105', report_name: 'Atlas Cafe', city: 'Harbor' },
		];
		const status = await call(`/api/member-sync?chamber=${slug}`, tokens.admin);
		expect(status).toEqual({
			status: 200,
			body: { configured: true, schedule: '@daily', missing: 'unpublish' },
		});
		const answer = await call('/api/member-sync', tokens.admin, { chamber: slug });
		expect(answer.status).toBe(202);
		const row = await settled(answer.body.id);
		expect(row).toMatchObject({ state: 'previewed', kind: 'sync' });
		expect(row.counts).toMatchObject({ added: 1, kept: 1 });
		const token = atlas.requests.find((r) => r.path === '/connect/token');
		expect(new URLSearchParams(token?.body).get('grant_type')).toBe('client_credentials');
		expect(atlas.requests.find((r) => r.path === '/members/export')).toMatchObject({
			authorization: expect.stringMatching(/^Bearer /),
			tenant: atlas.tenant,
		});
		await call(`/api/member-imports/${row.id}/discard`, tokens.admin, {});
	});

	it('the scheduled sync applies itself, keeps the panel edit, and keeps 20 runs', async () => {
		atlas.format = 'csv';
		const scheduled = (await import('../../netlify/functions/member-sync-scheduled.ts')).default;
		const answer = await scheduled(
			new Request('http://localhost/.netlify/functions/member-sync-scheduled'),
		);
		expect(answer.status).toBe(202);
		const { rows } = await db.query(
			`select id from public.member_imports where tenant_id = $1 and kind = 'sync' order by created_at desc limit 1`,
			[tenantId],
		);
		const run = await published(rows[0].id);
		expect(run).toMatchObject({ state: 'applied', auto_apply: true, missing_action: 'unpublish' });
		expect(await business('105')).toMatchObject({ report_name: 'Atlas Cafe', updated_by: 'sync' });
		expect((await business('101')).website).toBe('https://staff.example');
		expect(site.netlify.buildHooks).toHaveLength(0);
		expect(run.live_by).not.toBeNull();

		for (let i = 0; i < 21; i += 1) {
			await db.query(
				`insert into public.member_imports (tenant_id, kind, source, state) values ($1, 'sync', 'old', 'applied')`,
				[tenantId],
			);
		}
		const { rows: kept } = await db.query(
			`select count(*)::int as n from public.member_imports where tenant_id = $1 and kind = 'sync'`,
			[tenantId],
		);
		expect(kept[0].n).toBe(20);
	});

	it('a refused credential ends the run with a message for the panel', async () => {
		process.env.ATLAS_CLIENT_SECRET = 'wrong';
		try {
			const answer = await call('/api/member-sync', tokens.admin, { chamber: slug });
			const row = await settled(answer.body.id);
			expect(row).toMatchObject({
				state: 'failed',
				error:
					'The membership system refused the client id and secret (ATLAS_CLIENT_ID, ATLAS_CLIENT_SECRET).',
			});
		} finally {
			process.env.ATLAS_CLIENT_SECRET = atlas.clientSecret;
		}
	});
});

describe('what the sync reads', () => {
	const NOT_PUBLIC =
		'Its address, or an address it redirected to, is not a public internet address.';

	async function syncOutcome() {
		const answer = await call('/api/member-sync', tokens.admin, { chamber: slug });
		expect(answer.status).toBe(202);
		return settled(answer.body.id);
	}

	it('refuses the membership system on this machine, as deployed', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		restoreFetch?.();
		process.env.ATLAS_MEMBERS_URL = atlas.membersUrl;
		process.env.ATLAS_TOKEN_URL = atlas.tokenUrl;
		const before = atlas.requests.length;
		try {
			expect(await syncOutcome()).toMatchObject({
				state: 'failed',
				error: `The membership system's sign-in could not be reached. ${NOT_PUBLIC}`,
			});
			expect(atlas.requests.length).toBe(before);
			expect(warn.mock.calls.map((c) => String(c[0]))).toContain(
				`[member-sync] ${atlas.tokenUrl}: 127.0.0.1 is not a public address`,
			);
		} finally {
			process.env.ATLAS_MEMBERS_URL = standinUrl(atlas.membersUrl, 'atlas-members.test');
			process.env.ATLAS_TOKEN_URL = standinUrl(atlas.tokenUrl, 'atlas-members.test');
			restoreFetch = useSourceFetch(standinFetch());
			warn.mockRestore();
		}
	});

	it('refuses redirects to loopback and private addresses, reaching none of them', async () => {
		const internal = createServer((_req, res) =>
			res.end('Profile ID,Organization Name\r\n1,X\r\n'),
		);
		const reached: string[] = [];
		internal.on('request', (req) => reached.push(req.url ?? ''));
		await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
		const port = (internal.address() as AddressInfo).port;
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		try {
			for (const [location, reason] of [
				[`http://127.0.0.2:${port}/export`, '127.0.0.2 is not a public address'],
				[`http://127.0.0.1:${port}/export`, '127.0.0.1 is not a public address'],
				[`http://localhost:${port}/export`, /localhost resolves to (127\.0\.0\.1|::1), which/],
				[`http://[::1]:${port}/export`, '::1 is not a public address'],
				['http://10.1.2.3/export', '10.1.2.3 is not a public address'],
				['http://192.168.1.1/export', '192.168.1.1 is not a public address'],
				['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address'],
			] as const) {
				atlas.redirect = location;
				warn.mockClear();
				expect(await syncOutcome(), location).toMatchObject({
					state: 'failed',
					error: `The membership system could not be reached. ${NOT_PUBLIC}`,
				});
				expect(String(warn.mock.calls[0]?.[0]), location).toMatch(reason);
			}
			expect(reached).toEqual([]);
		} finally {
			atlas.redirect = null;
			warn.mockRestore();
			internal.close();
		}
	});

	it('stops reading an export larger than 50 MB while it streams', async () => {
		atlas.format = 'csv';
		atlas.streamBytes = 60 * 1024 * 1024;
		try {
			expect(await syncOutcome()).toMatchObject({
				state: 'failed',
				error: "The membership system's export is larger than 50 MB, the most one import reads.",
			});
		} finally {
			atlas.streamBytes = null;
		}
	});
});

describe('npm run tenant:import -- --dry-run', () => {
	it('prints the same summary and each change, and writes nothing', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'dry-run-'));
		try {
			const file = join(dir, 'chamber.json');
			await writeFile(
				file,
				JSON.stringify({
					tenant: { slug, name: `Imports ${slug}` },
					businesses: [
						{ weblink_profile_id: 102, report_name: 'Harbor Hardware', city: 'Harbor Town' },
						{ weblink_profile_id: '777', report_name: 'Dry Run Diner' },
					],
				}),
			);
			const before = await business('102');
			const { stdout } = await promisify(execFile)(
				process.execPath,
				['scripts/tenant-import.ts', file, '--dry-run'],
				{
					env: {
						...process.env,
						CHAMBER_DATA_DIR: stack.dataDir,
						CHAMBER_STACK_PORT: stack.stackPort,
					},
				},
			);
			expect(stdout).toMatch(
				new RegExp(
					`chamber\\.json \\(tenant "${slug}"\\): 1 business to add, \\d+ to change, \\d+ unchanged, \\d+ missing from the file, 0 invalid rows`,
				),
			);
			expect(stdout).toContain('  add: Dry Run Diner (#777)');
			expect(stdout).toContain('  change Harbor Hardware (#102): City: Harbor → Harbor Town');
			expect(await business('777')).toBeUndefined();
			expect((await business('102')).version).toBe(before.version);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});
