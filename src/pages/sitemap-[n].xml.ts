import type { APIRoute, GetStaticPaths } from 'astro';
import { sitemapChunks, sitemapXml } from '../features/site/discovery.ts';
import { sitemapPaths } from '../features/site/sitemap.server.ts';

// The files of a split sitemap (more than 50,000 addresses), listed by /sitemap.xml.
export const getStaticPaths = (async () => {
	const chunks = sitemapChunks(await sitemapPaths());
	return chunks.length === 1
		? []
		: chunks.map((paths, i) => ({ params: { n: String(i + 1) }, props: { paths } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ site, props }) =>
	new Response(sitemapXml((props.paths as string[]).map((path) => new URL(path, site).href)), {
		headers: { 'Content-Type': 'application/xml; charset=utf-8' },
	});
