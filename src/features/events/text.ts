import { JSDOM } from 'jsdom';
import { sanitizeDescription } from '../directory/sanitize.ts';

// Event descriptions as plain text, for meta descriptions, JSON-LD and calendar files. The HTML
// itself is sanitised by the directory's sanitizeDescription (the same spec 02 §5 allow-list).

let window: JSDOM['window'] | undefined;

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
 * Blocks and line breaks become new lines, list items get a bullet, entities are decoded and no
 * markup survives.
 */
export function htmlToText(html: string): string {
	window ??= new JSDOM('').window;
	const root = window.document.createElement('div');
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

/**
 * One line for meta descriptions: the text's lines as sentences (a heading or list item without
 * its own full stop gets one), bullets dropped, cut to `max` characters.
 */
export function summaryText(html: string, max: number): string {
	const sentences = htmlToText(html)
		.split('\n')
		.map((line) => line.replace(/^• /, '').trim())
		.filter(Boolean)
		.map((line) => (/[.!?:…]$/.test(line) ? line : `${line}.`));
	return truncate(sentences.join(' '), max);
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
