import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { getContainerRenderer as reactRenderer } from '@astrojs/react/container-renderer';
import { loadRenderers } from 'astro:container';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ErrorPage from '../../pages/500.astro';

// The fallback error page as Astro renders it for a page that failed on demand: the error comes
// in as a prop, the page logs it under a new id and shows that id. (In the built site, with the
// server's real log: tests/e2e/errors.spec.ts.)

afterEach(() => vi.restoreAllMocks());

async function renderFailure(error: unknown) {
	const container = await AstroContainer.create({
		renderers: await loadRenderers([reactRenderer()]),
	});
	return container.renderToResponse(ErrorPage, {
		props: { error },
		request: new Request('http://site.test/events/41020/coffee-connections?v=2'),
	});
}

describe('the 500 page', () => {
	it('answers 500, not cached, with the screen and the id its log line starts with', async () => {
		const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const error = new Error('Failed to load chamber configuration: connection refused');
		const response = await renderFailure(error);
		expect(response.status).toBe(500);
		expect(response.headers.get('cache-control')).toBe('no-store');
		const html = await response.text();
		expect(html).toMatch(/<h1[^>]*>Something Went Wrong<\/h1>/);
		const id = /Error ID: <code>([0-9a-f]{8})<\/code>/.exec(html)?.[1];
		expect(id).toBeDefined();
		expect(log).toHaveBeenCalledWith(
			`[error ${id}] GET /events/41020/coffee-connections failed:`,
			error,
		);
		// Its Refresh Page works without React: a script of the page answers the button.
		expect(html).toContain('data-error-refresh');
		expect(html).toMatch(/<script>[^<]*\[data-error-refresh\][^<]*location\.reload\(\)/);
	});

	it('keeps a header and footer when no configuration can be read (the placeholder)', async () => {
		vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const html = await (await renderFailure(new Error('down'))).text();
		expect(html).toContain('<header');
		expect(html).toContain('<footer');
		expect(html).toContain('Chamber of Commerce');
	});
});
