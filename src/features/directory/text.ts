import { parseDocument } from 'htmlparser2';

// Descriptions (business listings, events) as plain text: for cards, meta descriptions, JSON-LD
// and calendar files. A parser, not a DOM, and not the sanitiser: it runs in the directory and
// events functions, which must stay small (docs/performance.md#function-sizes).

type Node = ReturnType<typeof parseDocument>['children'][number];

/** Elements whose content is code or another document, never text (the sanitiser drops them too). */
export const NON_TEXT_TAGS = [
	'script',
	'style',
	'textarea',
	'option',
	'noscript',
	'template',
	'title',
	'iframe',
	'object',
	'noembed',
	'noframes',
	'xmp',
	'svg',
	'math',
];
const SKIPPED = new Set(NON_TEXT_TAGS);

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
			if (SKIPPED.has(node.name)) continue;
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
 * markup survives (the parser decodes entities, so a decoded '<' stays text).
 */
export function htmlToText(html: string): string {
	return textOf(parseDocument(html).children)
		.split('\n')
		.map((line) => line.replace(/\s+/g, ' ').trim())
		.join('\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/** On one line: a card's short description. */
export function plainText(html: string): string {
	return htmlToText(html).replace(/^• /gm, '').replace(/\s+/g, ' ').trim();
}
