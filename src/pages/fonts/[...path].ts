import { readFile } from 'node:fs/promises';
import type { APIRoute, GetStaticPaths } from 'astro';
import { getFontAssets } from '../../features/site/fonts.server.ts';
import { getSite } from '../../features/site/site.server.ts';

// The configured fonts' files, copied from their npm packages into the built site.
export const getStaticPaths = (async () => {
	const { config } = await getSite();
	const { files } = await getFontAssets(config.fonts);
	return files.map((file) => ({ params: { path: file.path }, props: { source: file.source } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) =>
	new Response(await readFile((props as { source: string }).source), {
		headers: { 'Content-Type': 'font/woff2' },
	});
