import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapXml } from './discovery.ts';

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
