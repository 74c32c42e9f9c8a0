import { createHash, randomUUID } from 'node:crypto';
import { MIMEType } from 'node:util';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, resolve, sep } from 'node:path';
import pg from 'pg';
import type { RoutedRequest } from '../auth/http.ts';
import { jwtVerify } from 'jose';

/**
 * The local stand-in for Supabase Storage (supabase/storage: src/http/routes/bucket and object,
 * src/internal/errors): the calls storage-js makes, with its answers and error shapes. Files live
 * under {dataDir}/storage/{bucket}/{name}; their rows in storage.buckets and storage.objects
 * (scripts/stack/platform/storage.sql). As Supabase Storage does, every object read and write runs in the
 * database under the caller's role and JWT claims, so row-level security on storage.objects
 * decides who may do what; the service role bypasses it.
 */

const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

/**
 * Storage's errors (src/internal/errors/codes.ts, storage-error.ts): a code, the status it
 * stands for and a legacy `error` text. Storage answers them with HTTP 400 (500 for its own
 * failures) and puts the meaningful status in the body's `statusCode` (src/http/error-handler.ts:
 * userStatusCode), which storage-js reports as `error.statusCode`; a few checks answer their
 * status for real (`withStatusCode`).
 */
class StorageError extends Error {
	readonly status: number;
	readonly code: string;
	readonly error: string;
	readonly httpStatus: number;

	constructor(
		status: number,
		code: string,
		message: string,
		options: { error?: string; httpStatus?: number } = {},
	) {
		super(message);
		this.status = status;
		this.code = code;
		this.error = options.error ?? code;
		this.httpStatus = options.httpStatus ?? (status === 500 ? 500 : 400);
	}
}

const errors = {
	bucketNotFound: () =>
		new StorageError(404, 'NoSuchBucket', 'Bucket not found', { error: 'Bucket not found' }),
	objectNotFound: () =>
		new StorageError(404, 'NoSuchKey', 'Object not found', { error: 'not_found' }),
	duplicate: () =>
		new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', {
			error: 'Duplicate',
		}),
	denied: (message = 'new row violates row-level security policy') =>
		new StorageError(403, 'AccessDenied', message, { error: 'Unauthorized' }),
	invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
	invalidBucketName: () =>
		new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', { error: 'Invalid Input' }),
	invalid: (message: string) => new StorageError(400, 'InvalidRequest', message),
	tooLarge: () =>
		new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size', {
			error: 'Payload too large',
		}),
	mime: (type: string) =>
		new StorageError(415, 'InvalidMimeType', `mime type ${type} is not supported`, {
			error: 'invalid_mime_type',
		}),
	fileSizeLimit: () =>
		new StorageError(
			400,
			'InvalidRequest',
			'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
		),
};

/** Storage's isValidKey / isValidBucketName (src/storage/limits.ts): S3-safe characters. */
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;

/** Storage's parseFileSizeToBytes: a number of bytes, or '5MB', '300KB', '1.5GB', '10B'. */
export function parseFileSizeLimit(value: unknown): number | null {
	if (value === undefined || value === null) return null;
	if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
	const match = typeof value === 'string' && /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
	if (!match) throw errors.fileSizeLimit();
	const amount = Number(parseFloat(match[1]!).toPrecision(3));
	const unit = { GB: 1e9, MB: 1e6, KB: 1000, B: 1 }[match[2]!.toUpperCase() as 'GB'];
	return Math.round(amount * unit);
}

/**
 * An upload's content type as a MIME type's essence (`type/subtype`, lowercase, parameters
 * dropped), or null when it is none: `image/svg+xml/x` is no MIME type, and would otherwise pass
 * as an SVG and be served as something else.
 */
function mimeEssence(contentType: string): string | null {
	try {
		return new MIMEType(contentType.trim()).essence;
	} catch {
		return null;
	}
}

/** Storage's validateMimeType (src/storage/uploader.ts): exact types or `type/*`. */
export function mimeTypeAllowed(type: string, allowed: readonly string[]): boolean {
	const [main, sub] = type.split('/');
	if (!main || sub === undefined) return false;
	return allowed.some((entry) => {
		const [allowedMain, allowedSub] = entry.split('/');
		return allowedMain === main && (allowedSub === '*' || allowedSub === sub);
	});
}

