import { appendFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import { listProfiles, profileRedirects } from './business.server.ts';

/**
 * Appends the profile rules (profileRedirects) to the build's `_redirects`, after the pages are
 * written: Netlify and the local site server both honour the file, so a weblink id or a wrong
 * slug answers 301 to the canonical page without a function.
 */
export function profileRedirectsIntegration(): AstroIntegration {
	return {
		name: 'chamber:profile-redirects',
		hooks: {
			'astro:build:done': async ({ dir, logger }) => {
				const { businesses } = await listProfiles();
				const rules = profileRedirects(businesses);
				// Appended, not written: the Netlify adapter adds its own rules to the same file.
				await appendFile(
					new URL('_redirects', dir),
					`\n# Business profiles\n${rules.join('\n')}\n`,
				);
				logger.info(`Added ${rules.length} business profile redirects`);
			},
		},
	};
}
