/**
 * The project's schema as the database holds it, as SQL text: every table, view, function,
 * trigger, policy, grant (column grants and EXECUTE included) and comment of the schemas the
 * migrations own, the storage buckets and storage policies they create, the default privileges
 * of the role that runs them, and the PostgREST settings they give the authenticator role.
 *
 * Read from the catalog (pg_get_*def), sorted by name and with privileges listed per grantee, so
 * the text depends on what the schema is, never on the order the migrations built it in: two
 * databases with the same schema dump alike. supabase/schema.sql is this text for the migrated
 * local database (`npm run db:schema`); the same text, taken before and after a change of the
 * migrations on one server, shows what the change does.
 *
 * It is for reading and comparing, not for running: objects are grouped by kind, not in the order
 * their dependencies need. pg_dump would do the same, but no pg_dump at hand reads PGlite's
 * Postgres 18 (Debian's is 15; PGlite's WASM pg_dump, pglite-tools, pins another PGlite version).
 */

/** What the dump needs of a client: pg's Client and Pool both have it. */
export interface Queryable {
	query<R extends Record<string, unknown>>(
		text: string,
		values?: unknown[],
	): Promise<{ rows: R[] }>;
}

/** The schemas whose objects are the project's. */
const PROJECT_SCHEMAS = ['public', 'auth_guard'];

const PRIVILEGE_ORDER = [
	'SELECT',
	'INSERT',
	'UPDATE',
	'DELETE',
	'TRUNCATE',
	'REFERENCES',
	'TRIGGER',
	'MAINTAIN',
	'USAGE',
	'CREATE',
	'EXECUTE',
];

const ident = (name: string) =>
	/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

interface Grant {
	grantee: string;
	privilege: string;
	grantable: boolean;
}

/** `grant …` lines for an exploded ACL, one per grantee (and grant option), privileges in a fixed order. */
function grantLines(grants: Grant[], on: string, columns?: string): string[] {
	const byGrantee = new Map<string, string[]>();
	for (const g of grants) {
		const key = `${g.grantee}\u0000${g.grantable}`;
		byGrantee.set(key, [...(byGrantee.get(key) ?? []), g.privilege]);
	}
	return [...byGrantee.entries()]
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([key, privileges]) => {
			const [grantee, grantable] = key.split('\u0000');
			const list = [...new Set(privileges)]
				.sort((a, b) => PRIVILEGE_ORDER.indexOf(a) - PRIVILEGE_ORDER.indexOf(b))
				.map((p) => p.toLowerCase() + (columns ? ` (${columns})` : ''))
				.join(', ');
			const to = grantee === '-' ? 'public' : ident(grantee!);
			return `grant ${list} on ${on} to ${to}${grantable === 'true' ? ' with grant option' : ''};`;
		});
}

/** The exploded ACL of a catalog row; an unset ACL is the owner's default (acldefault). */
const ACL = (acl: string, kind: string, owner: string) => `
	select case when a.grantee = 0 then '-' else pg_get_userbyid(a.grantee) end as grantee_name,
		a.privilege_type as privilege, a.is_grantable as grantable
	from aclexplode(coalesce(${acl}, acldefault('${kind}', ${owner}))) a`;

async function aclOf(
	db: Queryable,
	table: string,
	acl: string,
	kind: string,
	owner: string,
	where: string,
	values: unknown[],
): Promise<Grant[]> {
	const { rows } = await db.query<{ grantee_name: string; privilege: string; grantable: boolean }>(
		`select x.grantee_name, x.privilege, x.grantable from ${table} t
		cross join lateral (${ACL(`t.${acl}`, kind, `t.${owner}`)}) x
		where ${where}
		order by 1, 2`,
		values,
	);
	return rows.map((r) => ({
		grantee: r.grantee_name,
		privilege: r.privilege,
		grantable: r.grantable,
	}));
}

async function comment(
	db: Queryable,
	catalog: string,
	oid: number,
	sub = 0,
): Promise<string | null> {
	const { rows } = await db.query<{ description: string }>(
		`select description from pg_description
		where classoid = $1::regclass and objoid = $2 and objsubid = $3`,
		[catalog, oid, sub],
	);
	return rows[0]?.description ?? null;
}

