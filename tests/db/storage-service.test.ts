// Runs on: both — the local file service, on PGlite in the stack's storage tables, and on the
// hosted shape with Supabase Storage's tables, login and policies (postgres mode).
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createClient } from '@supabase/supabase-js';
import type { Database, SupabaseClient } from '../../src/lib/database.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, db, service, stack } from './clients.ts';
import { importTenant } from '../../src/features/tenants/tenants.server.ts';
import { parseTenantFile } from '../../src/features/tenants/tenant-file.ts';
import { randomSlug } from './fixtures.ts';

// The local file service through supabase-js's own `storage` client, as the app uses it: buckets,
// uploads, public URLs, listing and removal, and row-level security on storage.objects deciding
// what a signed-in user may write, as on Supabase.

const bucket = `test-${randomBytes(4).toString('hex')}`;
const privateBucket = `${bucket}-private`;
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);
const policy = `Test users write their own folder of ${bucket}`;
let user: { client: SupabaseClient; id: string };
let slug: string;

beforeAll(async () => {
	await db.connect();
	slug = randomSlug('storage');
	const email = `writer-${slug}@storage-service.test`;
	await importTenant(
		service,
		parseTenantFile(
			{
				tenant: { slug, name: 'Storage chamber' },
				users: [{ email, password: 'storage-pass', role: 'admin' }],
			},
			'fixture',
		),
	);
	const client = createClient<Database>(stack.supabaseUrl, stack.anonKey, {
		auth: { persistSession: false },
	});
	const { data, error } = await client.auth.signInWithPassword({ email, password: 'storage-pass' });
	if (error) throw error;
	user = { client, id: data.user!.id };
	expect(
		(
			await service.storage.createBucket(bucket, {
				public: true,
				fileSizeLimit: 1024,
				allowedMimeTypes: ['image/png', 'image/svg+xml'],
			})
		).error,
	).toBeNull();
	expect((await service.storage.createBucket(privateBucket, { public: false })).error).toBeNull();
	await db.query(
		`create policy "${policy}" on storage.objects for insert to authenticated
		with check (bucket_id = '${bucket}' and (storage.foldername(name))[1] = auth.uid()::text)`,
	);
});

afterAll(async () => {
	await db.query(`drop policy if exists "${policy}" on storage.objects`);
	// Storage's tables refuse deletes but the Storage API's own (protect_delete): as it does.
	await db.query('begin');
	await db.query(`set local storage.allow_delete_query = 'true'`);
	await db.query('delete from storage.objects where bucket_id = any($1)', [
		[bucket, privateBucket],
	]);
	await db.query('delete from storage.buckets where id = any($1)', [[bucket, privateBucket]]);
	await db.query('commit');
	await db.query('delete from public.tenants where slug = $1', [slug]);
	await db.query(`delete from auth.users where email like '%@storage-service.test'`);
	await db.end();
});

