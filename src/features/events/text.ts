import { htmlToText } from '../directory/text.ts';

// Event descriptions as one line of text, for meta descriptions and JSON-LD (the calendar files
// take htmlToText's lines).

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
