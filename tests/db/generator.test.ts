// Runs on: hosted — 'Create chamber' and tenant:import import and refuse in SQL (import_tenant):
// proved on the production shape.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, service, stack } from './clients.ts';
import { buildTenantFile, emptyForm, setField } from '../../src/features/generator/generator.ts';
import { createChamber } from '../../src/features/generator/generator.server.ts';
import { HttpError } from '../../src/lib/http.server.ts';
import { randomSlug } from './fixtures.ts';

// The generator's tenant file against the real import: the file it downloads goes through
// `npm run tenant:import` unchanged, and 'Create chamber' imports a new chamber (never over an
// existing one) whose first admin has no password until the reset e-mail sets one.

const run = promisify(execFile);
const created: string[] = [];

function generatedFile(slug: string, adminEmail: string) {
	let form = emptyForm();
	for (const [path, value] of [
		['name', `Generated Chamber ${slug}`],
		['slug', slug],
		['city', 'Lakeside'],
		['state', 'MN'],
		['contact.address', '1 Harbor Road'],
		['contact.phone', '(218) 555-0100'],
		['contact.email', 'info@lakeside.example'],
		['urls.mainWebsite', 'https://www.lakeside.example'],
		['colors.primary', '#225588'],
		['adminEmail', adminEmail],
	] as const) {
		form = setField(form, path, value);
	}
	const file = buildTenantFile(form);
	if (!file.ok) throw new Error(file.message);
	return file;
}

beforeAll(async () => {
	// What a function instance has in its environment.
	Object.assign(process.env, {
		SUPABASE_URL: stack.supabaseUrl,
		SUPABASE_ANON_KEY: stack.anonKey,
		SUPABASE_SERVICE_ROLE_KEY: stack.serviceKey,
	});
	await db.connect();
});

afterAll(async () => {
	await db.query('delete from public.tenants where slug = any($1)', [created]);
	await db.query(`delete from auth.users where email like '%@generated.test'`);
	await db.end();
});

describe('the downloaded tenant file', () => {
	it('is imported by `npm run tenant:import` as it is', async () => {
		const slug = randomSlug('gen-file');
		created.push(slug);
		const file = generatedFile(slug, `first-${slug}@generated.test`);
		const dir = await mkdtemp(join(tmpdir(), 'chamber-generator-'));
		const path = join(dir, `${slug}.json`);
		await writeFile(path, file.json);
		const { stdout } = await run(process.execPath, ['scripts/tenant-import.ts', path], {
			env: { ...process.env, CHAMBER_DATA_DIR: stack.dataDir, CHAMBER_STACK_PORT: stack.stackPort },
		});
		expect(stdout).toContain(`as tenant "${slug}": 0 businesses, 0 events, 1 users`);
		expect(stdout).toContain(`first-${slug}@generated.test has no password yet: sent the e-mail`);
		const { rows } = await db.query(
			`select c.name, c.colors ->> 'primary' as primary, au.role, u.email_confirmed_at is not null as confirmed
			from public.chamber_config c
			join public.tenants t on t.id = c.tenant_id
			join public.admin_users au on au.tenant_id = t.id
			join auth.users u on u.id = au.user_id
			where t.slug = $1`,
			[slug],
		);
		expect(rows).toEqual([
			{
				name: `Generated Chamber ${slug}`,
				primary: '#225588',
				role: 'admin',
				confirmed: true,
			},
		]);
	});
});

describe("'Create chamber'", () => {
	it('imports a new chamber and names its panel', async () => {
		const slug = randomSlug('gen-create');
		created.push(slug);
		const result = await createChamber(
			service,
			generatedFile(slug, `boss-${slug}@generated.test`).file,
			'http://localhost:8888',
		);
		expect(result).toMatchObject({
			slug,
			name: `Generated Chamber ${slug}`,
			panelUrl: `/chamber-config-v2?chamber=${slug}`,
		});
		expect([...result.invited, ...result.notInvited]).toEqual([`boss-${slug}@generated.test`]);
		const { rows } = await db.query(
			'select city, state from public.chamber_config where tenant_id = $1',
			[result.tenantId],
		);
		expect(rows).toEqual([{ city: 'Lakeside', state: 'MN' }]);
	});

	it('never imports over an existing chamber: 409, nothing changed', async () => {
		const slug = randomSlug('gen-twice');
		created.push(slug);
		await createChamber(service, generatedFile(slug, `a-${slug}@generated.test`).file, 'http://x');
		const again = generatedFile(slug, `b-${slug}@generated.test`).file;
		const error = await createChamber(service, again, 'http://x').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(HttpError);
		expect(error).toMatchObject({
			status: 409,
			message: `A chamber with the slug "${slug}" already exists.`,
		});
		const users = await db.query(
			`select email from public.admin_users where tenant_id = (select id from tenants where slug = $1)`,
			[slug],
		);
		expect(users.rows).toEqual([{ email: `a-${slug}@generated.test` }]);
	});

	it("refuses an administrator of another chamber with the database's reason", async () => {
		const first = randomSlug('gen-owner');
		const second = randomSlug('gen-thief');
		created.push(first, second);
		await createChamber(
			service,
			generatedFile(first, `shared-${first}@generated.test`).file,
			'http://x',
		);
		const error = await createChamber(
			service,
			generatedFile(second, `shared-${first}@generated.test`).file,
			'http://x',
		).catch((e: unknown) => e);
		expect(error).toMatchObject({ status: 409 });
		expect((error as Error).message).toContain('belong to another chamber');
		const { rowCount } = await db.query('select 1 from public.tenants where slug = $1', [second]);
		expect(rowCount).toBe(0);
	});

	it('answers a file the import refuses with 400 and its JSON path', async () => {
		const error = await createChamber(
			service,
			{ tenant: { slug: 'Bad Slug', name: 'X' } },
			'http://x',
		).catch((e: unknown) => e);
		expect(error).toMatchObject({ status: 400 });
		expect((error as Error).message).toMatch(/^tenant file: tenant\.slug: /);
	});
});
