import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * Tabler's outline icons as inline SVG, rendered at build time: a page carries only the icons it
 * shows, and no icon font or sprite request.
 */

const require = createRequire(import.meta.url);
const bodies = new Map<string, Promise<string>>();

/** The shapes inside a Tabler SVG file, without its invisible 24x24 bounding-box path. */
async function iconBody(name: string): Promise<string> {
	const svg = await readFile(require.resolve(`@tabler/icons/outline/${name}.svg`), 'utf8');
	const open = svg.indexOf('>', svg.indexOf('<svg'));
	return svg
		.slice(open + 1, svg.lastIndexOf('</svg>'))
		.replace(/<path stroke="none" d="M0 0h24v24H0z" fill="none"\s*\/>/, '')
		.replace(/\s*\n\s*/g, '');
}

function escapeAttribute(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export interface IconOptions {
	/** Accessible name; without one the icon is decorative and hidden from assistive technology. */
	label?: string;
	/** Width and height in CSS pixels; default 24. */
	size?: number;
}

/** The SVG markup of a Tabler outline icon; throws at build time for an unknown name. */
export async function iconSvg(name: string, options: IconOptions = {}): Promise<string> {
	if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`Unknown icon: ${name}`);
	if (!bodies.has(name)) bodies.set(name, iconBody(name));
	const body = await (bodies.get(name) as Promise<string>);
	const size = options.size ?? 24;
	const a11y = options.label
		? `role="img" aria-label="${escapeAttribute(options.label)}"`
		: 'aria-hidden="true" focusable="false"';
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" ` +
		`fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" ` +
		`stroke-linejoin="round" ${a11y}>${body}</svg>`
	);
}