const notExtensionMember = (catalog: string, column: string) => `not exists (
	select 1 from pg_depend d
	where d.classid = '${catalog}'::regclass and d.objid = ${column} and d.deptype = 'e'
)`;

async function dumpPolicies(db: Queryable, relid: number, qualified: string): Promise<string[]> {
	const { rows } = await db.query<{
		polname: string;
		cmd: string;
		permissive: boolean;
		roles: string[];
		qual: string | null;
		check: string | null;
	}>(
		`select p.polname,
			case p.polcmd when 'r' then 'select' when 'a' then 'insert' when 'w' then 'update'
				when 'd' then 'delete' else 'all' end as cmd,
			p.polpermissive as permissive,
			array(
				select case when r = 0 then 'public' else pg_get_userbyid(r) end
				from unnest(p.polroles) r order by 1
			)::text[] as roles,
			pg_get_expr(p.polqual, p.polrelid) as qual,
			pg_get_expr(p.polwithcheck, p.polrelid) as check
		from pg_policy p where p.polrelid = $1 order by p.polname`,
		[relid],
	);
	return rows.map(
		(p) =>
			`create policy ${ident(p.polname)} on ${qualified}` +
			`${p.permissive ? '' : ' as restrictive'}\n\tfor ${p.cmd} to ${p.roles.join(', ')}` +
			(p.qual ? `\n\tusing (${p.qual})` : '') +
			(p.check ? `\n\twith check (${p.check})` : '') +
			';',
	);
}

/** A table, view or sequence as pg_class describes it. */
type Relation = {
	oid: number;
	nspname: string;
	relname: string;
	relkind: string;
	rls: boolean;
	force_rls: boolean;
	reloptions: string[] | null;
};

