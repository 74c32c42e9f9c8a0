// Runs on: hosted — the configuration's rules are the database's check constraints: SQL
// behaviour, proved on the production shape.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, service, stack } from './clients.ts';
import {
	chamberConfigSchema,
	CONFIG_COLUMNS,
	type ChamberConfig,
} from '../../src/features/config/config.ts';
import { TOP_LEVEL_FIELDS } from '../../src/features/admin/update-config.ts';
import { configDatabaseRules, type ValueRule } from '../../src/features/config/database-rules.ts';
import type { Json } from '../../src/lib/database.ts';
import { storedConfig, userClient } from '../support/db-clients.ts';
import { importChamber, removeStaffChambers, type StaffChamber } from './fixtures.ts';

// Configuration values are held to their rules by the database, for anyone holding a staff
// token, and those rules are the zod schema's: every field's wrong type and every text one
// character too long is refused by both.

const DOMAIN = 'config-validation.test';
let chamber: StaffChamber<'editor' | 'admin' | 'super'>;
let tenantId: string;

beforeAll(async () => {
	await db.connect();
	chamber = await importChamber(stack, service, {
		prefix: 'validate',
		domain: DOMAIN,
		password: 'config-validation-password',
		name: 'Validation Chamber',
		staff: { editor: 'editor', admin: 'admin', super: 'super_admin' },
	});
	tenantId = chamber.tenantId;
});

afterAll(async () => {
	await removeStaffChambers(db, chamber, DOMAIN);
	await db.end();
});

/** The content section's version now (every save states the one it was made from). */
async function contentVersion(): Promise<number> {
	const { rows } = await db.query(
		`select public.config_section_version($1, 'content')::int as version`,
		[tenantId],
	);
	return rows[0].version;
}

/** Every field of a rule, with its path in the configuration and its column. */
function leaves(rules: Record<string, ValueRule>) {
	const found: { column: string; key: string; field: string; rule: ValueRule }[] = [];
	for (const [column, rule] of Object.entries(rules)) {
		const key = Object.entries(CONFIG_COLUMNS).find(([, c]) => c === column)![0];
		for (const [field, fieldRule] of Object.entries(rule.properties ?? {})) {
			found.push({ column, key, field, rule: fieldRule });
		}
	}
	return found;
}

/** A value of a JSON type the rule does not take. */
function wrongType(rule: ValueRule): unknown {
	if (!rule.types.includes('object')) return { x: 1 };
	return 'not an object';
}

describe('the database’s rules', () => {
	it('are the zod schema’s (a schema change needs a migration: node scripts/config-rules.ts)', async () => {
		const { rows } = await db.query('select public.config_rules() as rules');
		expect(rows[0].rules).toEqual(configDatabaseRules());
	});

	it('name the columns as the app does: each configuration key its chamber_config column, each column its section', async () => {
		const { rows: columns } = await db.query<{ column_name: string }>(
			`select column_name from information_schema.columns
			where table_schema = 'public' and table_name = 'chamber_config'`,
		);
		expect(columns.map((c) => c.column_name)).toEqual(
			expect.arrayContaining(Object.values(CONFIG_COLUMNS)),
		);
		// The audit log and the editors' refusals name a column by its section (config_section_name).
		const { rows } = await db.query<{ section: string }>(
			'select public.config_section_name(c) as section from unnest($1::text[]) c',
			[Object.values(CONFIG_COLUMNS)],
		);
		const identity: string[] = [...TOP_LEVEL_FIELDS, 'slug'];
		expect(rows.map((r) => r.section)).toEqual(
			Object.keys(CONFIG_COLUMNS).map((key) => (identity.includes(key) ? 'identity' : key)),
		);
	});

	it('bound every text and every list', () => {
		const unbounded: string[] = [];
		const walk = (rule: ValueRule, path: string) => {
			if (rule.types.includes('string') && rule.maxLength === undefined && !rule.enum) {
				unbounded.push(path);
			}
			if (rule.types.includes('array') && rule.maxItems === undefined) unbounded.push(path);
			if (rule.items) walk(rule.items, `${path}[]`);
			for (const [key, child] of Object.entries(rule.properties ?? {})) {
				walk(child, `${path}.${key}`);
			}
		};
		for (const [column, rule] of Object.entries(configDatabaseRules())) walk(rule, column);
		expect(unbounded).toEqual([]);
	});
});