interface Bucket {
	id: string;
	name: string;
	owner?: string | null;
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
		// An idle connection whose database went away (restarted): the pool drops it and opens
		// another for the next query; unhandled, the error would end the process.
		this.#pool.on('error', (error) =>
			console.error(`[storage] database connection lost: ${error.message}`),
		);
		this.#root = resolve(options.dataDir, 'storage');
		this.#secret = options.jwtSecret;
	}

	close(): Promise<void> {
		return this.#pool.end();
	}

	/**
	 * The caller, as Storage's jwt plugin reads it (src/http/plugins/jwt.ts): the bearer token (the
	 * apikey when there is none), verified with the project's secret, HS256 only; a bad one is
	 * refused with jose's reason, as Storage (which uses jose too) refuses it. No token: anon.
	 */
	async caller(req: IncomingMessage): Promise<Caller> {
		const header = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
		const apikey = req.headers.apikey;
		const token = header ?? (Array.isArray(apikey) ? apikey[0] : apikey);
		if (!token) return { role: 'anon', claims: { role: 'anon' } };
		let claims: Record<string, unknown>;
		try {
			({ payload: claims } = await jwtVerify(token, new TextEncoder().encode(this.#secret), {
				algorithms: ['HS256'],
			}));
		} catch (error) {
			throw errors.denied((error as Error).message);
		}
		const role = typeof claims.role === 'string' ? claims.role : 'anon';
		if (!['anon', 'authenticated', 'service_role'].includes(role)) {
			throw errors.denied('Access denied: Invalid role');
		}
		return { role, claims };
	}

	/**
	 * Runs fn as the caller: `set local role` and the JWT claims, so RLS applies, after the same
	 * session check PostgREST makes (a signed-out session's token is refused).
	 */
	async #as<T>(caller: Caller, fn: (db: Db) => Promise<T>): Promise<T> {
		const client = await this.#pool.connect();
		try {
			await client.query('begin');
			// Storage's request scope (src/internal/database/postgres/scope.ts): the caller's role and
			// claims, and the setting its own statements carry past protect_delete.
			await client.query(
				`select set_config('role', $1, true), set_config('request.jwt.claim.role', $1, true),
					set_config('request.jwt.claim.sub', $2, true), set_config('request.jwt.claims', $3, true),
					set_config('storage.allow_delete_query', 'true', true)`,
				[
					caller.role,
					typeof caller.claims.sub === 'string' ? caller.claims.sub : '',
					JSON.stringify(caller.claims),
				],
			);
			await client.query('select auth_guard.check_session()').catch(() => {
				throw errors.denied('JWT session has ended');
			});
			const result = await fn(client);
			await client.query('commit');
			return result;
		} catch (error) {
			await client.query('rollback').catch(() => {});
			// src/storage/database/errors.ts DBError.fromDBError
			const code = (error as { code?: string }).code;
			if (code === '42501') {
				const message = (error as Error).message;
				throw errors.denied(
					message.includes('row-level security')
						? 'new row violates row-level security policy'
						: message,
				);
			}
			if (code === '23505') throw errors.duplicate();
			throw error;
		} finally {
			client.release();
		}
	}

	/** A bucket as the service sees it (Storage reads buckets as superuser for uploads and public files). */
	/** The largest file a bucket takes. */
	fileSizeLimit(bucket: Pick<Bucket, 'file_size_limit'>): number {
		// A bigint column: pg hands it over as text.
		return bucket.file_size_limit === null
			? GLOBAL_FILE_SIZE_LIMIT
			: Number(bucket.file_size_limit);
	}

	/**
	 * The bucket an upload goes to, before its body is read: an unknown bucket, or a body its
	 * Content-Length says is over the bucket's limit, is refused without reading a byte of it.
	 */
	async uploadTarget(bucketId: string, contentLength: number | undefined): Promise<number> {
		const limit = this.fileSizeLimit(await this.#bucket(bucketId));
		// A multipart form carries some bytes of its own around the file.
		const allowed = limit + MULTIPART_OVERHEAD;
		if (contentLength !== undefined && contentLength > allowed) throw errors.tooLarge();
		return allowed;
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

	/** The file of an object: Storage's key rules, and never a path outside the bucket's folder. */
	#file(bucket: string, name: string): string {
		if (
			!name ||
			!VALID_OBJECT_KEY.test(name) ||
			name.split('/').some((part) => part === '' || part === '.' || part === '..')
		) {
			throw errors.invalidKey(name);
		}
		const file = resolve(this.#root, bucket, name);
		if (!file.startsWith(this.#root + sep)) throw errors.invalidKey(name);
		return file;
	}

	// --- Buckets -----------------------------------------------------------------------------------

	/** POST /bucket (createBucket.ts): as the caller, so RLS on storage.buckets decides. */
	async createBucket(caller: Caller, body: Record<string, unknown>) {
		const name = typeof body.name === 'string' ? body.name : '';
		const id = typeof body.id === 'string' && body.id ? body.id : name;
		if (!name) throw errors.invalid("body must have required property 'name'");
		if (!VALID_BUCKET_NAME.test(id) || id.length > 100) throw errors.invalidBucketName();
		const fileSizeLimit = parseFileSizeLimit(body.file_size_limit);
		const mimeTypes = Array.isArray(body.allowed_mime_types)
			? body.allowed_mime_types.filter((m): m is string => typeof m === 'string' && m !== '')
			: null;
		const owner = typeof caller.claims.sub === 'string' ? caller.claims.sub : null;
		await this.#as(caller, (db) =>
			db.query(
				`insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit,
					allowed_mime_types)
				values ($1, $2, $3::uuid, $3::text, $4, $5, $6)`,
				[id, name, owner, body.public === true, fileSizeLimit, mimeTypes],
			),
		);
		return { name };
	}

	/** GET /bucket/{id}: the buckets the caller may see (RLS), else Bucket not found. */
	async getBucket(caller: Caller, id: string) {
		const { rows } = await this.#as(caller, (db) =>
			db.query<Bucket>(
				`select id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at
				from storage.buckets where id = $1`,
				[id],
			),
		);
		if (!rows[0]) throw errors.bucketNotFound();
		return rows[0];
	}

	/** GET /bucket: the buckets the caller may see (RLS; none for anon without a policy). */
	async listBuckets(caller: Caller) {
		const { rows } = await this.#as(caller, (db) =>
			db.query<Bucket>(
				`select id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at
				from storage.buckets order by name`,
			),
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
		if (file.body.length > this.fileSizeLimit(bucket)) throw errors.tooLarge();
		const type = mimeEssence(file.contentType);
		if (!type) throw errors.mime(file.contentType);
		if (bucket.allowed_mime_types?.length && !mimeTypeAllowed(type, bucket.allowed_mime_types)) {
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
					`insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
					values ($1, $2, $3::uuid, $3::text, $4, $5)
					on conflict (bucket_id, name) do update
						set metadata = excluded.metadata, version = excluded.version, updated_at = now()
					returning id`,
					[bucketId, name, owner, metadata, version],
				));
			} else {
				// No RETURNING: it would need a select policy too, and Supabase asks only for insert.
				const objectId = randomUUID();
				await db.query(
					`insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, version)
					values ($1, $2, $3, $4::uuid, $4::text, $5, $6)`,
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
		// getPublicObject.ts: findBucket(…, { isPublic: true }), so a private bucket is not found.
		const bucket = await this.#bucket(bucketId);
		if (!bucket.public) throw errors.bucketNotFound();
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

/** Room for a multipart form's own parts around its file. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * The file of an upload: the raw body, or the file part of a multipart form (browsers' Blobs),
 * read only up to `limit` bytes (the bucket's): past it the upload is refused without reading on.
 */
async function readUpload(req: IncomingMessage, limit: number) {
	const contentType = req.headers['content-type'] ?? 'application/octet-stream';
	const raw = await readRaw(req, limit);
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
		let segments: string[];
		try {
			segments = path.split('/').filter(Boolean).map(decodeURIComponent);
		} catch {
			throw errors.invalid(`Invalid path: ${path} is not a valid URL-encoded path`);
		}
		const [area, ...rest] = segments;

		if (area === 'bucket') {
			const caller = await storage.caller(req);
			if (method === 'GET' && rest.length === 0)
				return json(route, 200, await storage.listBuckets(caller));
			if (method === 'GET' && rest.length === 1)
				return json(route, 200, await storage.getBucket(caller, rest[0]!));
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
				// The caller's token is checked above and the bucket's limit here, before the body.
				const length = Number(req.headers['content-length']);
				const limit = await storage.uploadTarget(
					rest[0]!,
					Number.isFinite(length) ? length : undefined,
				);
				const upload = await readUpload(req, limit);
				const mode =
					method === 'PUT' ? 'update' : req.headers['x-upsert'] === 'true' ? 'upsert' : 'create';
				return json(
					route,
					200,
					await storage.upload(caller, rest[0]!, rest.slice(1).join('/'), upload, mode),
				);
			}
		}
		// Fastify's own answer for a route it does not have: a real 404.
		throw new StorageError(404, 'NotFound', `Route ${method}:${path} not found`, {
			error: 'Not Found',
			httpStatus: 404,
		});
	}

	return async (route) => {
		try {
			await handle(route);
		} catch (error) {
			const known =
				error instanceof StorageError
					? error
					: new StorageError(500, 'InternalError', 'Internal Server Error', { error: 'Internal' });
			if (!(error instanceof StorageError)) {
				console.error(`[storage] ${route.req.method} ${route.path}: ${(error as Error).message}`);
			}
			if (route.res.headersSent) {
				route.res.destroy();
				return;
			}
			// src/internal/errors/storage-error.ts render(), sent as src/http/error-handler.ts does.
			json(route, known.httpStatus, {
				statusCode: String(known.status),
				code: known.code,
				error: known.error,
				message: known.message,
			});
		}
	};
}