async function dumpRelation(db: Queryable, rel: Relation): Promise<string> {
	const qualified = `${ident(rel.nspname)}.${ident(rel.relname)}`;
	const out: string[] = [];
	const { rows: columns } = await db.query<{
		attnum: number;
		attname: string;
		type: string;
		notnull: boolean;
		identity: string;
		generated: string;
		expr: string | null;
		collation: string | null;
	}>(
		`select a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) as type,
			a.attnotnull as notnull, a.attidentity as identity, a.attgenerated as generated,
			pg_get_expr(d.adbin, d.adrelid) as expr,
			case when a.attcollation <> t.typcollation then co.collname end as collation
		from pg_attribute a
		join pg_type t on t.oid = a.atttypid
		left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
		left join pg_collation co on co.oid = a.attcollation
		where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
		order by a.attnum`,
		[rel.oid],
	);
	const options = rel.reloptions?.length ? ` with (${rel.reloptions.join(', ')})` : '';

	if (rel.relkind === 'v' || rel.relkind === 'm') {
		const { rows } = await db.query<{ def: string }>(
			'select pg_get_viewdef($1::oid, true) as def',
			[rel.oid],
		);
		const kind = rel.relkind === 'm' ? 'materialized view' : 'view';
		out.push(`create ${kind} ${qualified}${options} as\n${rows[0]!.def.trimEnd()}`);
	} else if (rel.relkind === 'S') {
		const { rows } = await db.query<{ def: string }>(
			`select format('start %s increment %s minvalue %s maxvalue %s cache %s%s',
				s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache,
				case when s.seqcycle then ' cycle' else '' end) as def
			from pg_sequence s where s.seqrelid = $1`,
			[rel.oid],
		);
		out.push(`create sequence ${qualified} ${rows[0]?.def ?? ''};`);
	} else {
		const lines = columns.map((c) => {
			let line = `\t${ident(c.attname)} ${c.type}`;
			if (c.collation) line += ` collate ${ident(c.collation)}`;
			if (c.generated === 's') line += ` generated always as (${c.expr}) stored`;
			else if (c.expr !== null) line += ` default ${c.expr}`;
			if (c.identity === 'a') line += ' generated always as identity';
			if (c.identity === 'd') line += ' generated by default as identity';
			if (c.notnull) line += ' not null';
			return line;
		});
		out.push(`create table ${qualified} (\n${lines.join(',\n')}\n)${options};`);
		const { rows: constraints } = await db.query<{ conname: string; def: string }>(
			// Not-null constraints (Postgres 18 lists them here too) are on the columns above.
			`select conname, pg_get_constraintdef(oid) as def from pg_constraint
			where conrelid = $1 and contype <> 'n' order by conname`,
			[rel.oid],
		);
		for (const c of constraints) {
			out.push(`alter table ${qualified} add constraint ${ident(c.conname)} ${c.def};`);
		}
		const { rows: indexes } = await db.query<{ name: string; def: string; oid: number }>(
			`select i.relname as name, pg_get_indexdef(x.indexrelid) as def, x.indexrelid as oid
			from pg_index x join pg_class i on i.oid = x.indexrelid
			where x.indrelid = $1
				and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid and c.conrelid = x.indrelid)
			order by i.relname`,
			[rel.oid],
		);
		for (const i of indexes) {
			out.push(`${i.def};`);
			const text = await comment(db, 'pg_class', i.oid);
			if (text !== null) {
				out.push(`comment on index ${ident(rel.nspname)}.${ident(i.name)} is ${literal(text)};`);
			}
		}
		const { rows: triggers } = await db.query<{ def: string; enabled: string; tgname: string }>(
			`select tgname, pg_get_triggerdef(oid) as def, tgenabled as enabled from pg_trigger
			where tgrelid = $1 and not tgisinternal order by tgname`,
			[rel.oid],
		);
		for (const t of triggers) {
			out.push(`${t.def};`);
			if (t.enabled !== 'O') out.push(`-- trigger ${t.tgname}: tgenabled ${t.enabled}`);
		}
		if (rel.rls) out.push(`alter table ${qualified} enable row level security;`);
		if (rel.force_rls) out.push(`alter table ${qualified} force row level security;`);
		out.push(...(await dumpPolicies(db, rel.oid, qualified)));
	}

	const tableComment = await comment(db, 'pg_class', rel.oid);
	const kindWord =
		rel.relkind === 'v'
			? 'view'
			: rel.relkind === 'm'
				? 'materialized view'
				: rel.relkind === 'S'
					? 'sequence'
					: 'table';
	if (tableComment !== null)
		out.push(`comment on ${kindWord} ${qualified} is ${literal(tableComment)};`);
	for (const c of columns) {
		const text = await comment(db, 'pg_class', rel.oid, c.attnum);
		if (text !== null) {
			out.push(`comment on column ${qualified}.${ident(c.attname)} is ${literal(text)};`);
		}
	}

	const grants = await aclOf(
		db,
		'pg_class',
		'relacl',
		rel.relkind === 'S' ? 's' : 'r',
		'relowner',
		't.oid = $1',
		[rel.oid],
	);
	out.push(...grantLines(grants, `${rel.relkind === 'S' ? 'sequence' : 'table'} ${qualified}`));
	for (const c of columns) {
		const { rows } = await db.query<{
			grantee_name: string;
			privilege: string;
			grantable: boolean;
		}>(
			`select case when x.grantee = 0 then '-' else pg_get_userbyid(x.grantee) end as grantee_name,
				x.privilege_type as privilege, x.is_grantable as grantable
			from pg_attribute a cross join lateral aclexplode(a.attacl) x
			where a.attrelid = $1 and a.attnum = $2 and a.attacl is not null
			order by 1, 2`,
			[rel.oid, c.attnum],
		);
		out.push(
			...grantLines(
				rows.map((r) => ({
					grantee: r.grantee_name,
					privilege: r.privilege,
					grantable: r.grantable,
				})),
				`table ${qualified}`,
				ident(c.attname),
			),
		);
	}
	return out.join('\n');
}