describe('buckets and public files', () => {
	it('uploads with the service key and serves the public URL with its type', async () => {
		const { data, error } = await service.storage
			.from(bucket)
			.upload('shared/dot.png', PNG, { contentType: 'image/png', cacheControl: '60' });
		expect(error).toBeNull();
		expect(data).toMatchObject({ path: 'shared/dot.png', fullPath: `${bucket}/shared/dot.png` });
		const url = service.storage.from(bucket).getPublicUrl('shared/dot.png').data.publicUrl;
		expect(url).toBe(`${stack.supabaseUrl}/storage/v1/object/public/${bucket}/shared/dot.png`);
		const res = await fetch(url);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('image/png');
		expect(res.headers.get('x-content-type-options')).toBe('nosniff');
		expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
	});

	it("answers Storage's errors: duplicate, too large, wrong type, unknown bucket and key", async () => {
		const again = await service.storage
			.from(bucket)
			.upload('shared/dot.png', PNG, { contentType: 'image/png' });
		expect(again.error).toMatchObject({ message: 'The resource already exists' });
		const upsert = await service.storage
			.from(bucket)
			.upload('shared/dot.png', PNG, { contentType: 'image/png', upsert: true });
		expect(upsert.error).toBeNull();
		const big = await service.storage
			.from(bucket)
			.upload('shared/big.png', Buffer.alloc(1025), { contentType: 'image/png' });
		expect(big.error).toMatchObject({ message: 'The object exceeded the maximum allowed size' });
		const gif = await service.storage
			.from(bucket)
			.upload('shared/x.gif', Buffer.from('GIF89a'), { contentType: 'image/gif' });
		expect(gif.error).toMatchObject({ message: 'mime type image/gif is not supported' });
		expect((await service.storage.from('no-such-bucket').upload('a.png', PNG)).error).toMatchObject(
			{
				message: 'Bucket not found',
			},
		);
		const missing = await fetch(
			`${stack.supabaseUrl}/storage/v1/object/public/${bucket}/nothing.png`,
		);
		// Storage's legacy answer: HTTP 400 with the real status in the body (supabase/storage#323).
		expect(missing.status).toBe(400);
		expect(await missing.json()).toEqual({
			statusCode: '404',
			code: 'NoSuchKey',
			error: 'not_found',
			message: 'Object not found',
		});
		const traversal = await service.storage
			.from(bucket)
			.upload('../escape.png', PNG, { contentType: 'image/png' });
		expect(traversal.error).not.toBeNull();
	});

	it('reads a content type as a MIME type: one that is none is refused, not served as another', async () => {
		const odd = await service.storage
			.from(bucket)
			.upload('shared/odd.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', {
				contentType: 'image/svg+xml/x',
			});
		expect(odd.error).toMatchObject({ message: 'mime type image/svg+xml/x is not supported' });
		const withParameters = await service.storage
			.from(bucket)
			.upload('shared/plain.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', {
				contentType: 'Image/SVG+XML; charset=utf-8',
			});
		expect(withParameters.error).toBeNull();
		const served = await fetch(
			service.storage.from(bucket).getPublicUrl('shared/plain.svg').data.publicUrl,
		);
		expect(served.headers.get('content-type')).toBe('image/svg+xml');
		expect(served.headers.get('content-security-policy')).toContain('sandbox');
	});

	it('answers a bad escape in a path with 400, and refuses a body over the bucket’s limit before reading it', async () => {
		const bad = await fetch(
			`${stack.supabaseUrl}/storage/v1/object/${bucket}/shared/%E0%A4%A.png`,
			{
				method: 'POST',
				headers: { apikey: stack.serviceKey, authorization: `Bearer ${stack.serviceKey}` },
				body: PNG,
			},
		);
		expect(bad.status).toBe(400);
		expect(await bad.json()).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
		// Headers announcing 6 MB, and not a byte of the body sent: the answer comes anyway.
		const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
			const url = new URL(`${stack.supabaseUrl}/storage/v1/object/${bucket}/shared/huge.png`);
			const req = httpRequest(
				{
					hostname: url.hostname,
					port: url.port,
					path: url.pathname,
					method: 'POST',
					headers: {
						apikey: stack.serviceKey,
						authorization: `Bearer ${stack.serviceKey}`,
						'content-type': 'image/png',
						'content-length': String(6 * 1024 * 1024),
					},
				},
				(res) => {
					let body = '';
					res.on('data', (c: Buffer) => (body += c));
					res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
				},
			);
			req.on('error', reject);
			req.flushHeaders();
		});
		expect(answer.status).toBe(400);
		expect(JSON.parse(answer.body)).toMatchObject({ statusCode: '413', code: 'EntityTooLarge' });
	});

	it('a private bucket serves nothing publicly, and its files to the service role', async () => {
		await service.storage
			.from(privateBucket)
			.upload('secret.png', PNG, { contentType: 'image/png' });
		const pub = await fetch(
			`${stack.supabaseUrl}/storage/v1/object/public/${privateBucket}/secret.png`,
		);
		expect(pub.status).toBe(400);
		expect(await pub.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
		const { data, error } = await service.storage.from(privateBucket).download('secret.png');
		expect(error).toBeNull();
		expect(Buffer.from(await data!.arrayBuffer())).toEqual(PNG);
		expect((await anon.storage.from(privateBucket).download('secret.png')).error).not.toBeNull();
	});

	it('lists one level and removes files', async () => {
		await service.storage.from(bucket).upload('list/a.png', PNG, { contentType: 'image/png' });
		await service.storage.from(bucket).upload('list/sub/b.png', PNG, { contentType: 'image/png' });
		const { data } = await service.storage.from(bucket).list('list');
		expect(data?.map((e) => e.name).sort()).toEqual(['a.png', 'sub']);
		const removed = await service.storage.from(bucket).remove(['list/a.png']);
		expect(removed.data?.map((r) => r.name)).toEqual(['list/a.png']);
		expect(
			await (
				await fetch(`${stack.supabaseUrl}/storage/v1/object/public/${bucket}/list/a.png`)
			).json(),
		).toMatchObject({ statusCode: '404' });
	});
});

describe('row-level security on storage.objects decides, with the caller’s token', () => {
	it('a user writes where a policy lets them, and nowhere else; anon nowhere', async () => {
		const own = await user.client.storage
			.from(bucket)
			.upload(`${user.id}/logo.svg`, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), {
				contentType: 'image/svg+xml',
			});
		expect(own.error).toBeNull();
		const served = await fetch(
			user.client.storage.from(bucket).getPublicUrl(`${user.id}/logo.svg`).data.publicUrl,
		);
		expect(served.headers.get('content-security-policy')).toContain('sandbox');

		const elsewhere = await user.client.storage
			.from(bucket)
			.upload('someone-else/logo.png', PNG, { contentType: 'image/png' });
		expect(elsewhere.error).toMatchObject({
			message: 'new row violates row-level security policy',
		});
		expect(
			(
				await anon.storage
					.from(bucket)
					.upload(`${user.id}/x.png`, PNG, { contentType: 'image/png' })
			).error,
		).not.toBeNull();
		const { rows } = await db.query(
			'select name, owner from storage.objects where bucket_id = $1 and name like $2',
			[bucket, `${user.id}/%`],
		);
		expect(rows).toEqual([{ name: `${user.id}/logo.svg`, owner: user.id }]);
		// Without a delete policy the user cannot remove even their own file.
		expect((await user.client.storage.from(bucket).remove([`${user.id}/logo.svg`])).data).toEqual(
			[],
		);
	});
});
