import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import { LRUCache } from 'lru-cache';

/**
 * A rendered page's policy from its HTML (security-headers.ts builds the policy): the hashes of
 * its inline scripts and the meta tag that carries it. Apart from security-headers.ts, which
 * every function loads for its answers' headers, so that the HTML tokenizer (htmlparser2) stays
 * out of the functions' zips (docs/performance.md#function-sizes).
 */

/** Types a browser runs; anything else (application/ld+json, importmap aside) is data. */
const EXECUTABLE = /^(|module|text\/javascript|application\/javascript|importmap)$/i;

/**
 * The hash of each script text seen lately: a build's pages (50,000 profiles) carry the same few
 * inline scripts, so each is hashed once instead of once per page.
 */
const scriptHashes = new LRUCache<string, string>({ max: 256 });

function scriptHash(body: string): string {
	let hash = scriptHashes.get(body);
	if (hash === undefined) {
		hash = `sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`;
		scriptHashes.set(body, hash);
	}
	return hash;
}

/**
 * `sha256-…` of every inline script element a browser would run, in page order, without repeats.
 * The page is read by an HTML tokenizer, as a browser reads it: `<script>` written inside an
 * attribute value (a meta description, say) or as escaped text is no element and gets no hash,
 * so text from the configuration can never approve a script of its own. Every script element
 * on a page is the code's: texts are escaped, and descriptions pass the sanitiser.
 */
export function inlineScriptHashes(html: string): string[] {
	const hashes = new Set<string>();
	let body: string | null = null;
	const parser = new Parser(
		{
			onopentag(name, attributes) {
				if (name !== 'script') return;
				const runs = attributes.src === undefined && EXECUTABLE.test(attributes.type?.trim() ?? '');
				body = runs ? '' : null;
			},
			ontext(text) {
				if (body !== null) body += text;
			},
			onclosetag(name) {
				if (name !== 'script' || body === null) return;
				hashes.add(scriptHash(body));
				body = null;
			},
		},
		// Script text is taken as written (no entity decoding), as the browser hashes it.
		{ decodeEntities: false },
	);
	parser.end(html);
	return [...hashes];
}

/**
 * The HTML with the policy at the top of <head>, before any script it governs (after a leading
 * `<meta charset>`, which must stay within the first 1024 bytes).
 */
export function withCspMeta(html: string, csp: string): string {
	const meta = `<meta http-equiv="Content-Security-Policy" content="${csp.replace(/"/g, '&quot;')}">`;
	const head = /<head\b[^>]*>(\s*<meta charset=[^>]*>)?/i.exec(html);
	if (!head) return html;
	const at = head.index + head[0].length;
	return `${html.slice(0, at)}${meta}${html.slice(at)}`;
}
