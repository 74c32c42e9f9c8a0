import { describe, expect, it } from 'vitest';
import { htmlToText } from '../directory/text.ts';
import { summaryText, truncate } from './text.ts';

describe('htmlToText', () => {
	it('turns blocks, breaks and list items into lines and decodes entities', () => {
		expect(
			htmlToText(
				'<p>One &amp; two</p><p>Three<br>four</p><ul><li>A</li><li>B</li></ul><em>End</em>',
			),
		).toBe('One & two\nThree\nfour\n• A\n• B\n\nEnd');
	});

	it('never lets markup through', () => {
		expect(htmlToText('<script>alert(1)</script><p>Safe <img src=x alt="a>b"></p>')).toBe('Safe');
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

describe('summaryText', () => {
	it('reads headings and list items as sentences on one line', () => {
		expect(
			summaryText(
				'<h3>Gala Night</h3><p>Dinner and awards.</p><ul><li>Music</li><li>Auction!</li></ul>',
				160,
			),
		).toBe('Gala Night. Dinner and awards. Music. Auction!');
		const long = summaryText(`<p>${'Long text. '.repeat(40)}</p>`, 160);
		expect([...long].length).toBeLessThanOrEqual(160);
		expect(long).toMatch(/^(Long text\. )+Long…$/);
	});
});
