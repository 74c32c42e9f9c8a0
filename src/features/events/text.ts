import { parseDocument } from 'htmlparser2';
import { sanitizeDescription } from '../directory/sanitize.ts';

// Event descriptions as plain text, for meta descriptions, JSON-LD and calendar files. The HTML
// itself is sanitised by the directory's sanitizeDescription (the same spec 02 §5 allow-list).
// A parser, not a DOM: this runs in the calendar-file functions and the on-demand event page.

type Node = ReturnType<typeof parseDocument>['children'][number];

const BLOCKS = new Set([
	'p',
	'div',
	'li',
	'tr',
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'ul',
	'ol',
	'table',
]);

function textOf(nodes: readonly Node[]): string {
	let text = '';
	for (const node of nodes) {
		if (node.type === 'text') text += node.data;
		else if ('name' in node && 'children' in node) {
			if (node.name === 'br') {
				text += '\n';
				continue;
			}
			if (node.name === 'li') text += '• ';
			text += textOf(node.children);
			if (BLOCKS.has(node.name)) text += '\n';
			if (node.name === 'td' || node.name === 'th') text += ' ';
		}
	}
	return text;
}

/**
 * Blocks and line breaks become new lines, list items get a bullet, entities are decoded and no
 * markup survives.
 */
export function htmlToText(html: string): string {
	// Entities are decoded by the parser, so a decoded '<' stays text.
	return textOf(parseDocument(sanitizeDescription(html)).children)
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
