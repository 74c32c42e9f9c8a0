import { describe, expect, it } from 'vitest';
import {
	robotsTxt,
	sitemapChunks,
	sitemapFilePath,
	sitemapIndexXml,
	sitemapXml,
} from './discovery.ts';

describe('sitemapXml', () => {
	it('lists each URL once, XML-escaped', () => {
		expect(sitemapXml(['https://demo.example/', 'https://demo.example/search?q=a&b=<c>'])).toBe(
			'<?xml version="1.0" encoding="UTF-8"?>\n' +
				'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
				'<url><loc>https://demo.example/</loc></url>\n' +
				'<url><loc>https://demo.example/search?q=a&amp;b=&lt;c&gt;</loc></url>\n' +
				'</urlset>\n',
		);
	});
});

describe('robotsTxt', () => {
	it('allows the site, keeps crawlers off the API and the on-demand profiles, points at the sitemap', () => {
		expect(robotsTxt('https://demo.example/sitemap.xml')).toBe(
			'User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /business-page/\n\n' +
				'Sitemap: https://demo.example/sitemap.xml\n',
		);
	});
});

describe('a sitemap above the protocol’s 50,000 addresses', () => {
	it('is split into files of at most that many, listed by an index', () => {
		const urls = Array.from({ length: 5 }, (_, i) => `/p${i}`);
		expect(sitemapChunks(urls, 2)).toEqual([['/p0', '/p1'], ['/p2', '/p3'], ['/p4']]);
		expect(sitemapChunks([], 2)).toEqual([[]]);
		expect(sitemapChunks(urls).length).toBe(1);
		expect(sitemapFilePath(2)).toBe('/sitemap-2.xml');
		expect(sitemapIndexXml(['https://demo.example/sitemap-1.xml'])).toBe(
			'<?xml version="1.0" encoding="UTF-8"?>\n' +
				'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
				'<sitemap><loc>https://demo.example/sitemap-1.xml</loc></sitemap>\n' +
				'</sitemapindex>\n',
		);
	});
});
