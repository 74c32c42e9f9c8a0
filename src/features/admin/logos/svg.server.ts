import createDOMPurify, { type Config } from 'dompurify';
import { JSDOM } from 'jsdom';

/**
 * SVG logos are sanitised before they are stored: hosted Storage serves them as they are, and an
 * SVG opened on its own is a document that could run script. DOMPurify does the sanitising, on
 * jsdom — the one server-side DOM DOMPurify supports (its README calls happy-dom unsafe; on
 * linkedom it does not run at all and returns its input unchanged). jsdom is loaded only by this
 * module, which upload-logo imports on the first SVG.
 *
 * Removed: script, event handlers, foreignObject (and every other non-SVG element), animation
 * elements that set attributes, <a>, <image>, <style>, every href/xlink:href other than a
 * reference inside the file (`#id`), and style attributes that load anything (`url(` other than
 * `url(#…)`), so the logo references nothing outside itself. `<use>` goes too: DOMPurify never
 * allows it. The file is parsed the HTML way (DOMPurify's default): its XML mode compares names
 * case-sensitively with its lower-case allow-list and would drop `viewBox` and `linearGradient`.
 * The result is serialised from the sanitised DOM, so what is stored is exactly what was checked.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const { window } = new JSDOM('');
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

const CONFIG: Config = {
	USE_PROFILES: { svg: true, svgFilters: true },
	FORBID_TAGS: ['a', 'image', 'style', 'foreignObject', 'script', 'animate', 'set'],
	FORBID_ATTR: ['xlink:href', 'href'],
	RETURN_DOM_FRAGMENT: true,
};

// Internal references (a gradient by #id) are the only hrefs a logo keeps. FORBID_ATTR above
// drops every href; this hook keeps the `#…` ones by allowing them back explicitly.
purify.addHook('uponSanitizeAttribute', (_node, data) => {
	const name = data.attrName.toLowerCase();
	if ((name === 'href' || name === 'xlink:href') && /^#[\w.-]+$/.test(data.attrValue.trim())) {
		data.forceKeepAttr = true;
	}
	if (name === 'style' && /url\s*\(\s*['"]?\s*(?!#)/i.test(data.attrValue)) data.keepAttr = false;
	if (/^(fill|stroke|filter|mask|clip-path|marker-(start|mid|end))$/.test(name)) {
		if (/url\s*\(\s*['"]?\s*(?!#)/i.test(data.attrValue)) data.keepAttr = false;
	}
});

export class InvalidSvgError extends Error {}

/**
 * Answers the sanitised SVG as a standalone XML document, or throws InvalidSvgError when nothing
 * that is an <svg> remains (not an image worth storing).
 */
export function sanitizeSvg(source: string): string {
	// The XML prolog and doctype are not content; the HTML parser would keep a doctype's
	// internal subset (entity definitions) as text.
	const body = source
		.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/i, '')
		.replace(/<!DOCTYPE[^>[]*(\[[^\]]*\])?[^>]*>/gi, '');
	const fragment = purify.sanitize(body, CONFIG) as unknown as DocumentFragment;
	const svg = [...fragment.childNodes].find(
		(node): node is Element =>
			node.nodeType === 1 &&
			(node as Element).namespaceURI === SVG_NS &&
			(node as Element).localName === 'svg',
	);
	if (!svg) throw new InvalidSvgError('No SVG image in the file');
	return `<?xml version="1.0" encoding="UTF-8"?>\n${new window.XMLSerializer().serializeToString(svg)}`;
}