async function dumpFunctions(db: Queryable, schemas: string[]): Promise<string[]> {
	const { rows } = await db.query<{ oid: number; def: string; signature: string; kind: string }>(
		`select p.oid, pg_get_functiondef(p.oid) as def, p.prokind as kind,
			format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as signature
		from pg_proc p join pg_namespace n on n.oid = p.pronamespace
		where n.nspname = any ($1) and p.prokind in ('f', 'p') and ${notExtensionMember('pg_proc', 'p.oid')}
		order by n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)`,
		[schemas],
	);
	const out: string[] = [];
	for (const f of rows) {
		const lines = [`${f.def.trimEnd()};`];
		const word = f.kind === 'p' ? 'procedure' : 'function';
		const text = await comment(db, 'pg_proc', f.oid);
		if (text !== null) lines.push(`comment on ${word} ${f.signature} is ${literal(text)};`);
		const grants = await aclOf(db, 'pg_proc', 'proacl', 'f', 'proowner', 't.oid = $1', [f.oid]);
		lines.push(...grantLines(grants, `${word} ${f.signature}`));
		out.push(lines.join('\n'));
	}
	return out;
}

/** The schema of the database `db` is connected to, as text (see the top of this file). */
export async function dumpSchema(
	db: Queryable,
	schemas: string[] = PROJECT_SCHEMAS,
): Promise<string> {
	const { rows } = await db.query<{ path: string }>(
		"select current_setting('search_path') as path",
	);
	// Every name the catalog functions print comes schema-qualified.
	await db.query("select set_config('search_path', '', false)");
	try {
		return await dumpQualified(db, schemas);
	} finally {
		await db.query("select set_config('search_path', $1, false)", [rows[0]!.path]);
	}
}

