/**
 * The site's security headers and Content-Security-Policy, built in one place.
 *
 * - Static pages get the policy as a `<meta http-equiv>` tag written into the built HTML (their
 *   inline scripts differ per page, and `_headers` cannot say which hashes belong to which of
 *   50,000 profiles) plus, from `_headers`, the directives a meta tag cannot carry
 *   (`frame-ancestors`) and the other headers. Both policies apply; a browser enforces each.
 * - Pages rendered on demand (the event detail) and function answers cannot rely on `_headers`:
 *   Netlify applies it only to files it serves itself. The SSR middleware and the functions'
 *   `handle()` set these headers on their answers.
 *
 * Inline scripts are allowed by their SHA-256 hash, computed from the HTML that is served
 * (`inlineScriptHashes` in page-csp.ts), never from a hand-kept list; inline event-handler attributes and
 * `javascript:` URLs are therefore never allowed.
 *
 * To extend the policy for a new kind of page, add a `PageKind` and its sources in
 * `cspDirectives`, and map its paths in `pageKind`.
 */

/** Which policy a page gets: public pages are the tightest. */
export type PageKind = 'public' | 'admin';

export interface CspOptions {
	kind: PageKind;
	/** `'sha256-…'` sources of the page's inline scripts. */
	scriptHashes: readonly string[];
	/**
	 * SUPABASE_URL of the build. Admin pages talk to its /auth/v1 and load logos from its
	 * /storage/v1, so their connect-src and img-src name its origin.
	 */
	supabaseUrl?: string;
	/** services.recaptchaSiteKey is set: the contact form loads reCAPTCHA v3 (script, frame, calls). */
	recaptcha?: boolean;
	/** services.googleAnalyticsId is set: public pages load gtag.js and send to Google Analytics. */
	analytics?: boolean;
	/**
	 * The maps' tile host (`tileSource` of the tile template, src/features/geo/tiles.ts): images
	 * may come from it. Raster tiles are images, so nothing else of the policy opens for the map.
	 */
	tileSource?: string | null;
	/** 'meta' leaves out what a meta tag cannot carry (frame-ancestors); 'header' has it all. */
	delivery: 'header' | 'meta';
}

export type CspDirectives = Record<string, string[]>;

/** reCAPTCHA v3's documented hosts (the script, its frame and its calls). */
const RECAPTCHA = {
	script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
	frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
	connect: ['https://www.google.com/recaptcha/'],
};

/**
 * The Google Maps embed of a business's and an event's location (`maps.google.com/maps?…&output=
 * embed`, which redirects to www.google.com/maps).
 */
const MAPS_FRAME = ['https://maps.google.com', 'https://www.google.com/maps/'];

/** Google's documented hosts for gtag.js with Google Analytics 4. */
const ANALYTICS = {
	script: ['https://www.googletagmanager.com'],
	connect: [
		'https://*.google-analytics.com',
		'https://*.analytics.google.com',
		'https://*.googletagmanager.com',
	],
	img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
};

function originOf(url: string | undefined): string[] {
	if (!url) return [];
	try {
		return [new URL(url).origin];
	} catch {
		return [];
	}
}

/** The directives of a page's policy, before serialising (extend them here, per page kind). */
export function cspDirectives(options: CspOptions): CspDirectives {
	const admin = options.kind === 'admin';
	const analytics = options.analytics === true && !admin;
	const recaptcha = options.recaptcha === true && !admin;
	const supabase = admin ? originOf(options.supabaseUrl) : [];
	const directives: CspDirectives = {
		'default-src': ["'self'"],
		'script-src': [
			"'self'",
			...options.scriptHashes.map((hash) => `'${hash}'`),
			...(recaptcha ? RECAPTCHA.script : []),
			...(analytics ? ANALYTICS.script : []),
		],
		// Inline <style> blocks (pages inline their CSS) and style attributes of rendered islands;
		// styles cannot run script, so they are not hashed.
		'style-src': ["'self'", "'unsafe-inline'"],
		// Business logos, sponsor logos and banner images live on the members' own hosts. A sponsor
		// logo stored without a scheme is shown as http:// (as the events pages write it): an https
		// page upgrades such an image to https before its policy applies, so allowing http: only
		// keeps an http origin (npm start) showing what production shows.
		'img-src': [
			"'self'",
			'data:',
			'https:',
			'http:',
			...supabase,
			...(analytics ? ANALYTICS.img : []),
			...(options.tileSource ? [options.tileSource] : []),
		],
		'font-src': ["'self'", 'data:'],
		'connect-src': [
			"'self'",
			...supabase,
			...(recaptcha ? RECAPTCHA.connect : []),
			...(analytics ? ANALYTICS.connect : []),
		],
		// Admin pages frame only their own (the panel's preview); public pages the map embeds.
		'frame-src': admin ? ["'self'"] : [...MAPS_FRAME, ...(recaptcha ? RECAPTCHA.frame : [])],
		'object-src': ["'none'"],
		'base-uri': ["'self'"],
		'form-action': ["'self'"],
	};
	if (options.delivery === 'header') directives['frame-ancestors'] = ["'none'"];
	return directives;
}

function serializeCsp(directives: CspDirectives): string {
	return Object.entries(directives)
		.map(([name, sources]) => [name, ...new Set(sources)].join(' '))
		.join('; ');
}

export function buildCsp(options: CspOptions): string {
	return serializeCsp(cspDirectives(options));
}

/** What a JSON, image or calendar answer of a function needs: nothing may run or frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The directives a meta tag cannot carry, sent as a header with every static file (`_headers`).
 * A second policy only narrows: it has no script-src, so the page's meta policy decides scripts.
 */
export const STATIC_HEADER_CSP = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";

/** The headers every answer carries besides its Content-Security-Policy. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
	'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
	'X-Content-Type-Options': 'nosniff',
	'Referrer-Policy': 'strict-origin-when-cross-origin',
	'X-Frame-Options': 'DENY',
	// Nothing on the site uses these but the position, which 'Near me' asks this site's own pages
	// for (never a frame's); the contact form and the calendars need none of them.
	'Permissions-Policy':
		'accelerometer=(), camera=(), geolocation=(self), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()',
};

/** Sets the security headers an answer lacks (a function's own CSP, e.g. an SVG's, is kept). */
export function applySecurityHeaders(headers: Headers, csp: string): void {
	for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
		if (!headers.has(name)) headers.set(name, value);
	}
	if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', csp);
}

/**
 * The admin side: sign-in, password pages, the panel and the generator; and the member pages,
 * where a member business signs in and updates its own listing.
 */
const ADMIN_PATHS = [
	'/members',
	'/chamber-login-v2',
	'/chamber-login',
	'/forgot-password',
	'/reset-password',
	'/chamber-config-v2',
	'/chamber-config',
];

export function pageKind(pathname: string): PageKind {
	const path = pathname.replace(/\/+$/, '') || '/';
	return ADMIN_PATHS.some((p) => path === p || path.startsWith(`${p}/`)) ? 'admin' : 'public';
}
