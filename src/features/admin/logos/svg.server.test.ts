import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { InvalidSvgError, sanitizeSvg } from './svg.server.ts';

// The SVG sanitiser of upload-logo: what a logo keeps, and the attacks it must not keep. The
// output is served on its own as image/svg+xml, so it must also be well-formed XML.

const { window } = new JSDOM('');

function parsed(svg: string): Document {
	const doc = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
	expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
	return doc;
}

const wrap = (inner: string, attrs = '') =>
	`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"${attrs}>${inner}</svg>`;

describe('sanitizeSvg', () => {
	it('keeps a logo as drawn: shapes, text, gradients, internal references, a filter (not <use>)', () => {
		const logo = wrap(
			'<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>' +
				'<linearGradient id="h" xlink:href="#g"/>' +
				'<filter id="f"><feGaussianBlur stdDeviation="1"/></filter><path id="p" d="M0 0h5"/></defs>' +
				'<rect width="10" height="10" fill="url(#g)" filter="url(#f)"/><use xlink:href="#p"/>' +
				'<text x="1" y="8" font-family="Inter">A &amp; B</text>',
		);
		const doc = parsed(sanitizeSvg(`<?xml version="1.0" encoding="UTF-8"?>\n${logo}`));
		const svg = doc.documentElement;
		expect(svg.localName).toBe('svg');
		expect(svg.getAttribute('viewBox')).toBe('0 0 10 10');
		expect(doc.querySelector('rect')!.getAttribute('fill')).toBe('url(#g)');
		expect(doc.querySelector('use')).toBeNull();
		const inherited = doc.getElementById('h')!;
		expect(inherited.getAttributeNS('http://www.w3.org/1999/xlink', 'href')).toBe('#g');
		expect(doc.querySelector('text')!.textContent).toBe('A & B');
		expect(doc.querySelector('feGaussianBlur')).not.toBeNull();
	});

	const attacks: [string, string][] = [
		['a script element', wrap('<script>alert(1)</script><rect width="1" height="1"/>')],
		['a CDATA script', wrap('<script><![CDATA[alert(1)]]></script><rect width="1" height="1"/>')],
		['an onload on the root', wrap('<rect width="1" height="1"/>', ' onload="alert(1)"')],
		['an event handler on a shape', wrap('<rect width="1" height="1" onmouseover="alert(1)"/>')],
		['a javascript: link', wrap('<a href="javascript:alert(1)"><rect width="1" height="1"/></a>')],
		[
			'an xlink javascript: link',
			wrap('<a xlink:href="javascript:alert(1)"><rect width="1" height="1"/></a>'),
		],
		[
			'foreignObject with HTML',
			wrap(
				'<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"></iframe></foreignObject><rect width="1" height="1"/>',
			),
		],
		[
			'an animation setting href',
			wrap(
				'<a><animate attributeName="href" to="javascript:alert(1)"/><rect width="1" height="1"/></a>',
			),
		],
		[
			'a set of an event handler',
			wrap('<rect width="1" height="1"><set attributeName="onclick" to="alert(1)"/></rect>'),
		],
		[
			'an external image',
			wrap('<image href="https://tracker.example/p.png"/><rect width="1" height="1"/>'),
		],
		[
			'an external use',
			wrap('<use href="https://tracker.example/s.svg#x"/><rect width="1" height="1"/>'),
		],
		[
			'a data: use',
			wrap(
				'<use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x"/><rect width="1" height="1"/>',
			),
		],
		[
			'a stylesheet import',
			wrap(
				'<style>@import url(https://tracker.example/a.css);</style><rect width="1" height="1"/>',
			),
		],
		[
			'an external url() in style',
			wrap('<rect width="1" height="1" style="fill:url(https://tracker.example/p)"/>'),
		],
		[
			'an external url() in fill',
			wrap('<rect width="1" height="1" fill="url(https://tracker.example/p#g)"/>'),
		],
		[
			'an iframe in the SVG',
			wrap('<iframe src="javascript:alert(1)"/><rect width="1" height="1"/>'),
		],
	];

	it.each(attacks)('removes %s', (_name, attack) => {
		const clean = sanitizeSvg(attack);
		parsed(clean);
		expect(clean).toContain('<rect');
		for (const bad of [
			/<script/i,
			/\son\w+\s*=/i,
			/javascript:/i,
			/foreignObject/i,
			/tracker\.example/,
			/<style/i,
			/<image/i,
			/<iframe/i,
			/<animate/i,
			/<set/i,
			/data:/i,
		]) {
			expect(clean).not.toMatch(bad);
		}
	});

	it('drops a doctype with entity definitions instead of expanding them', () => {
		const clean = sanitizeSvg(
			`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY boom "BOOM">]>${wrap('<text>&amp;</text>')}`,
		);
		expect(clean).not.toMatch(/ENTITY|BOOM|DOCTYPE/);
		parsed(clean);
	});

	it('refuses what holds no SVG', () => {
		expect(() => sanitizeSvg('<html><body><p>hi</p></body></html>')).toThrow(InvalidSvgError);
		expect(() => sanitizeSvg('<script>alert(1)</script>')).toThrow(InvalidSvgError);
	});
});
