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

/** The sitemaps protocol's limit of URLs in one file. */
const SITEMAP_MAX_URLS = 50_000;

/**
 * How a site's URLs are split into sitemap files: one file when they fit, else files of at most
 * SITEMAP_MAX_URLS each, listed by a sitemap index at /sitemap.xml.
 */
export function sitemapChunks<T>(urls: readonly T[], max = SITEMAP_MAX_URLS): T[][] {
	const chunks: T[][] = [];
	for (let i = 0; i < urls.length; i += max) chunks.push(urls.slice(i, i + max));
	return chunks.length ? chunks : [[]];
}

/** /sitemap-{n}.xml: the n-th (1-based) file of a split sitemap. */
export function sitemapFilePath(n: number): string {
	return `/sitemap-${n}.xml`;
}

/** A sitemaps.org sitemap index of the given absolute sitemap URLs. */
export function sitemapIndexXml(sitemapUrls: readonly string[]): string {
	const entries = sitemapUrls
		.map((url) => `<sitemap><loc>${encodeXML(url)}</loc></sitemap>`)
		.join('\n');
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
		`${entries}\n</sitemapindex>\n`
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