async function dumpQualified(db: Queryable, schemas: string[]): Promise<string> {
	const sections: string[] = [];
	const section = (title: string, parts: string[]) => {
		if (parts.length === 0) return;
		sections.push(
			`/**\n  ${'-'.repeat(75)}\n  ${title}\n  ${'-'.repeat(75)}\n */\n\n${parts.join('\n\n')}`,
		);
	};

	const { rows: extensions } = await db.query<{ extname: string; nspname: string }>(
		`select e.extname, n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
		where e.extname <> 'plpgsql' and n.nspname = any ($1) order by e.extname`,
		[schemas],
	);
	section(
		'Extensions',
		extensions.map(
			(e) => `create extension if not exists ${ident(e.extname)} with schema ${ident(e.nspname)};`,
		),
	);

	const { rows: namespaces } = await db.query<{ oid: number; nspname: string }>(
		'select oid, nspname from pg_namespace where nspname = any ($1) order by nspname',
		[schemas],
	);
	const schemaParts: string[] = [];
	for (const n of namespaces) {
		const lines = [`create schema if not exists ${ident(n.nspname)};`];
		const text = await comment(db, 'pg_namespace', n.oid);
		if (text !== null) lines.push(`comment on schema ${ident(n.nspname)} is ${literal(text)};`);
		const grants = await aclOf(db, 'pg_namespace', 'nspacl', 'n', 'nspowner', 't.oid = $1', [
			n.oid,
		]);
		lines.push(...grantLines(grants, `schema ${ident(n.nspname)}`));
		schemaParts.push(lines.join('\n'));
	}
	section('Schemas', schemaParts);

	const relations = async (kinds: string[]) =>
		(
			await db.query<Relation>(
				`select c.oid, n.nspname, c.relname, c.relkind, c.relrowsecurity as rls,
					c.relforcerowsecurity as force_rls, c.reloptions
				from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = any ($1) and c.relkind = any ($2) and ${notExtensionMember('pg_class', 'c.oid')}
				order by n.nspname, c.relname`,
				[schemas, kinds],
			)
		).rows;

	const tables: string[] = [];
	for (const rel of await relations(['r', 'p'])) tables.push(await dumpRelation(db, rel));
	section('Tables', tables);
	const sequences: string[] = [];
	for (const rel of await relations(['S'])) sequences.push(await dumpRelation(db, rel));
	section('Sequences (identity columns)', sequences);
	const views: string[] = [];
	for (const rel of await relations(['v', 'm'])) views.push(await dumpRelation(db, rel));
	section('Views', views);
	section('Functions', await dumpFunctions(db, schemas));

	// Storage: the buckets the migrations create and the policies they put on Storage's tables.
	const { rows: storage } = await db.query<{ ok: boolean }>(
		"select to_regclass('storage.buckets') is not null as ok",
	);
	if (storage[0]?.ok) {
		const { rows: buckets } = await db.query<{
			id: string;
			name: string;
			public: boolean;
			file_size_limit: string | null;
			allowed_mime_types: string[] | null;
		}>(
			`select id, name, public, file_size_limit::text, allowed_mime_types
			from storage.buckets order by id`,
		);
		const parts = buckets.map(
			(b) =>
				`insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)\n` +
				`values (${literal(b.id)}, ${literal(b.name)}, ${b.public}, ${b.file_size_limit ?? 'null'}, ` +
				`${b.allowed_mime_types ? `array[${b.allowed_mime_types.map(literal).join(', ')}]` : 'null'});`,
		);
		for (const table of ['buckets', 'objects']) {
			const { rows } = await db.query<{ oid: number }>(`select to_regclass($1)::oid as oid`, [
				`storage.${table}`,
			]);
			if (rows[0]?.oid) parts.push(...(await dumpPolicies(db, rows[0].oid, `storage.${table}`)));
		}
		section('Storage', parts);
	}

	// What later migrations start from: the defaults of the role that runs them.
	const { rows: defaults } = await db.query<{
		nspname: string | null;
		objtype: string;
		grantee: string;
		privilege: string;
		grantable: boolean;
	}>(
		`select n.nspname, d.defaclobjtype as objtype,
			case when x.grantee = 0 then '-' else pg_get_userbyid(x.grantee) end as grantee,
			x.privilege_type as privilege, x.is_grantable as grantable
		from pg_default_acl d
		left join pg_namespace n on n.oid = d.defaclnamespace
		cross join lateral aclexplode(d.defaclacl) x
		where d.defaclrole = (select oid from pg_roles where rolname = 'postgres')
		order by 1 nulls first, 2, 3, 4`,
	);
	const objtypes: Record<string, string> = {
		r: 'tables',
		S: 'sequences',
		f: 'functions',
		T: 'types',
		n: 'schemas',
	};
	const defaultParts: string[] = [];
	const groups = new Map<string, Grant[]>();
	for (const d of defaults) {
		const key = `${d.nspname ?? ''}\u0000${d.objtype}`;
		groups.set(key, [
			...(groups.get(key) ?? []),
			{ grantee: d.grantee, privilege: d.privilege, grantable: d.grantable },
		]);
	}
	for (const [key, grants] of groups) {
		const [nspname, objtype] = key.split('\u0000') as [string, string];
		const prefix = `alter default privileges for role postgres${nspname ? ` in schema ${ident(nspname)}` : ''}`;
		for (const line of grantLines(grants, '§')) {
			defaultParts.push(
				`${prefix} ${line.replace(' on § ', ` on ${objtypes[objtype] ?? objtype} `)}`,
			);
		}
	}
	section(
		'Default privileges of postgres, the role that runs the migrations',
		defaultParts.length ? [defaultParts.join('\n')] : ['-- none'],
	);

	const { rows: settings } = await db.query<{ rolname: string; setting: string }>(
		`select r.rolname, s.setting
		from pg_db_role_setting d
		join pg_roles r on r.oid = d.setrole
		cross join lateral unnest(d.setconfig) s(setting)
		where s.setting like 'pgrst.%'
		order by 1, 2`,
	);
	section(
		'Role settings PostgREST reads',
		settings.map((s) => {
			const [name, ...value] = s.setting.split('=');
			return `alter role ${ident(s.rolname)} set ${name} to ${literal(value.join('='))};`;
		}),
	);

	return `${sections.join('\n\n')}\n`;
}

/** Where the migrated schema is checked in. */
export const SCHEMA_FILE = 'supabase/schema.sql';

/** supabase/schema.sql: the dump with a header that says what it is. */
export function schemaFileText(dump: string): string {
	return (
		'-- The schema after every migration in supabase/migrations, generated by `npm run db:schema`\n' +
		'-- from a freshly migrated local database. Do not edit: change the schema with a new\n' +
		'-- migration, then run `npm run db:schema`. For reading and review; the migrations run.\n\n' +
		dump
	);
}
