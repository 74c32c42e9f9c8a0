import sanitizeHtml from 'sanitize-html';
import { NON_TEXT_TAGS } from './text.ts';

/**
 * Sanitises a business or event description to the allow-list below.
 * It runs where the HTML is rendered: pre-rendered pages, the on-demand event page and the
 * calendar files, i.e. inside Netlify Functions too. sanitize-html works on a parser
 * (htmlparser2), not a DOM: DOMPurify needs one, and the only server DOM it supports (jsdom) made
 * each function carry megabytes and broke under Netlify's runtime (ERR_REQUIRE_ESM).
 */

const DESCRIPTION_TAGS = [
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

const DESCRIPTION_ATTRIBUTES = [
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

// Only these schemes survive in href/src (ftp:, sms:, xmpp: … do not); relative URLs pass. An
// image may also keep a data: source: it cannot run script.
const SCHEMES = ['http', 'https', 'mailto', 'tel'];

const OPTIONS: sanitizeHtml.IOptions = {
	allowedTags: DESCRIPTION_TAGS,
	allowedAttributes: { '*': DESCRIPTION_ATTRIBUTES },
	allowedSchemes: SCHEMES,
	allowedSchemesByTag: { img: [...SCHEMES, 'data'] },
	allowedSchemesAppliedToAttributes: ['href', 'src'],
	// Elements whose content is code or another document go with their content; any other tag
	// outside the list goes and leaves its text.
	nonTextTags: NON_TEXT_TAGS,
	// Links open in a new tab without handing the opened page a reference to ours.
	transformTags: {
		a: (tagName, attribs) => ({
			tagName,
			attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' },
		}),
	},
};

export function sanitizeDescription(html: string): string {
	return sanitizeHtml(html, OPTIONS);
}
