import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, withCspMeta } from './page-csp.ts';
import {
	buildCsp,
	cspDirectives,
	pageKind,
	SECURITY_HEADERS,
	STATIC_HEADER_CSP,
} from './security-headers.ts';

const sha = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('inlineScriptHashes', () => {
	it('hashes the inline scripts a browser runs, not external or data scripts', () => {
		const html = [
			'<script>one()</script>',
			'<script type="module">two()</script>',
			'<script type="application/ld+json">{"a":1}</script>',
			'<script src="/_astro/x.js"></script>',
			"<script type='text/javascript'>three()</script>",
			'<script>one()</script>',
		].join('\n');
		expect(inlineScriptHashes(html)).toEqual([sha('one()'), sha('two()'), sha('three()')]);
	});

	it('never hashes a script written inside an attribute or as text, as configuration text is', () => {
		const injected = 'alert(document.cookie)';
		const html = [
			`<meta name="description" content="<script>${injected}</script>">`,
			`<a title='<script>${injected}</script>' href="/">x</a>`,
			`<p>&lt;script&gt;${injected}&lt;/script&gt;</p>`,
			`<textarea><script>${injected}</script></textarea>`,
			`<title><script>${injected}</script></title>`,
			'<script>real()</script>',
		].join('\n');
		expect(inlineScriptHashes(html)).toEqual([sha('real()')]);
	});

	it('hashes a script body as written, entities and all', () => {
		expect(inlineScriptHashes('<script>if (a &amp;&amp; b) go()</script>')).toEqual([
			sha('if (a &amp;&amp; b) go()'),
		]);
	});
});

describe('the Content-Security-Policy', () => {
	const base = { scriptHashes: ['sha256-abc'], supabaseUrl: 'https://ref.supabase.co/' };

	it('keeps public pages to this site, scripts by hash, no framing, no plugins', () => {
		const csp = buildCsp({ ...base, kind: 'public', delivery: 'header' });
		expect(csp).toContain("default-src 'self'");
		expect(csp).toContain("script-src 'self' 'sha256-abc';");
		expect(csp).toContain("object-src 'none'");
		expect(csp).toContain("base-uri 'self'");
		expect(csp).toContain("frame-ancestors 'none'");
		expect(
			cspDirectives({ ...base, kind: 'public', delivery: 'header' })['script-src'],
		).not.toContain("'unsafe-inline'");
		expect(csp).not.toContain('supabase.co');
		// Google only for the map embeds' frames: no script, call or image host of theirs.
		expect(csp).not.toMatch(/googletagmanager|recaptcha|google-analytics/);
	});

	it('lets admin pages reach the build’s SUPABASE_URL, and no analytics there', () => {
		const admin = cspDirectives({ ...base, kind: 'admin', delivery: 'meta', analytics: true });
		expect(admin['connect-src']).toEqual(["'self'", 'https://ref.supabase.co']);
		expect(admin['img-src']).toContain('https://ref.supabase.co');
		expect(admin['script-src']).toEqual(["'self'", "'sha256-abc'"]);
		// A meta tag cannot carry frame-ancestors (the _headers header does).
		expect(admin['frame-ancestors']).toBeUndefined();
	});

	it('adds exactly the gtag and reCAPTCHA hosts when they are configured', () => {
		const on = cspDirectives({
			...base,
			kind: 'public',
			delivery: 'header',
			analytics: true,
			recaptcha: true,
		});
		expect(on['script-src']).toEqual([
			"'self'",
			"'sha256-abc'",
			'https://www.google.com/recaptcha/',
			'https://www.gstatic.com/recaptcha/',
			'https://www.googletagmanager.com',
		]);
		expect(on['frame-src']).toContain('https://www.google.com/recaptcha/');
		expect(on['frame-src']).toContain('https://maps.google.com');
	});

	it("lets images come from the map's tile host, and opens nothing else for the map", () => {
		const without = cspDirectives({ ...base, kind: 'public', delivery: 'meta' });
		const tiles = 'http://127.0.0.1:57305';
		const withTiles = cspDirectives({
			...base,
			kind: 'public',
			delivery: 'meta',
			tileSource: tiles,
		});
		expect(withTiles['img-src']).toEqual([...without['img-src']!, tiles]);
		for (const directive of ['script-src', 'connect-src', 'frame-src', 'style-src']) {
			expect(withTiles[directive], directive).toEqual(without[directive]);
		}
		expect(without['img-src']).not.toContain(tiles);
	});

	it('lets pages ask for the position, never a frame', () => {
		expect(SECURITY_HEADERS['Permissions-Policy']).toContain('geolocation=(self)');
		expect(SECURITY_HEADERS['Permissions-Policy']).toContain('camera=()');
	});

	it('goes first into <head>, after its charset', () => {
		expect(withCspMeta('<html><head><meta charset="utf-8"><script>x()</script>', 'a')).toBe(
			'<html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="a"><script>x()</script>',
		);
		const html = '<!doctype html><html><head><script>x()</script></head></html>';
		expect(withCspMeta(html, "default-src 'self'")).toBe(
			`<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'"><script>x()</script></head></html>`,
		);
	});
});

describe('pageKind', () => {
	it.each([
		['/', 'public'],
		['/search', 'public'],
		['/chamber-config/generator/', 'admin'],
		['/chamber-config-v2', 'admin'],
		['/chamber-login-v2/', 'admin'],
		['/reset-password', 'admin'],
		['/members/listing/', 'admin'],
		['/members-area', 'public'],
		['/chamber-configs', 'public'],
	])('%s is %s', (path, kind) => expect(pageKind(path)).toBe(kind));
});

describe('public/_headers', () => {
	it('sends the builder’s headers with every static file', () => {
		const text = readFileSync(new URL('../../public/_headers', import.meta.url), 'utf8');
		const block = /^\/\*\n((?: {2}.+\n)+)/m.exec(text)?.[1] ?? '';
		const headers = Object.fromEntries(
			block
				.trim()
				.split('\n')
				.map((line) => {
					const at = line.indexOf(':');
					return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
				}),
		);
		expect(headers).toEqual({
			...SECURITY_HEADERS,
			'Content-Security-Policy': STATIC_HEADER_CSP,
		});
	});
});
