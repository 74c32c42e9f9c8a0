import sanitizeHtml from 'sanitize-html';

/**
 * SVG logos are sanitised before they are stored: hosted Storage serves them as they are, and an
 * SVG opened on its own is a document that could run script.
 *
 * Why sanitize-html and not DOMPurify: DOMPurify needs a DOM, and the only server-side DOM it
 * supports is jsdom (its README calls happy-dom unsafe; on linkedom it does not run and returns
 * its input unchanged). jsdom made upload-logo a 5 MB zip, over the 2.5 MB each function may
 * weigh. sanitize-html is an allow-list sanitiser on htmlparser2, without a DOM; here it parses
 * the file as XML (as a browser parses an SVG file: names keep their case) and writes out only
 * what the allow-list below names.
 *
 * Kept: SVG's drawing elements, gradients, patterns, clip paths, masks, filters and text, with
 * their presentation attributes. Removed: everything else — script, style, foreignObject, a,
 * image, use, animation elements, every event handler — plus every href/xlink:href other than a
 * reference inside the file (`#id`), and style or paint attributes that load anything (`url(`
 * other than `url(#…)`), so the logo references nothing outside itself.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

const ELEMENTS = [
	'svg',
	'g',
	'defs',
	'title',
	'desc',
	'symbol',
	'path',
	'rect',
	'circle',
	'ellipse',
	'line',
	'polyline',
	'polygon',
	'text',
	'tspan',
	'textPath',
	'linearGradient',
	'radialGradient',
	'stop',
	'clipPath',
	'mask',
	'pattern',
	'marker',
	'filter',
	'feBlend',
	'feColorMatrix',
	'feComponentTransfer',
	'feComposite',
	'feDropShadow',
	'feFlood',
	'feFuncA',
	'feFuncB',
	'feFuncG',
	'feFuncR',
	'feGaussianBlur',
	'feMerge',
	'feMergeNode',
	'feMorphology',
	'feOffset',
];

const ATTRIBUTES = [
	'id',
	'class',
	'xmlns',
	'xmlns:xlink',
	'version',
	'xml:space',
	'viewBox',
	'preserveAspectRatio',
	'width',
	'height',
	'x',
	'y',
	'x1',
	'y1',
	'x2',
	'y2',
	'cx',
	'cy',
	'r',
	'rx',
	'ry',
	'fx',
	'fy',
	'fr',
	'd',
	'points',
	'pathLength',
	'transform',
	'style',
	'fill',
	'fill-opacity',
	'fill-rule',
	'stroke',
	'stroke-width',
	'stroke-linecap',
	'stroke-linejoin',
	'stroke-miterlimit',
	'stroke-dasharray',
	'stroke-dashoffset',
	'stroke-opacity',
	'opacity',
	'color',
	'display',
	'visibility',
	'overflow',
	'vector-effect',
	'shape-rendering',
	'text-rendering',
	'clip-path',
	'clip-rule',
	'clipPathUnits',
	'mask',
	'maskUnits',
	'maskContentUnits',
	'filter',
	'filterUnits',
	'primitiveUnits',
	'offset',
	'stop-color',
	'stop-opacity',
	'gradientUnits',
	'gradientTransform',
	'spreadMethod',
	'patternUnits',
	'patternContentUnits',
	'patternTransform',
	'markerWidth',
	'markerHeight',
	'markerUnits',
	'refX',
	'refY',
	'orient',
	'marker-start',
	'marker-mid',
	'marker-end',
	'font-family',
	'font-size',
	'font-style',
	'font-weight',
	'text-anchor',
	'dominant-baseline',
	'alignment-baseline',
	'baseline-shift',
	'letter-spacing',
	'word-spacing',
	'text-decoration',
	'dx',
	'dy',
	'rotate',
	'textLength',
	'lengthAdjust',
	'startOffset',
	'href',
	'xlink:href',
	'in',
	'in2',
	'result',
	'mode',
	'operator',
	'k1',
	'k2',
	'k3',
	'k4',
	'values',
	'type',
	'tableValues',
	'slope',
	'intercept',
	'amplitude',
	'exponent',
	'stdDeviation',
	'flood-color',
	'flood-opacity',
	'radius',
	'color-interpolation-filters',
];

/** `url(` that points anywhere but inside the file. */
const OUTSIDE_URL = /url\s*\(\s*['"]?\s*(?!#)/i;
const INSIDE_REFERENCE = /^#[\w.-]+$/;

function keepAttribute(name: string, value: string): boolean {
	if (name === 'href' || name === 'xlink:href') return INSIDE_REFERENCE.test(value.trim());
	if (name === 'xmlns') return value === SVG_NS;
	if (name === 'xmlns:xlink') return value === XLINK_NS;
	// Entities and escapes could hide a url( from the check below; such values are dropped.
	if (/[\\&]/.test(value) && /[(:]/.test(value)) return false;
	return !OUTSIDE_URL.test(value);
}

const OPTIONS: sanitizeHtml.IOptions = {
	allowedTags: ELEMENTS,
	allowedAttributes: { '*': ATTRIBUTES },
	// No scheme is allowed: the only href left is `#id` (keepAttribute).
	allowedSchemes: [],
	allowedSchemesAppliedToAttributes: ['href', 'xlink:href'],
	allowProtocolRelative: false,
	// A removed element's children stay (a link's shapes are still drawn), except these, which go
	// with everything inside them.
	disallowedTagsMode: 'discard',
	nonTextTags: [
		'script',
		'style',
		'textarea',
		'option',
		'noscript',
		'foreignObject',
		'image',
		'use',
		'animate',
		'set',
		'iframe',
		'metadata',
	],
	parser: {
		xmlMode: true,
		lowerCaseTags: false,
		lowerCaseAttributeNames: false,
		decodeEntities: true,
	},
	// Every element is written with its end tag (`<rect ...></rect>`), which is well-formed XML.
	selfClosing: [],
	transformTags: {
		'*': (tagName, attribs) => ({
			tagName,
			attribs: Object.fromEntries(
				Object.entries(attribs).filter(([name, value]) => keepAttribute(name, value)),
			),
		}),
		svg: (tagName, attribs) => ({
			tagName,
			attribs: {
				...Object.fromEntries(
					Object.entries(attribs).filter(([name, value]) => keepAttribute(name, value)),
				),
				xmlns: SVG_NS,
				...(Object.keys(attribs).some((n) => n === 'xlink:href' || n.startsWith('xlink:')) ||
				attribs['xmlns:xlink']
					? { 'xmlns:xlink': XLINK_NS }
					: {}),
			},
		}),
	},
};

export class InvalidSvgError extends Error {}

/**
 * Answers the sanitised SVG as a standalone XML document, or throws InvalidSvgError when what is
 * left is not one <svg> image.
 */
export function sanitizeSvg(source: string): string {
	// The XML prolog and a doctype (with any entity definitions) are not content.
	const body = source
		.replace(/^\uFEFF/, '')
		.replace(/<\?xml[^>]*\?>/gi, '')
		.replace(/<!DOCTYPE[^>[]*(\[[^\]]*\])?[^>]*>/gi, '');
	const clean = sanitizeHtml(body, OPTIONS).trim();
	const start = clean.indexOf('<svg');
	const end = clean.lastIndexOf('</svg>');
	const selfClosed = /^<svg\b[^>]*\/>$/.test(clean);
	if (start !== 0 || (end < 0 && !selfClosed))
		throw new InvalidSvgError('No SVG image in the file');
	const svg = selfClosed ? clean : clean.slice(0, end + '</svg>'.length);
	return `<?xml version="1.0" encoding="UTF-8"?>\n${svg}`;
}
