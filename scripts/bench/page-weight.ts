import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { init as initLexer, parse as parseModule } from 'es-module-lexer';
import { parse as parseHtml } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

/**
 * What a page costs a visitor: its HTML gzipped, and the JavaScript it loads before any
 * interaction (every script file, module preload and island component or renderer, with their
 * static imports, each file once), gzipped, from a built site's folder. bench:pages weighs its
 * pages with it, bench:month a month's traffic.
 */

type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

export interface Weights {
	html: number;
	js: number;
	inlineJs: number;
	jsFiles: string[];
}

const gzipSize = (data: string | Buffer) => gzipSync(data).length;

function walk(node: ParentNode, visit: (element: Element) => void): void {
	for (const child of node.childNodes) {
		if ('tagName' in child) {
			visit(child);
			walk('content' in child ? child.content : child, visit);
		}
	}
}

const attribute = (element: Element, name: string) =>
	element.attrs.find((a) => a.name === name)?.value;

/** Sizes of a page (its HTML, at `path`) and of the JavaScript it loads before any interaction. */
export async function weighPage(html: string, path: string, distDir: string): Promise<Weights> {
	const entries = new Set<string>();
	let inline = '';
	walk(parseHtml(html), (element) => {
		const src =
			element.tagName === 'script'
				? attribute(element, 'src')
				: element.tagName === 'link' && attribute(element, 'rel') === 'modulepreload'
					? attribute(element, 'href')
					: undefined;
		if (src) entries.add(src);
		if (element.tagName === 'astro-island') {
			for (const name of ['component-url', 'renderer-url', 'before-hydration-url']) {
				const url = attribute(element, name);
				if (url) entries.add(url);
			}
		}
		const type = attribute(element, 'type');
		if (element.tagName === 'script' && !attribute(element, 'src') && type !== 'application/json') {
			if (type !== 'application/ld+json') {
				for (const child of element.childNodes) if ('value' in child) inline += child.value;
			}
		}
	});

	// Follow static imports (not import(), which runs later) through the built files.
	await initLexer;
	const seen = new Set<string>();
	const queue = [...entries].map((url) => new URL(url, `http://site${path}`).pathname);
	let js = 0;
	while (queue.length > 0) {
		const url = queue.shift() as string;
		if (seen.has(url)) continue;
		seen.add(url);
		const code = await readFile(join(distDir, url), 'utf8');
		js += gzipSize(code);
		const [imports] = parseModule(code);
		for (const entry of imports) {
			// Without the query a Netlify build adds to asset imports (`?dpl=`, its deploy id).
			if (entry.d === -1 && entry.n) {
				queue.push(posix.join(posix.dirname(url), entry.n.replace(/\?.*$/, '')));
			}
		}
	}
	return {
		html: gzipSize(html),
		js,
		inlineJs: inline ? gzipSize(inline) : 0,
		jsFiles: [...seen],
	};
}
