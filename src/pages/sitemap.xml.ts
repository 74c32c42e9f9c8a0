import type { APIRoute } from 'astro';
import {
	sitemapChunks,
	sitemapFilePath,
	sitemapIndexXml,
	sitemapXml,
} from '../features/site/discovery.ts';
import { sitemapPaths } from '../features/site/sitemap.server.ts';

// One sitemap while the site's addresses fit in one file; above the protocol's 50,000 a sitemap
// index of /sitemap-{n}.xml files (sitemap-[n].xml.ts).
export const GET: APIRoute = async ({ site }) => {
	const chunks = sitemapChunks(await sitemapPaths());
	const body =
		chunks.length === 1
			? sitemapXml(chunks[0]!.map((path) => new URL(path, site).href))
			: sitemapIndexXml(chunks.map((_, i) => new URL(sitemapFilePath(i + 1), site).href));
	return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
