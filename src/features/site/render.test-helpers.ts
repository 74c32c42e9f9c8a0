import { getContainerRenderer as reactRenderer } from '@astrojs/react/container-renderer';
import { within } from '@testing-library/dom';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { Window } from 'happy-dom';
import {
	chamberConfigSchema,
	type ChamberConfig,
	type ChamberConfigInput,
} from '../config/config.ts';

/** A parsed configuration for component tests: name and slug, plus whatever a test sets. */
export function testConfig(input: Partial<ChamberConfigInput> = {}): ChamberConfig {
	return chamberConfigSchema.parse({ slug: 'demo', name: 'Demo Chamber', ...input });
}

let container: Promise<AstroContainer> | undefined;

/**
 * Renders an Astro component (React islands included) to HTML and returns Testing Library
 * queries over it, so tests find elements by role and text as a visitor would.
 */
export async function render(
	component: AstroComponentFactory | ((props: never) => unknown),
	props: Record<string, unknown>,
) {
	container ??= loadRenderers([reactRenderer()]).then((renderers) =>
		AstroContainer.create({ renderers }),
	);
	const html = await (
		await container
	).renderToString(component as AstroComponentFactory, { props });
	const window = new Window();
	window.document.body.innerHTML = html;
	const body = window.document.body as unknown as HTMLElement;
	return { html, body, ...within(body) };
}
