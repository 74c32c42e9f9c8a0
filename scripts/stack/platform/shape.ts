import type pg from 'pg';

/**
 * The shape of the platform's tables that the identity and file services and the app rely on,
 * read from a database's catalog: columns (type, nullability, default, generated expression),
 * indexes, check and foreign-key constraints among these tables, triggers, and the enums they use. The
 * committed `hosted-shape.json` is this, read from a hosted-shaped database; a test holds every
 * database the project runs on (embedded, plain Postgres, hosted) to it.
 */
const PLATFORM_TABLES = [
	'auth.users',
	'auth.identities',
	'auth.sessions',
	'auth.mfa_amr_claims',
	'auth.refresh_tokens',
	'auth.one_time_tokens',
	'storage.buckets',
	'storage.objects',
] as const;

interface TableShape {
	columns: Record<
		string,
		{ type: string; notNull: boolean; default: string | null; generated: string | null }
	>;
	indexes: Record<string, string>;
	constraints: Record<string, string>;
	triggers: Record<string, string>;
}

export interface PlatformShape {
	tables: Record<string, TableShape>;
	enums: Record<string, string[]>;
}

export async function readPlatformShape(db: Pick<pg.Client, 'query'>): Promise<PlatformShape> {
	const shape: PlatformShape = { tables: {}, enums: {} };
	for (const table of PLATFORM_TABLES) {
		const columns = await db.query<{
			name: string;
			type: string;
			not_null: boolean;
			default: string | null;
			generated: string;
		}>(
			`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
				a.attnotnull as not_null, a.attgenerated as generated,
				pg_get_expr(d.adbin, d.adrelid) as default
			from pg_attribute a
			left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
			where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
			order by a.attname`,
			[table],
		);
		const indexes = await db.query<{ name: string; def: string }>(
			`select c.relname as name, pg_get_indexdef(i.indexrelid) as def
			from pg_index i join pg_class c on c.oid = i.indexrelid
			where i.indrelid = $1::regclass order by 1`,
			[table],
		);
		const constraints = await db.query<{ name: string; def: string; ref: string | null }>(
			`select conname as name, pg_get_constraintdef(oid) as def,
				case when confrelid = 0 then null else confrelid::regclass::text end as ref
			from pg_constraint
			where conrelid = $1::regclass and contype in ('c', 'f')
			order by 1`,
			[table],
		);
		const triggers = await db.query<{ name: string; def: string }>(
			`select tgname as name, pg_get_triggerdef(oid) as def
			from pg_trigger where tgrelid = $1::regclass and not tgisinternal order by 1`,
			[table],
		);
		shape.tables[table] = {
			columns: Object.fromEntries(
				columns.rows.map((c) => [
					c.name,
					{
						type: c.type,
						notNull: c.not_null,
						default: c.generated ? null : c.default,
						generated: c.generated ? c.default : null,
					},
				]),
			),
			indexes: Object.fromEntries(indexes.rows.map((i) => [i.name, i.def])),
			// Foreign keys to tables left out of the local stand-in (e.g. OAuth clients) do not count.
			constraints: Object.fromEntries(
				constraints.rows
					.filter((c) => c.ref === null || PLATFORM_TABLES.some((t) => t === c.ref))
					.map((c) => [c.name, c.def]),
			),
			triggers: Object.fromEntries(triggers.rows.map((t) => [t.name, t.def])),
		};
	}
	const enums = await db.query<{ name: string; labels: string[] }>(
		`select n.nspname || '.' || t.typname as name,
			array_agg(e.enumlabel::text order by e.enumsortorder) as labels
		from pg_type t
		join pg_namespace n on n.oid = t.typnamespace
		join pg_enum e on e.enumtypid = t.oid
		where t.oid in (
			select a.atttypid from pg_attribute a
			where a.attrelid = any ($1::regclass[]) and a.attnum > 0 and not a.attisdropped
		)
		group by 1 order by 1`,
		[PLATFORM_TABLES],
	);
	shape.enums = Object.fromEntries(enums.rows.map((e) => [e.name, e.labels]));
	return shape;
}
