import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { loadOrCreateKeys } from '../../scripts/stack/keys.ts';
import { getTenantBySlug, importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile, type UserRole } from '../../src/features/tenants/tenant-file.ts';

/** Shared by the admin-portal specs: the e2e stack as a server-side script sees it. */

export const DATA_DIR = process.env.E2E_DATA_DIR || '.data-test/e2e';
export const STACK_URL = `http://127.0.0.1:${process.env.E2E_STACK_PORT || 56321}`;
export const DEMO_PASSWORD = 'demo-password';

let service: SupabaseClient | undefined;

/** The stack's service-role client (its keys are in the e2e data folder). */
export async function serviceClient(): Promise<SupabaseClient> {
	if (!service) {
		const keys = await loadOrCreateKeys(DATA_DIR);
		service = createClient(STACK_URL, keys.serviceKey, { auth: { persistSession: false } });
	}
	return service;
}

/**
 * Runs SQL on the e2e stack's database as its owner (the address is in the stack's state file):
 * for what only a hand edit in the database can do, such as a value its own checks refuse.
 */
export async function withDatabase<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
	const state = JSON.parse(await readFile(join(DATA_DIR, 'stack.json'), 'utf8')) as {
		databaseUrl: string;
	};
	const db = new pg.Client({ connectionString: state.databaseUrl });
	await db.connect();
	try {
		return await fn(db);
	} finally {
		await db.end();
	}
}

/** A user of a chamber that no other test signs in with, so a test may change its password. */
/**
 * Rewrites one section (a column of its chamber_config row) of the demo chamber's configuration
 * with the service key, as a hand edit in the database would, and returns what it was, so a test
 * can put it back. No build follows: publish or rebuild where the site must show it.
 */
export async function changeDemoConfig<T extends Record<string, unknown>>(
	section: string,
	change: (current: T) => T,
): Promise<T> {
	const service = await serviceClient();
	const tenant = await getTenantBySlug(service, 'demo');
	const { data, error } = await service
		.from('chamber_config')
		.select(section)
		.eq('tenant_id', tenant.id)
		.single<Record<string, T>>();
	if (error) throw new Error(`Failed to read the demo's ${section}: ${error.message}`);
	const current = data[section]!;
	const update = await service
		.from('chamber_config')
		.update({ [section]: change(current) })
		.eq('tenant_id', tenant.id);
	if (update.error)
		throw new Error(`Failed to write the demo's ${section}: ${update.error.message}`);
	return current;
}

export async function createUser(
	slug: string,
	role: UserRole,
	password = DEMO_PASSWORD,
): Promise<string> {
	const email = `${role.replace('_', '-')}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.test`;
	const client = await serviceClient();
	// The import upserts the tenant too: its name must stay as it is.
	const { data, error } = await client.from('tenants').select('name').eq('slug', slug).single();
	if (error) throw new Error(`No tenant ${slug}: ${error.message}`);
	await importTenant(
		client,
		parseTenantFile(
			{ tenant: { slug, name: data.name }, users: [{ email, password, role }] },
			'e2e user',
		),
		{ only: ['users'], allowSuperAdmin: role === 'super_admin' },
	);
	return email;
}

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
	await page.getByLabel('Email').fill(email);
	await page.getByLabel('Password', { exact: true }).fill(password);
	await page.getByRole('button', { name: 'Sign In' }).click();
}

/** The link of the newest reset e-mail to an address, once it is in the stack's outbox. */
export async function resetLinkFor(email: string): Promise<string> {
	const outbox = join(DATA_DIR, 'outbox');
	let file: string | undefined;
	await expect
		.poll(async () => {
			const files = (await readdir(outbox).catch(() => [] as string[])).filter(
				(f) => f.includes('reset-password') && f.includes(email),
			);
			file = files.sort().at(-1);
			return file;
		})
		.toBeTruthy();
	const mail = await simpleParser(await readFile(join(outbox, file!)));
	const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')?.[0];
	if (!link) throw new Error(`No reset link in ${file}`);
	return link;
}
