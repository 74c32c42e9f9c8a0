import { detectXml } from '@file-type/xml';
import { FileTypeParser } from 'file-type';
import { PublicFetchRefused, type PublicFetch } from '../../lib/public-fetch.server.ts';

/** The banner image proxy's rules (docs/security.md#the-banner-image-proxy). */

/** Largest image passed through; banners are at most 970×90 px, so this is generous. */
const MAX_BANNER_BYTES = 2 * 1024 * 1024;
const BANNER_TIMEOUT_MS = 5000;

/** The one answer for every failure upstream, so the proxy tells a caller nothing about it. */
export const BANNER_FAILED = 'The banner image could not be loaded';

// Decided from the bytes, never from the upstream's Content-Type header.
const IMAGE_TYPES = new Set([
	'image/png',
	'image/jpeg',
	'image/gif',
	'image/webp',
	'image/avif',
	'image/svg+xml',
]);

// Folders of this site's own public files (the demo chamber's banners live in public/demo/).
const SITE_PATHS = ['/demo/'];

const parser = new FileTypeParser({ customDetectors: [detectXml] });

/** Why a banner image was not served: for the server's log, never for the visitor. */
class BannerImageFailure extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'BannerImageFailure';
	}
}

export type BannerSource = { kind: 'site'; path: string } | { kind: 'remote'; url: URL };

/**
 * Where a banner's image_url lives: absolute http(s) URLs as they are; the site's own files by
 * their path on this site; other relative URLs (the membership system's) prefixed with
 * urls.eventRegistrationBaseUrl.
 */
export function bannerSource(imageUrl: string, registrationBase: string): BannerSource {
	if (/^https?:\/\//i.test(imageUrl)) return { kind: 'remote', url: new URL(imageUrl) };
	const site = SITE_PATHS.find((p) => imageUrl.startsWith(p));
	if (site) {
		// Dot segments resolved, so '/demo/../admin' cannot leave the folder.
		const { pathname } = new URL(imageUrl, 'http://site.invalid');
		if (!pathname.startsWith(site)) throw new BannerImageFailure(`${imageUrl} leaves ${site}`);
		return { kind: 'site', path: pathname };
	}
	if (!/^https?:\/\//i.test(registrationBase)) {
		throw new BannerImageFailure('a relative image URL and no http(s) registration base URL');
	}
	return {
		kind: 'remote',
		url: new URL(`${registrationBase.replace(/\/+$/, '')}/${imageUrl.replace(/^\/+/, '')}`),
	};
}

async function readLimited(body: AsyncIterable<Uint8Array> | null): Promise<Buffer> {
	const chunks: Uint8Array[] = [];
	let size = 0;
	for await (const chunk of body ?? []) {
		size += chunk.byteLength;
		if (size > MAX_BANNER_BYTES) throw new BannerImageFailure('larger than 2 MB');
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

/** Fetches a remote banner image; throws what went wrong (BannerImageFailure or fetch's). */
export async function loadBannerImage(
	url: URL,
	fetcher: PublicFetch,
): Promise<{ bytes: Buffer; mime: string }> {
	const signal = AbortSignal.timeout(BANNER_TIMEOUT_MS);
	const response = await fetcher(url, { signal, headers: { accept: 'image/*' } });
	if (!response.ok) {
		await response.body?.cancel();
		throw new BannerImageFailure(`the image host answered ${response.status}`);
	}
	if (Number(response.headers.get('content-length') ?? 0) > MAX_BANNER_BYTES) {
		await response.body?.cancel();
		throw new BannerImageFailure('larger than 2 MB (Content-Length)');
	}
	const bytes = await readLimited(response.body);
	const type = await parser.fromBuffer(bytes);
	if (!type || !IMAGE_TYPES.has(type.mime)) {
		throw new BannerImageFailure(`not an image (${type?.mime ?? 'unknown type'})`);
	}
	return { bytes, mime: type.mime };
}

/** What a failure was, in one line for the log: never a stack, never the visitor's business. */
export function failureReason(error: unknown): string {
	if (error instanceof BannerImageFailure || error instanceof PublicFetchRefused) {
		return error.message;
	}
	if (error instanceof DOMException && error.name === 'TimeoutError') {
		return `no answer within ${BANNER_TIMEOUT_MS} ms`;
	}
	if (error instanceof Error) {
		const cause = error.cause as NodeJS.ErrnoException | undefined;
		return `${error.message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
	}
	return String(error);
}
