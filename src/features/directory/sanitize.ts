import DOMPurify from 'isomorphic-dompurify';

/**
 * Sanitises a business description (spec 01 §5) for the profile's About section. Runs at build
 * time in Node (isomorphic-dompurify brings jsdom) and in the browser (plain DOMPurify), which is
 * why it is a module of its own: importing it costs a DOM.
 */

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

// Only these schemes survive in href/src (DOMPurify's default also lets ftp:, sms:, xmpp: … through);
// relative URLs pass. Same shape as DOMPurify's own default expression.
const ALLOWED_URI = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.:-]|$))/i;

// Links open in a new tab without handing the opened page a reference to ours.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
	if (node.tagName === 'A') {
		node.setAttribute('target', '_blank');
		node.setAttribute('rel', 'noopener noreferrer');
	}
});

export function sanitizeDescription(html: string): string {
	return DOMPurify.sanitize(html, {
		ALLOWED_TAGS: DESCRIPTION_TAGS,
		ALLOWED_ATTR: DESCRIPTION_ATTRIBUTES,
		ALLOWED_URI_REGEXP: ALLOWED_URI,
		ALLOW_DATA_ATTR: false,
		ALLOW_ARIA_ATTR: false,
	});
}
