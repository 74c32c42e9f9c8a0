import createDOMPurify, { type DOMPurify } from 'dompurify';
import { JSDOM } from 'jsdom';

// Event descriptions are HTML from the membership system. They are sanitised on the server (the
// detail page is rendered there), with DOMPurify over a jsdom window.

/** Spec 02 §5: the tags and attributes a description may keep. */
export const DESCRIPTION_TAGS = [
	'p',
	'br',
	'strong',
	'em',
	'u',
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'ul',
	'ol',
	'li',
	'a',
	'img',
	'table',
	'thead',
	'tbody',
	'tr',
	'th',
	'td',
	'span',
	'div',
];
export const DESCRIPTION_ATTRIBUTES = [
	'href',
	'src',
	'alt',
	'title',
	'target',
	'rel',
	'width',
	'height',
	'align',
];

let window: JSDOM['window'] | undefined;
let purify: DOMPurify | undefined;

function domWindow(): JSDOM['window'] {
	window ??= new JSDOM('').window;
	return window;
}

function purifier(): DOMPurify {
	if (purify) return purify;
	purify = createDOMPurify(domWindow());
	// Links leave the site in a new tab, without handing it our window (spec 02 §5).
	purify.addHook('afterSanitizeAttributes', (node) => {
		if (node.nodeName === 'A' && node.hasAttribute('href')) {
			node.setAttribute('target', '_blank');
			node.setAttribute('rel', 'noopener noreferrer');
		}
	});
	return purify;
}

/** The description reduced to the allow-list, links opening in a new tab. */
export function sanitizeDescription(html: string): string {
	return purifier().sanitize(html, {
		ALLOWED_TAGS: DESCRIPTION_TAGS,
		ALLOWED_ATTR: DESCRIPTION_ATTRIBUTES,
	});
}

const BLOCKS = new Set([
	'P',
	'DIV',
	'LI',
	'TR',
	'H1',
	'H2',
	'H3',
	'H4',
	'H5',
	'H6',
	'UL',
	'OL',
	'TABLE',
]);

/**
 * The description as plain text, for meta descriptions, JSON-LD and calendar files: blocks and
 * line breaks become new lines, list items get a bullet, entities are decoded.
 */
export function htmlToText(html: string): string {
	const document = domWindow().document;
	const root = document.createElement('div');
	root.innerHTML = sanitizeDescription(html);
	for (const element of root.querySelectorAll('*')) {
		if (element.nodeName === 'BR') element.replaceWith('\n');
		else if (element.nodeName === 'LI') element.prepend('• ');
		if (BLOCKS.has(element.nodeName)) element.append('\n');
		if (element.nodeName === 'TD' || element.nodeName === 'TH') element.append(' ');
	}
	return (root.textContent ?? '')
		.split('\n')
		.map((line) => line.replace(/\s+/g, ' ').trim())
		.join('\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/** At most `max` characters, ending in '…' when cut. */
export function truncate(text: string, max: number): string {
	const chars = [...text];
	if (chars.length <= max) return text;
	return `${chars
		.slice(0, max - 1)
		.join('')
		.trimEnd()}…`;
}