describe('values the database refuses, whoever writes them', () => {
	const current = () => storedConfig(service, { tenant_id: tenantId });

	it('an editor’s token cannot write an object where the hero title belongs (the site stays up)', async () => {
		const editor = userClient(stack, chamber.tokens.editor);
		const before = await current();
		const { error } = await editor.rpc('update_chamber_config', {
			p_tenant_id: tenantId,
			p_column: 'content',
			p_field: 'heroTitle',
			p_value: { x: 1 },
			p_version: await contentVersion(),
		});
		expect(error).toMatchObject({
			code: '22023',
			message: 'Invalid configuration value: content.heroTitle: expected string, received object',
		});
		const direct = await editor
			.from('chamber_config')
			.update({ content: { ...before.content, heroTitle: { x: 1 } } })
			.eq('tenant_id', tenantId);
		expect(direct.error?.code).toBe('22023');
		expect((await current()).content.heroTitle).toBe(before.content.heroTitle);
	});

	it('nor a three-megabyte tagline, nor a field the section does not have', async () => {
		const admin = userClient(stack, chamber.tokens.admin);
		const write = async (field: string, value: Json) =>
			admin.rpc('update_chamber_config', {
				p_tenant_id: tenantId,
				p_column: 'content',
				p_field: field,
				p_value: value,
				p_version: await contentVersion(),
			});
		expect((await write('footerTagline', 'x'.repeat(3_000_000))).error?.message).toBe(
			'Invalid configuration value: content.footerTagline: at most 1000 characters, received 3000000',
		);
		expect((await write('surprise', 'x')).error?.message).toBe(
			'Invalid configuration value: content.surprise: not a field of this section',
		);
		expect((await write('footerTagline', 'Proudly local')).error).toBeNull();
	});

	it('refuses, as zod does, every field’s wrong type and every text one character too long', async () => {
		const refusedBy = async (column: string, key: string, field: string, value: unknown) => {
			const config = await current();
			const section = { ...(config[key as keyof ChamberConfig] as object), [field]: value };
			const zod = chamberConfigSchema.safeParse({ ...config, [key]: section }).success;
			await db.query('begin');
			const database = await db
				.query(`update public.chamber_config set ${column} = $1 where tenant_id = $2`, [
					section,
					tenantId,
				])
				.then(
					() => false,
					(error: { code: string }) => error.code === '22023',
				);
			await db.query('rollback');
			return { zod: !zod, database };
		};
		const disagreements: string[] = [];
		const stricter: string[] = [];
		for (const { column, key, field, rule } of leaves(configDatabaseRules())) {
			const cases: unknown[] = [wrongType(rule)];
			if (rule.maxLength !== undefined) cases.push('9'.repeat(rule.maxLength + 1));
			for (const value of cases) {
				const refused = await refusedBy(column, key, field, value);
				if (refused.zod && !refused.database) disagreements.push(`${key}.${field}`);
				if (!refused.zod && refused.database) stricter.push(`${key}.${field}`);
			}
		}
		expect(disagreements).toEqual([]);
		// The panel's counts fall back to their default on anything (zod's catch); the database
		// still refuses what is no count at all.
		expect([...new Set(stricter)]).toEqual([
			'features.memberMaxCategories',
			'featuredBusinesses.count',
			'categoryDisplay.count',
		]);
	});

	it('lets only a super_admin (and the import) change services', async () => {
		const write = (token: string) =>
			userClient(stack, token)
				.from('chamber_config')
				.update({ services: { googleAnalyticsId: 'G-ABC1234' } })
				.eq('tenant_id', tenantId);
		expect((await write(chamber.tokens.admin)).error).toMatchObject({
			code: '42501',
			message: "Only a super_admin can change the site's services (analytics, e-mail, reCAPTCHA)",
		});
		expect((await write(chamber.tokens.super)).error).toBeNull();
		expect((await current()).services.googleAnalyticsId).toBe('G-ABC1234');
	});
});

describe('a stored configuration that does not validate anyway', () => {
	// Written past the database's check (by hand, as a superuser): the functions keep serving.
	const writeInvalid = async () => {
		await db.query('alter table public.chamber_config disable trigger chamber_config_validate');
		try {
			await db.query(
				`update public.chamber_config set content = content || '{"heroTitle": {"x": 1}}' where tenant_id = $1`,
				[tenantId],
			);
		} finally {
			await db.query('alter table public.chamber_config enable trigger chamber_config_validate');
		}
	};
	const restore = () =>
		db.query(
			`update public.chamber_config set content = content - 'heroTitle' where tenant_id = $1`,
			[tenantId],
		);

	it('is served as the newest live publish’s configuration, and logged', async () => {
		const { getCachedChamberConfig } = await import('../../src/features/config/config.server.ts');
		process.env.SUPABASE_URL ??= stack.supabaseUrl;
		process.env.SUPABASE_ANON_KEY ??= stack.anonKey;
		process.env.SUPABASE_SERVICE_ROLE_KEY ??= stack.serviceKey;
		// What the last build published: this title.
		await db.query(
			`insert into public.publishes (tenant_id, state, reason, finished_at, config_snapshot)
			select tenant_id, 'live', 'Content saved', now(),
				to_jsonb(c) - 'tenant_id' - 'updated_at' || jsonb_build_object('content', c.content || '{"heroTitle": "Published title"}')
			from public.chamber_config c where tenant_id = $1`,
			[tenantId],
		);
		await writeInvalid();
		const errors: string[] = [];
		const spy = vi.spyOn(console, 'error').mockImplementation((...args) => {
			errors.push(args.map(String).join(' '));
		});
		try {
			const config = await getCachedChamberConfig(service, tenantId);
			expect(config.content.heroTitle).toBe('Published title');
		} finally {
			spy.mockRestore();
			await restore();
		}
		expect(errors).toEqual([
			`[config] tenant ${tenantId}: invalid configuration (content.heroTitle: Expected string, received a value of type object); serving the last published one`,
		]);
	});
});
