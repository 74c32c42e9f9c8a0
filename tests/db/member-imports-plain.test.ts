// Runs on: hosted — the numbering, the rows to confirm and the refusals are SQL: proved on the
// production shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import { userClient } from '../support/db-clients.ts';
import type { Answer } from '../support/function-server.ts';
import { importStaffChambers, removeChamberFiles, type StaffChambers } from './fixtures.ts';
import type { PreviewCandidate } from '../../src/features/members/import/import.ts';
import { startStaffSite, type StaffSite } from './staff-site.ts';

// The member list a small chamber keeps (no membership-system id) imported through the real
// pipeline: uploaded with the admin's token, read and matched by the background function in the
// local Netlify server, confirmed and applied in the database.

const DOMAIN = 'member-imports-plain.test';

let site: StaffSite<StaffChambers>;
let chambers: StaffChambers;
let slug: string;
let tenantId: string;
let tokens: StaffChambers['tokens'];

function call(path: string, token: string, json?: unknown): Promise<Answer> {
	return site.server.call(path, { token, body: json });
}

async function job(id: string) {
	const { rows } = await db.query('select * from public.member_imports where id = $1', [id]);
	return rows[0];
}

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

async function startImport(text: string, name = 'members.csv') {
	const path = `${tenantId}/${crypto.randomUUID()}-${name}`;
	const { error } = await userClient(stack, tokens.admin)
		.storage.from('imports')
		.upload(path, new Blob([text], { type: 'text/csv' }), { contentType: 'text/csv' });
	expect(error).toBeNull();
	const answer = await call('/api/member-imports', tokens.admin, {
		chamber: slug,
		path,
		fileName: name,
	});
	expect(answer.status).toBe(202);
	return settled(answer.body.id);
}

async function applyImport(id: string) {
	const answer = await call(`/api/member-imports/${id}/apply`, tokens.admin, { missing: 'keep' });
	expect(answer.status).toBe(202);
	const done = await settled(id);
	expect(done).toMatchObject({ state: 'applied', error: null });
	return done;
}

async function rows(id: string) {
	const { rows: found } = await db.query(
		`select id, row_number, action, name, weblink_profile_id, matched_on, changes, candidates, choice
		from public.member_import_rows where import_id = $1 order by row_number nulls last, id`,
		[id],
	);
	return found;
}

async function business(name: string) {
	const { rows: found } = await db.query(
		'select * from public.profiles where tenant_id = $1 and report_name = $2 order by city',
		[tenantId, name],
	);
	return found;
}

beforeAll(async () => {
	site = await startStaffSite({
		domain: DOMAIN,
		chambers: () =>
			importStaffChambers(stack, service, {
				prefix: 'plain',
				domain: DOMAIN,
				password: 'member-imports-plain-password',
				name: 'Plain imports',
				businesses: [
					{
						weblink_profile_id: '301',
						report_name: 'Lakeside Bakery',
						city: 'Lakeside',
						website: 'https://www.bakery.example',
						work_phone: '555-0100',
					},
					{
						weblink_profile_id: '302',
						report_name: 'Harbor Hardware, Inc.',
						city: 'Harbor',
						email: 'hardware@harbor.example',
						work_phone: '555-0101',
					},
					{ weblink_profile_id: '303', report_name: 'Subway', city: 'North Bay' },
					{ weblink_profile_id: '304', report_name: 'Subway', city: 'South Bay' },
					{ weblink_profile_id: '305', report_name: 'Marina Yoga Studio', city: 'Harbor' },
				],
			}),
	});
	({ chambers } = site);
	({ slug, tenantId, tokens } = chambers);
});

afterAll(async () => {
	if (chambers) await removeChamberFiles(db, 'imports', [tenantId, chambers.otherTenantId]);
	await site?.close();
});

beforeEach(() => site.reset());

