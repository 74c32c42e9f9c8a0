import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, resolve, sep } from 'node:path';
import pg from 'pg';
import type { RoutedRequest } from '../auth/http.ts';
import { verifyAccessToken } from '../auth/tokens.ts';

/**
 * The local stand-in for Supabase Storage (supabase/storage: src/http/routes/bucket and object,
 * src/internal/errors): the calls storage-js makes, with its answers and error shapes. Files live
 * under {dataDir}/storage/{bucket}/{name}; their rows in storage.buckets and storage.objects
 * (migration 20261123000021). As Supabase Storage does, every object read and write runs in the
 * database under the caller's role and JWT claims, so row-level security on storage.objects
 * decides who may do what; the service role bypasses it.
 */

const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

class StorageError extends Error {
	readonly status: number;
	readonly code: string;

	constructor(status: number, code: string, message: string) {
		super(message);
		this.status = status;
		this.code = code;
	}
}

const errors = {
	bucketNotFound: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found'),
	objectNotFound: () => new StorageError(404, 'NoSuchKey', 'Object not found'),
	duplicate: () => new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists'),
	denied: (action = 'new row violates row-level security policy') =>
		new StorageError(403, 'AccessDenied', action),
	invalidJwt: (message: string) => new StorageError(400, 'InvalidJWT', message),
	invalid: (message: string) => new StorageError(400, 'InvalidRequest', message),
	tooLarge: () =>
		new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size'),
	mime: (type: string) =>
		new StorageError(415, 'InvalidMimeType', `mime type ${type} is not supported`),
};

interface Bucket {
	id: string;
	name: string;
	public: boolean;
	file_size_limit: number | null;
	allowed_mime_types: string[] | null;
	created_at: Date;
	updated_at: Date;
}

interface Caller {
	role: string;
	claims: Record<string, unknown>;
}

type Db = Pick<pg.PoolClient, 'query'>;

export interface StorageServiceOptions {
	databaseUrl: string;
	dataDir: string;
	jwtSecret: string;
}

export class StorageService {
	readonly #pool: pg.Pool;
	readonly #root: string;
	readonly #secret: string;

	constructor(options: StorageServiceOptions) {
		this.#pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
		this.#root = resolve(options.dataDir, 'storage');
		this.#secret = options.jwtSecret;
	}

	close(): Promise<void> {
		return this.#pool.end();
	}

	/** The caller, from the bearer token (or the apikey): its role and claims, as PostgREST reads them. */
	async caller(req: IncomingMessage): Promise<Caller> {
		const header = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
		const apikey = req.headers.apikey;
		const token = header ?? (Array.isArray(apikey) ? apikey[0] : apikey);
		if (!token) return { role: 'anon', claims: { role: 'anon' } };
		try {
			const claims = await verifyAccessToken(this.#secret, token, new Date());
			const role = typeof claims.role === 'string' ? claims.role : 'anon';
			if (!['anon', 'authenticated', 'service_role'].includes(role)) throw new Error('role');
			return { role, claims };
		} catch {
			throw errors.invalidJwt('jwt malformed');
		}
	}

	/** Runs fn as the caller: `set local role` and the JWT claims, then RLS applies. */
	async #as<T>(caller: Caller, fn: (db: Db) => Promise<T>): Promise<T> {
		const client = await this.#pool.connect();
		try {
			await client.query('begin');
			await client.query(`select set_config('role', $1, true)`, [caller.role]);
			await client.query(`select set_config('request.jwt.claims', $1, true)`, [
				JSON.stringify(caller.claims),
			]);
			const result = await fn(client);
			await client.query('commit');
			return result;
		} catch (error) {
			await client.query('rollback').catch(() => {});
			const code = (error as { code?: string }).code;
			if (code === '42501') throw errors.denied();
			if (code === '23505') throw errors.duplicate();
			throw error;
		} finally {
			client.release();
		}
	}

