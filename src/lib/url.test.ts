import { describe, expect, it } from 'vitest';
import { safeHttpUrl, safeLinkWithHttp } from './url.ts';

describe('links from outside data', () => {
	it.each([
		['javascript:alert(1)', ''],
		['  JAVASCRIPT:alert(1)', ''],
		['java\tscript:alert(1)', ''],
		['data:text/html,<script>alert(1)</script>', ''],
		['vbscript:msgbox', ''],
		['not a url', ''],
		['https://example.org/a?b=c', 'https://example.org/a?b=c'],
		['http://example.org', 'http://example.org/'],
	])('safeHttpUrl(%j) is %j', (url, expected) => {
		expect(safeHttpUrl(url)).toBe(expected);
	});

	it.each([
		['javascript:alert(1)', ''],
		['JavaScript://example.org/%0Aalert(1)', ''],
		['data:image/svg+xml,<svg onload=alert(1)>', ''],
		['mailto:someone@example.org', ''],
		['www.example.org/logo.png', 'http://www.example.org/logo.png'],
		['//cdn.example.org/a.png', 'http://cdn.example.org/a.png'],
		['example.org:8080/x', 'http://example.org:8080/x'],
		['HTTPS://Example.org', 'HTTPS://Example.org'],
		['  ', ''],
	])('safeLinkWithHttp(%j) is %j', (url, expected) => {
		expect(safeLinkWithHttp(url)).toBe(expected);
	});
});