describe('a spreadsheet with Business, Phone, Email, Website, Category and no id', () => {
	const csv =
		'Business,Phone,Email,Website,Category\r\n' +
		'Lakeside Bakery LLC,555-0100,,bakery.example,Food\r\n' +
		'HARBOR HARDWARE,555-0111,Hardware@Harbor.example,,Hardware\r\n' +
		'New Florist,555-0120,hello@florist.example,https://florist.example,Flowers\r\n' +
		'Corner Books & Co.,555-0130,,,Books\r\n';

	it('maps by itself, matches by website and e-mail, adds two with the chamber’s numbers; a second import changes nothing and keeps a staff change', async () => {
		const first = await startImport(csv);
		expect(first.state).toBe('previewed');
		expect(first.mapping).toEqual({
			Business: 'report_name',
			Phone: 'work_phone',
			Email: 'email',
			Website: 'website',
			Category: 'categories',
		});
		expect(first.counts).toMatchObject({
			added: 2,
			changed: 2,
			missing: 3,
			invalid: 0,
			matched: { website: 1, email: 1 },
		});
		const previewed = await rows(first.id);
		expect(
			previewed
				.filter((r) => r.row_number !== null)
				.map((r) => [r.row_number, r.action, r.name, r.matched_on]),
		).toEqual([
			[2, 'change', 'Lakeside Bakery LLC', 'website'],
			[3, 'change', 'HARBOR HARDWARE', 'email'],
			[4, 'add', 'New Florist', null],
			[5, 'add', 'Corner Books & Co.', null],
		]);
		expect(
			previewed
				.filter((r) => r.action === 'missing')
				.map((r) => r.name)
				.sort(),
		).toEqual(['Marina Yoga Studio', 'Subway', 'Subway']);
		// Nothing is written before the apply.
		expect(await business('New Florist')).toEqual([]);

		await applyImport(first.id);
		const [florist] = await business('New Florist');
		const [books] = await business('Corner Books & Co.');
		expect([florist.weblink_profile_id, books.weblink_profile_id]).toEqual([
			'chamber-1',
			'chamber-2',
		]);
		expect((await business('HARBOR HARDWARE'))[0]).toMatchObject({
			weblink_profile_id: '302',
			work_phone: '555-0111',
		});

		const second = await startImport(csv);
		expect(second.counts).toMatchObject({
			added: 0,
			changed: 0,
			unchanged: 4,
			kept: 0,
			matched: { website: 1, email: 2, name: 1 },
		});

		// Staff change the florist's phone here; the next import keeps it.
		const saved = await userClient(stack, tokens.admin).rpc('save_business', {
			p_tenant_id: tenantId,
			p_business_id: florist.id,
			p_changes: { work_phone: '555-9999' },
			p_version: florist.version,
		});
		expect(saved.error).toBeNull();
		const third = await startImport(csv);
		expect(third.counts).toMatchObject({ added: 0, changed: 0, unchanged: 4, kept: 1 });
		const florists = (await rows(third.id)).filter((r) => r.name === 'New Florist');
		expect(florists).toMatchObject([
			{
				action: 'unchanged',
				matched_on: 'email',
				weblink_profile_id: 'chamber-1',
				changes: [{ field: 'work_phone', before: '555-9999', after: '555-0120', kept: true }],
			},
		]);
		await applyImport(third.id);
		expect((await business('New Florist'))[0]).toMatchObject({
			work_phone: '555-9999',
			weblink_profile_id: 'chamber-1',
		});
		const { rows: numbers } = await db.query(
			'select last_number from public.business_numbers where tenant_id = $1',
			[tenantId],
		);
		expect(numbers).toEqual([{ last_number: '2' }]);
	});
});