	async #bucket(id: string): Promise<Bucket> {
		const { rows } = await this.#pool.query<Bucket>(
			`select id, name, public, file_size_limit, allowed_mime_types, created_at, updated_at
			from storage.buckets where id = $1`,
			[id],
		);
		if (!rows[0]) throw errors.bucketNotFound();
		return rows[0];
	}

	#file(bucket: string, name: string): string {
		if (!name || name.split('/').some((part) => part === '' || part === '.' || part === '..')) {
			throw errors.invalid('Invalid key');
		}
		const file = resolve(this.#root, bucket, name);
		if (!file.startsWith(this.#root + sep)) throw errors.invalid('Invalid key');
		return file;
	}

	// --- Buckets -----------------------------------------------------------------------------------

	async createBucket(caller: Caller, body: Record<string, unknown>) {
		if (caller.role !== 'service_role') throw errors.denied();
		const name = String(body.name ?? body.id ?? '');
		if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw errors.invalid('Bucket name invalid');
		try {
			await this.#pool.query(
				`insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
				values ($1, $1, $2, $3, $4)`,
				[
					name,
					body.public === true,
					typeof body.file_size_limit === 'number' ? body.file_size_limit : null,
					Array.isArray(body.allowed_mime_types) ? body.allowed_mime_types : null,
				],
			);
		} catch (error) {
			if ((error as { code?: string }).code === '23505') throw errors.duplicate();
			throw error;
		}
		return { name };
	}

	async getBucket(id: string) {
		return this.#bucket(id);
	}

	async listBuckets() {
		const { rows } = await this.#pool.query<Bucket>(
			`select id, name, public, file_size_limit, allowed_mime_types, created_at, updated_at
			from storage.buckets order by name`,
		);
		return rows;
	}

	// --- Objects -----------------------------------------------------------------------------------

	/** POST (create, or replace with x-upsert) and PUT (replace) /object/{bucket}/{name}. */
	async upload(
		caller: Caller,
		bucketId: string,
		name: string,
		file: { body: Buffer; contentType: string; cacheControl: string },
		mode: 'create' | 'upsert' | 'update',
	) {
		const bucket = await this.#bucket(bucketId);
		const path = this.#file(bucketId, name);
		const limit = bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT;
		if (file.body.length > limit) throw errors.tooLarge();
		const type = file.contentType.split(';')[0]!.trim().toLowerCase();
		if (bucket.allowed_mime_types?.length && !bucket.allowed_mime_types.includes(type)) {
			throw errors.mime(type);
		}
		const metadata = {
			eTag: `"${createHash('md5').update(file.body).digest('hex')}"`,
			size: file.body.length,
			mimetype: type,
			cacheControl: file.cacheControl,
			lastModified: new Date().toISOString(),
			contentLength: file.body.length,
			httpStatusCode: 200,
		};
		const owner = typeof caller.claims.sub === 'string' ? caller.claims.sub : null;
		const id = await this.#as(caller, async (db) => {
			const version = randomUUID();
			let rows: { id: string }[];
			if (mode === 'update') {
				({ rows } = await db.query<{ id: string }>(
					`update storage.objects set metadata = $3, version = $4, updated_at = now()
					where bucket_id = $1 and name = $2 returning id`,
					[bucketId, name, metadata, version],
				));
				if (!rows[0]) throw errors.objectNotFound();
			} else if (mode === 'upsert') {
				({ rows } = await db.query<{ id: string }>(
					`insert into storage.objects (bucket_id, name, owner, metadata, version)
					values ($1, $2, $3, $4, $5)
					on conflict (bucket_id, name) do update
						set metadata = excluded.metadata, version = excluded.version, updated_at = now()
					returning id`,
					[bucketId, name, owner, metadata, version],
				));
			} else {
				// No RETURNING: it would need a select policy too, and Supabase asks only for insert.
				const objectId = randomUUID();
				await db.query(
					`insert into storage.objects (id, bucket_id, name, owner, metadata, version)
					values ($1, $2, $3, $4, $5, $6)`,
					[objectId, bucketId, name, owner, metadata, version],
				);
				rows = [{ id: objectId }];
			}
			// The file is written inside the transaction: a refused row leaves no file behind, and
			// a file that fails to write leaves no row.
			await mkdir(dirname(path), { recursive: true });
			const temporary = `${path}.${version}.upload`;
			await writeFile(temporary, file.body);
			await rename(temporary, path);
			return rows[0]!.id;
		});
		return { Id: id, Key: `${bucketId}/${name}` };
	}

	/** GET /object/public/{bucket}/{name}: any object of a public bucket. */
	async readPublic(bucketId: string, name: string) {
		const bucket = await this.#bucket(bucketId);
		if (!bucket.public) throw errors.objectNotFound();
		const { rows } = await this.#pool.query<{ metadata: Record<string, unknown> | null }>(
			'select metadata from storage.objects where bucket_id = $1 and name = $2',
			[bucketId, name],
		);
		if (!rows[0]) throw errors.objectNotFound();
		return this.#read(bucketId, name, rows[0].metadata);
	}

	/** GET /object/{bucket}/{name} and /object/authenticated/…: as the caller (select policy). */
	async readAuthenticated(caller: Caller, bucketId: string, name: string) {
		await this.#bucket(bucketId);
		const metadata = await this.#as(caller, async (db) => {
			const { rows } = await db.query<{ metadata: Record<string, unknown> | null }>(
				'select metadata from storage.objects where bucket_id = $1 and name = $2',
				[bucketId, name],
			);
			if (!rows[0]) throw errors.objectNotFound();
			return rows[0].metadata;
		});
		return this.#read(bucketId, name, metadata);
	}

	async #read(bucketId: string, name: string, metadata: Record<string, unknown> | null) {
		const body = await readFile(this.#file(bucketId, name)).catch(() => {
			throw errors.objectNotFound();
		});
		return {
			body,
			contentType: String(metadata?.mimetype ?? 'application/octet-stream'),
			cacheControl: String(metadata?.cacheControl ?? 'max-age=3600'),
			eTag: String(metadata?.eTag ?? ''),
			lastModified: String(metadata?.lastModified ?? ''),
		};
	}

	/** DELETE /object/{bucket} {prefixes}: the objects the caller may delete; answers their rows. */
	async remove(caller: Caller, bucketId: string, prefixes: unknown) {
		await this.#bucket(bucketId);
		if (!Array.isArray(prefixes) || prefixes.some((p) => typeof p !== 'string')) {
			throw errors.invalid('prefixes must be an array of names');
		}
		const deleted = await this.#as(caller, async (db) => {
			const { rows } = await db.query<Record<string, unknown> & { name: string }>(
				`delete from storage.objects where bucket_id = $1 and name = any($2)
				returning id, name, bucket_id, owner, metadata, created_at, updated_at, last_accessed_at`,
				[bucketId, prefixes],
			);
			return rows;
		});
		for (const row of deleted) await rm(this.#file(bucketId, row.name), { force: true });
		return deleted;
	}

	/** POST /object/list/{bucket} {prefix, limit, offset, search}: one level, as Storage lists. */
	async list(caller: Caller, bucketId: string, body: Record<string, unknown>) {
		await this.#bucket(bucketId);
		const prefix = typeof body.prefix === 'string' ? body.prefix.replace(/\/+$/, '') : '';
		const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 1000);
		const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
		const search = typeof body.search === 'string' ? body.search : '';
		return this.#as(caller, async (db) => {
			const { rows } = await db.query<{
				id: string;
				name: string;
				metadata: unknown;
				created_at: Date;
				updated_at: Date;
				last_accessed_at: Date;
			}>(
				`select id, name, metadata, created_at, updated_at, last_accessed_at
				from storage.objects where bucket_id = $1 and name like $2 order by name`,
				[bucketId, prefix ? `${prefix.replace(/[\\%_]/g, '\\$&')}/%` : '%'],
			);
			const entries = new Map<string, Record<string, unknown>>();
			for (const row of rows) {
				const rest = prefix ? row.name.slice(prefix.length + 1) : row.name;
				const [first, ...more] = rest.split('/');
				if (!first || (search && !first.includes(search))) continue;
				if (more.length) {
					entries.set(first, {
						name: first,
						id: null,
						updated_at: null,
						created_at: null,
						last_accessed_at: null,
						metadata: null,
					});
				} else entries.set(first, { ...row, name: first });
			}
			return [...entries.values()].slice(offset, offset + limit);
		});
	}
}

