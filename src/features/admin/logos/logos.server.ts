import { randomUUID } from 'node:crypto';
import { detectXml } from '@file-type/xml';
import type { SupabaseClient } from '../../../lib/database.ts';
import { FileTypeParser } from 'file-type';
import { BadRequest, HttpError } from '../../../lib/http.server.ts';
import { InvalidSvgError, sanitizeSvg } from './svg.server.ts';
import {
	LOGO_FORMATS,
	LOGO_MAX_BYTES,
	LOGO_MIME_TYPES,
	LOGO_TOO_LARGE,
	LOGO_WRONG_TYPE,
	logoObjectName,
	type LogoFormat,
	type LogoType,
} from './logos.ts';

/** The Storage bucket of logos (public, 5 MB, image types: supabase/schema.sql, Storage). */
const LOGOS_BUCKET = 'logos';

const parser = new FileTypeParser({ customDetectors: [detectXml] });

/**
 * The file's format read from its bytes (magic numbers; XML text for SVG), or null. XML that is
 * not well-formed is a bad file, said with the XML parser's reason, never a failure of ours.
 */
async function detectLogoFormat(bytes: Uint8Array): Promise<LogoFormat | null> {
	let found: Awaited<ReturnType<typeof parser.fromBuffer>>;
	try {
		found = await parser.fromBuffer(bytes);
	} catch (error) {
		const reason = (error as Error).message.split('\n')[0];
		throw new BadRequest(`The file is not a well-formed SVG (${reason}). ${LOGO_WRONG_TYPE}`);
	}
	if (!found) return null;
	const format = (Object.keys(LOGO_MIME_TYPES) as LogoFormat[]).find(
		(key) => key === found.ext || LOGO_MIME_TYPES[key] === found.mime,
	);
	return format ?? null;
}

/**
 * Checks a logo's bytes for its type and prepares what is stored: the format from the bytes
 * (refused when that logo type does not take it), SVGs sanitised.
 */
async function prepareLogo(
	type: LogoType,
	bytes: Uint8Array,
): Promise<{ format: LogoFormat; body: Uint8Array }> {
	const format = await detectLogoFormat(bytes);
	if (!format || !LOGO_FORMATS[type].includes(format)) throw new BadRequest(LOGO_WRONG_TYPE);
	if (format !== 'svg') return { format, body: bytes };
	try {
		return { format, body: new TextEncoder().encode(sanitizeSvg(new TextDecoder().decode(bytes))) };
	} catch (error) {
		if (error instanceof InvalidSvgError) throw new BadRequest(LOGO_WRONG_TYPE);
		throw error;
	}
}

// --- An upload: the chamber's logos, a business's (staff), a member's own ----------------------

/** A multipart body a little over the file limit is still read, so its answer can name the size. */
const MAX_BODY_BYTES = LOGO_MAX_BYTES + 256 * 1024;

/**
 * The multipart form of a logo upload, refused before it is read when the body is too large to
 * hold a logo (413, as a large file is). `fields` names what the form holds, for its 400.
 */
export async function readLogoForm(req: Request, fields: string): Promise<FormData> {
	if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) {
		throw new HttpError(413, LOGO_TOO_LARGE);
	}
	try {
		return await req.formData();
	} catch {
		throw new BadRequest(`Expected a multipart form with ${fields}`);
	}
}

/** The form's `logo` file, there and at most LOGO_MAX_BYTES, checked and prepared as `type`. */
export async function uploadedLogo(
	form: FormData,
	type: LogoType,
): Promise<{ format: LogoFormat; body: Uint8Array }> {
	const file = form.get('logo');
	if (!(file instanceof File) || file.size === 0) throw new BadRequest('Please choose a file');
	if (file.size > LOGO_MAX_BYTES) throw new HttpError(413, LOGO_TOO_LARGE);
	return prepareLogo(type, new Uint8Array(await file.arrayBuffer()));
}

/**
 * Stores a prepared logo under the chamber's folder with a new name. The database says, asked
 * with the user's own client, whether they may manage the chamber's logos (may_manage_logo:
 * its admins and super_admins); the file is then written with the service role, the only one
 * Storage's policies let write the bucket, so no file reaches it without passing the checks
 * above. Answers its public URL.
 */
export async function storeLogo(
	client: SupabaseClient,
	service: SupabaseClient,
	tenantId: string,
	type: LogoType,
	logo: { format: LogoFormat; body: Uint8Array },
): Promise<string> {
	const name = logoObjectName(tenantId, type, logo.format, randomUUID());
	const { data: allowed, error: checkError } = await client.rpc('may_manage_logo', {
		p_bucket_id: LOGOS_BUCKET,
		p_name: name,
	});
	if (checkError) {
		throw new Error(`Failed to check logo rights: ${checkError.message}`, { cause: checkError });
	}
	if (allowed !== true) throw new HttpError(403, 'You cannot upload logos for this chamber.');
	return writeLogoObject(service, name, logo);
}

/**
 * Writes a prepared logo to the bucket under `name` with the service role, the only one
 * Storage's policies let write it: callers ask the database first whether the user may.
 * Answers its public URL.
 */
export async function writeLogoObject(
	service: SupabaseClient,
	name: string,
	logo: { format: LogoFormat; body: Uint8Array },
): Promise<string> {
	const bucket = service.storage.from(LOGOS_BUCKET);
	const { error } = await bucket.upload(name, logo.body, {
		contentType: LOGO_MIME_TYPES[logo.format],
		// A name is never reused, so browsers and CDNs may keep it for good.
		cacheControl: '31536000',
		upsert: false,
	});
	if (error) throw new Error(`Failed to store the logo: ${error.message}`, { cause: error });
	return bucket.getPublicUrl(name).data.publicUrl;
}

/** Points the configuration's logo.{type} at the URL, as the user (RLS and the role trigger). */
export async function saveLogoUrl(
	client: SupabaseClient,
	tenantId: string,
	type: LogoType,
	url: string,
): Promise<void> {
	const { error } = await client.rpc('set_chamber_logo', {
		p_tenant_id: tenantId,
		p_type: type,
		p_url: url,
	});
	if (error) {
		if (error.code === '42501') throw new HttpError(403, error.message);
		throw new Error(`Failed to save logo.${type}: ${error.message}`, { cause: error });
	}
}