describe('a name two businesses have, or one only like it', () => {
	it('asks to confirm each, refuses to apply until each is decided, then applies the choices', async () => {
		const [north, south] = await business('Subway');
		const csv =
			'Business,Phone\r\n' +
			'Subway,555-0200\r\n' +
			'SUBWAY,555-0201\r\n' +
			'Marina Yoga,555-0202\r\n';
		const preview = await startImport(csv);
		expect(preview.state).toBe('previewed');
		expect(preview.counts).toMatchObject({ confirm: 3, added: 0, changed: 0 });

		// What the panel reads: each row's choices, without the records to write.
		const listed = await userClient(stack, tokens.admin).rpc('member_import_preview', {
			p_import_id: preview.id,
			p_kind: 'confirm',
		});
		expect(listed.error).toBeNull();
		const [first, second, yoga] = listed.data!.map((row) => ({
			...row,
			candidates: row.candidates as unknown as PreviewCandidate[],
		}));
		expect(first!.candidates.map((c) => c.choice)).toEqual([north.id, south.id, 'new']);
		expect(first!.candidates[0]).toMatchObject({ name: 'Subway', city: 'North Bay', on: 'name' });
		expect(first!.candidates[0]).not.toHaveProperty('record');
		expect(yoga!.candidates[0]).toMatchObject({
			name: 'Marina Yoga Studio',
			on: 'similar_name',
		});

		// Nothing is applied while a row is to confirm: not by the request, not by the apply.
		const early = await call(`/api/member-imports/${preview.id}/apply`, tokens.admin, {
			missing: 'keep',
		});
		expect(early).toEqual({
			status: 409,
			body: {
				error: 'Some rows are still to confirm: choose a business for each, or skip it, first',
			},
		});
		await db.query(`update public.member_imports set state = 'applying' where id = $1`, [
			preview.id,
		]);
		const forced = await service.rpc('apply_member_import', { p_import_id: preview.id });
		expect(forced.error?.message).toBe('Some rows are still to confirm: nothing was applied.');
		await db.query(`update public.member_imports set state = 'previewed' where id = $1`, [
			preview.id,
		]);

		// Only the chamber's admins decide.
		const asEditor = await userClient(stack, tokens.editor).rpc('confirm_member_import_row', {
			p_import_id: preview.id,
			p_row_id: first!.id,
			p_choice: south.id,
		});
		expect(asEditor.error?.message).toBe('No such import');

		const admin = userClient(stack, tokens.admin);
		const confirm = (row: { id: number }, choice: string) =>
			admin.rpc('confirm_member_import_row', {
				p_import_id: preview.id,
				p_row_id: row.id,
				p_choice: choice,
			});
		expect((await confirm(first!, south.id)).error).toBeNull();
		// A business another row took cannot be chosen again.
		const twice = await confirm(second!, south.id);
		expect(twice.error?.message).toBe(
			'Row 2 of the file already matches Subway: choose another business, a new one, or skip this row',
		);
		expect((await confirm(second!, 'somebody else')).error?.message).toBe(
			"Not one of the row's choices: somebody else",
		);
		expect((await confirm(second!, north.id)).error).toBeNull();
		const last = await confirm(yoga!, 'skip');
		expect(last.error).toBeNull();
		expect(last.data).toMatchObject({ confirm: 0, changed: 2, skipped: 1, added: 0 });
		expect(
			(await rows(preview.id))
				.filter((r) => r.row_number !== null)
				.map((r) => [r.row_number, r.action, r.choice]),
		).toEqual([
			[2, 'change', south.id],
			[3, 'change', north.id],
			[4, 'skipped', 'skip'],
		]);

		await applyImport(preview.id);
		const { rows: subways } = await db.query(
			'select report_name, city, work_phone from public.profiles where id = any($1) order by city',
			[[north.id, south.id]],
		);
		expect(subways).toEqual([
			{ report_name: 'SUBWAY', city: 'North Bay', work_phone: '555-0201' },
			{ report_name: 'Subway', city: 'South Bay', work_phone: '555-0200' },
		]);
		expect((await business('Marina Yoga Studio'))[0].work_phone).not.toBe('555-0202');
	});
});
