import { describe, expect, it } from 'vitest';
import { sanitizeDescription } from './sanitize.ts';

describe('sanitizeDescription', () => {
	it.each([
		[
			'keeps the allowed formatting',
			'<p>Hi <strong>there</strong> <em>you</em> <u>!</u></p>',
			'<p>Hi <strong>there</strong> <em>you</em> <u>!</u></p>',
		],
		[
			'keeps headings, lists and tables',
			'<h2>Menu</h2><ul><li>a</li></ul><ol><li>b</li></ol><table><thead><tr><th>x</th></tr></thead><tbody><tr><td align="center">1</td></tr></tbody></table>',
			'<h2>Menu</h2><ul><li>a</li></ul><ol><li>b</li></ol><table><thead><tr><th>x</th></tr></thead><tbody><tr><td align="center">1</td></tr></tbody></table>',
		],
		[
			'keeps images with their allowed attributes',
			'<img src="https://a.example/x.png" alt="Shop" title="t" width="10" height="20">',
			'<img src="https://a.example/x.png" alt="Shop" title="t" width="10" height="20" />',
		],
		[
			'removes script elements with their content',
			'<p>a</p><script>alert(1)</script><p>b</p>',
			'<p>a</p><p>b</p>',
		],
		[
			'removes event handlers',
			'<img src="x.png" onerror="alert(1)"><div onclick="x()">d</div>',
			'<img src="x.png" /><div>d</div>',
		],
		[
			'removes javascript: links',
			'<a href="javascript:alert(1)">x</a>',
			'<a target="_blank" rel="noopener noreferrer">x</a>',
		],
		[
			'removes obfuscated javascript: links',
			'<a href="  JaVaScRiPt:alert(1)">x</a><a href="java&#x09;script:alert(1)">y</a>',
			'<a target="_blank" rel="noopener noreferrer">x</a><a target="_blank" rel="noopener noreferrer">y</a>',
		],
		[
			'removes data: links (an image may keep a data: source, it cannot run script)',
			'<a href="data:text/html,<script>alert(1)</script>">x</a>',
			'<a target="_blank" rel="noopener noreferrer">x</a>',
		],
		[
			'removes other schemes',
			'<a href="ftp://files.example/x">f</a>',
			'<a target="_blank" rel="noopener noreferrer">f</a>',
		],
		[
			'drops tags outside the list but keeps their text',
			'<section><b>Bold</b> <i>it</i> <font color="red">red</font></section>',
			'Bold it red',
		],
		[
			'drops attributes outside the list',
			'<p style="color:red" class="x" id="y" data-x="1">p</p>',
			'<p>p</p>',
		],
		[
			'drops iframes, forms and styles entirely',
			'<iframe src="https://evil.example"></iframe><form><input></form><style>p{}</style>ok',
			'ok',
		],
		[
			'keeps relative, mailto and tel links',
			'<a href="/search">s</a><a href="mailto:a@b.example">m</a><a href="tel:+15550100">t</a>',
			'<a href="/search" target="_blank" rel="noopener noreferrer">s</a><a href="mailto:a@b.example" target="_blank" rel="noopener noreferrer">m</a><a href="tel:+15550100" target="_blank" rel="noopener noreferrer">t</a>',
		],
		[
			'keeps no markup hidden in raw-text elements (mutation XSS)',
			'<svg><p><style><img src=x onerror=alert(1)></style></p></svg><noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>ok',
			'ok',
		],
		[
			'escapes text that looks like markup',
			'<p>1 &lt; 2 &amp; &lt;script&gt;</p>',
			'<p>1 &lt; 2 &amp; &lt;script&gt;</p>',
		],
		['keeps empty input empty', '', ''],
	])('%s', (_why, html, clean) => expect(sanitizeDescription(html)).toBe(clean));

	it('opens every link in a new tab without an opener, whatever the source said', () => {
		expect(
			sanitizeDescription('<a href="https://shop.example" target="_self" rel="opener">Shop</a>'),
		).toBe('<a href="https://shop.example" target="_blank" rel="noopener noreferrer">Shop</a>');
	});
});