// --- HTTP --------------------------------------------------------------------------------------------

async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > limit) throw errors.tooLarge();
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
	const raw = await readRaw(req, 1024 * 1024);
	if (raw.length === 0) return {};
	try {
		const value = JSON.parse(raw.toString('utf8')) as unknown;
		return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
	} catch {
		throw errors.invalid('Body is not valid JSON');
	}
}

/** The file of an upload: the raw body, or the file part of a multipart form (browsers' Blobs). */
async function readUpload(req: IncomingMessage) {
	const contentType = req.headers['content-type'] ?? 'application/octet-stream';
	const raw = await readRaw(req, GLOBAL_FILE_SIZE_LIMIT + 1024 * 1024);
	const cacheHeader = req.headers['cache-control'];
	let cacheControl = typeof cacheHeader === 'string' ? cacheHeader : 'max-age=3600';
	if (/^multipart\/form-data/i.test(contentType)) {
		const form = await new Request('http://storage.local/', {
			method: 'POST',
			headers: { 'content-type': contentType },
			body: new Uint8Array(raw),
		}).formData();
		const file = [...form.values()].find((v): v is File => typeof v !== 'string');
		if (!file) throw errors.invalid('No file in the form');
		const seconds = form.get('cacheControl');
		if (typeof seconds === 'string' && /^\d+$/.test(seconds)) cacheControl = `max-age=${seconds}`;
		return {
			body: Buffer.from(await file.arrayBuffer()),
			contentType: file.type || 'application/octet-stream',
			cacheControl,
		};
	}
	return { body: raw, contentType, cacheControl };
}

