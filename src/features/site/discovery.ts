import { encodeXML } from 'entities';

/** What search engines read: the sitemap and robots.txt (absolute URLs against the site). */

/** A sitemaps.org urlset of the given absolute URLs. */
export function sitemapXml(urls: readonly string[]): string {
	const entries = urls.map((url) => `<url><loc>${encodeXML(url)}</loc></url>`).join('\n');
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
		`${entries}\n</urlset>\n`
	);
}

/**
 * Crawlers stay off the API and off /business-page/, where the site renders big chambers'
 * profiles on demand for the business-legacy function: the same pages live at their own
 * addresses (/business/{id}/{slug}, in the sitemap).
 */
export function robotsTxt(sitemapUrl: string): string {
	return [
		'User-agent: *',
		'Allow: /',
		'Disallow: /api/',
		'Disallow: /business-page/',
		'',
		`Sitemap: ${sitemapUrl}`,
		'',
	].join('\n');
}
