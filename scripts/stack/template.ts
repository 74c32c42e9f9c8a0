import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from '../lib/free-port.ts';
import { openEmbeddedDatabase } from './database.ts';
import { MIGRATIONS_DIR, PLATFORM_FILES, runMigrations } from './migrate.ts';

/**
 * Templates of the embedded database: a closed PGlite folder with every migration applied
 * ('migrated'), or with the demo seed too ('demo'). A new data folder starts from a copy instead
 * of migrating and importing again. Each is kept under a fingerprint of the contents of what made
 * it, so a changed migration, platform file, PGlite release or (for the demo) seed makes a new one
 * rather than serving an old one. CHAMBER_TEMPLATES_DIR, `.data-templates` by default.
 */
export type TemplateKind = 'migrated' | 'demo';

const ROOT = join(import.meta.dirname, '../..');
/** The parts of a data folder a template holds: the database and the file service's files. */
const PARTS = ['pglite', 'storage'];

function templatesDir(): string {
	return resolve(ROOT, process.env.CHAMBER_TEMPLATES_DIR || '.data-templates');
}

/** sha256 over each file's path (relative to the checkout) and contents, in path order. */
export async function contentFingerprint(paths: string[], extra: string[] = []): Promise<string> {
	const hash = createHash('sha256');
	async function add(path: string): Promise<void> {
		const info = await stat(path).catch(() => null);
		if (!info) return;
		if (info.isDirectory()) {
			for (const name of (await readdir(path)).sort()) await add(join(path, name));
			return;
		}
		hash.update(`${relative(ROOT, path)}\0`);
		hash.update(await readFile(path));
		hash.update('\0');
	}
	for (const path of paths) await add(path);
	for (const value of extra) hash.update(`${value}\0`);
	return hash.digest('hex').slice(0, 16);
}

/** What a migrated database is made of: the migrations, the platform's SQL, PGlite and its runner. */
function migratedFingerprint(): Promise<string> {
	return contentFingerprint([
		MIGRATIONS_DIR,
		...PLATFORM_FILES,
		join(import.meta.dirname, 'migrate.ts'),
		join(import.meta.dirname, 'database-process.ts'),
		join(ROOT, 'node_modules/@electric-sql/pglite/package.json'),
	]);
}

const folder = (kind: TemplateKind, fingerprint: string) =>
	join(templatesDir(), `${kind}-${fingerprint}`);

async function exists(path: string): Promise<boolean> {
	return (await stat(path).catch(() => null)) !== null;
}

/** Whether `dataDir` holds a database already (a template is copied only into a new folder). */
export function hasDatabase(dataDir: string): Promise<boolean> {
	return exists(join(dataDir, 'pglite'));
}

/** Copies the template into `dataDir` when it exists; false when there is none yet. */
export async function copyTemplate(
	kind: TemplateKind,
	fingerprint: string,
	dataDir: string,
): Promise<boolean> {
	const from = folder(kind, fingerprint);
	if (!(await exists(join(from, 'pglite')))) return false;
	await mkdir(dataDir, { recursive: true });
	for (const part of PARTS) {
		if (await exists(join(from, part)))
			await cp(join(from, part), join(dataDir, part), { recursive: true });
	}
	return true;
}

/**
 * Keeps the closed database of `dataDir` as the template: copied aside, then renamed into place in
 * one step, so a process reading templates never sees half of one. When another process saved the
 * same template meanwhile, its copy stays. Older templates of the kind are removed.
 */
export async function saveTemplate(
	kind: TemplateKind,
	fingerprint: string,
	dataDir: string,
): Promise<void> {
	const dir = templatesDir();
	await mkdir(dir, { recursive: true });
	const staging = join(dir, `.staging-${kind}-${randomBytes(4).toString('hex')}`);
	try {
		for (const part of PARTS) {
			if (await exists(join(dataDir, part))) {
				await cp(join(dataDir, part), join(staging, part), { recursive: true });
			}
		}
		await rename(staging, folder(kind, fingerprint)).catch(async (error: NodeJS.ErrnoException) => {
			if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
		});
	} finally {
		await rm(staging, { recursive: true, force: true });
	}
	for (const name of await readdir(dir)) {
		if (name.startsWith(`${kind}-`) && name !== `${kind}-${fingerprint}`) {
			await rm(join(dir, name), { recursive: true, force: true });
		}
	}
}

/**
 * Copies the migrated template into a new data folder, making the template first when there is
 * none for these migrations: a database of its own on a free port, migrated and closed.
 */
export async function startFromMigratedTemplate(dataDir: string): Promise<void> {
	const fingerprint = await migratedFingerprint();
	if (await copyTemplate('migrated', fingerprint, dataDir)) return;
	const build = join(templatesDir(), `.build-${randomBytes(4).toString('hex')}`);
	try {
		const database = await openEmbeddedDatabase(build, await freePort(), {
			idleInTransactionMs: 10_000,
			sharedBuffers: '32MB',
		});
		try {
			await runMigrations(database.url);
			// As after migrating in place: index-only scans need the visibility map.
			const client = new pg.Client({ connectionString: database.url });
			await client.connect();
			await client.query('vacuum analyze').finally(() => client.end());
		} finally {
			await database.close();
		}
		await saveTemplate('migrated', fingerprint, build);
	} finally {
		await rm(build, { recursive: true, force: true });
	}
	if (!(await copyTemplate('migrated', fingerprint, dataDir))) {
		throw new Error(`The migrated template in ${templatesDir()} was not saved`);
	}
}
