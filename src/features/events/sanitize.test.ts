import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeDescription, truncate } from './sanitize.ts';

describe('sanitizeDescription', () => {
	it('keeps the allowed tags and attributes and drops everything else', () => {
		const html = sanitizeDescription(
			'<h3 onclick="x()">Title</h3><p style="color:red" class="c">Hi <strong>there</strong> <font>old</font></p>' +
				'<script>alert(1)</script><iframe src="https://evil.example"></iframe>' +
				'<img src="https://example.org/a.png" alt="A" width="10" onerror="x()">' +
				'<table><tbody><tr><td align="left">1</td></tr></tbody></table>',
		);
		expect(html).toBe(
			'<h3>Title</h3><p>Hi <strong>there</strong> old</p>' +
				'<img src="https://example.org/a.png" alt="A" width="10">' +
				'<table><tbody><tr><td align="left">1</td></tr></tbody></table>',
		);
	});

	it('opens every link in a new tab without an opener, and refuses script URLs', () => {
		expect(
			sanitizeDescription('<a href="https://example.org" target="_self" rel="opener">More</a>'),
		).toBe('<a href="https://example.org" target="_blank" rel="noopener noreferrer">More</a>');
		expect(sanitizeDescription('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
	});
});

describe('htmlToText', () => {
	it('turns blocks, breaks and list items into lines and decodes entities', () => {
		expect(
			htmlToText(
				'<p>One &amp; two</p><p>Three<br>four</p><ul><li>A</li><li>B</li></ul><em>End</em>',
			),
		).toBe('One & two\nThree\nfour\n• A\n• B\n\nEnd');
	});

	it('never lets markup through', () => {
		expect(htmlToText('<script>alert(1)</script><p>Safe</p>')).toBe('Safe');
	});
});

describe('truncate', () => {
	it('cuts to the limit with an ellipsis, and leaves short text alone', () => {
		expect(truncate('short', 160)).toBe('short');
		const cut = truncate('word '.repeat(100), 160);
		expect([...cut]).toHaveLength(160);
		expect(cut.endsWith('…')).toBe(true);
	});
});