export function createStorageRoutes(
	storage: StorageService,
): (route: RoutedRequest) => Promise<void> {
	function json(route: RoutedRequest, status: number, body: unknown) {
		route.res.writeHead(status, { ...route.headers, 'content-type': 'application/json' });
		route.res.end(JSON.stringify(body));
	}

	function file(
		route: RoutedRequest,
		object: Awaited<ReturnType<StorageService['readPublic']>>,
	): void {
		const headers: Record<string, string> = {
			...route.headers,
			'content-type': object.contentType,
			'content-length': String(object.body.length),
			'cache-control': object.cacheControl,
			'x-content-type-options': 'nosniff',
		};
		if (object.eTag) headers.etag = object.eTag;
		if (object.lastModified) headers['last-modified'] = new Date(object.lastModified).toUTCString();
		// Not something hosted Storage adds: locally, an SVG opened on its own runs no script. The
		// admin portal sanitises SVGs before storing them either way.
		if (object.contentType === 'image/svg+xml') {
			headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
		}
		route.res.writeHead(200, headers);
		route.res.end(route.req.method === 'HEAD' ? undefined : object.body);
	}

	async function handle(route: RoutedRequest): Promise<void> {
		const { req, path } = route;
		const method = req.method ?? 'GET';
		const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
		const [area, ...rest] = segments;

		if (area === 'bucket') {
			const caller = await storage.caller(req);
			if (method === 'GET' && rest.length === 0)
				return json(route, 200, await storage.listBuckets());
			if (method === 'GET' && rest.length === 1)
				return json(route, 200, await storage.getBucket(rest[0]!));
			if (method === 'POST' && rest.length === 0) {
				return json(route, 200, await storage.createBucket(caller, await readJson(req)));
			}
		}
		if (area === 'object') {
			if (rest[0] === 'public' && (method === 'GET' || method === 'HEAD') && rest.length >= 3) {
				return file(route, await storage.readPublic(rest[1]!, rest.slice(2).join('/')));
			}
			const caller = await storage.caller(req);
			if (rest[0] === 'list' && method === 'POST' && rest.length === 2) {
				return json(route, 200, await storage.list(caller, rest[1]!, await readJson(req)));
			}
			if (method === 'DELETE' && rest.length === 1) {
				const body = await readJson(req);
				return json(route, 200, await storage.remove(caller, rest[0]!, body.prefixes));
			}
			const authenticated = rest[0] === 'authenticated' ? rest.slice(1) : rest;
			if ((method === 'GET' || method === 'HEAD') && authenticated.length >= 2) {
				return file(
					route,
					await storage.readAuthenticated(
						caller,
						authenticated[0]!,
						authenticated.slice(1).join('/'),
					),
				);
			}
			if ((method === 'POST' || method === 'PUT') && rest.length >= 2) {
				const upload = await readUpload(req);
				const mode =
					method === 'PUT' ? 'update' : req.headers['x-upsert'] === 'true' ? 'upsert' : 'create';
				return json(
					route,
					200,
					await storage.upload(caller, rest[0]!, rest.slice(1).join('/'), upload, mode),
				);
			}
		}
		throw new StorageError(404, 'NotFound', `Route ${method}:${path} not found`);
	}

	return async (route) => {
		try {
			await handle(route);
		} catch (error) {
			const known =
				error instanceof StorageError
					? error
					: new StorageError(500, 'InternalError', 'Internal Server Error');
			if (!(error instanceof StorageError)) {
				console.error(`[storage] ${route.req.method} ${route.path}: ${(error as Error).message}`);
			}
			if (route.res.headersSent) {
				route.res.destroy();
				return;
			}
			// src/internal/errors/storage-error.ts render()
			json(route, known.status, {
				statusCode: String(known.status),
				code: known.code,
				error: known.code,
				message: known.message,
			});
		}
	};
}
