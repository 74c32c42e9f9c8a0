import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { chamberConfigSchema } from '../config/config.ts';
import { withExistingLogos } from './site.server.ts';

const publicDir = join(import.meta.dirname, '../../../public');

describe('withExistingLogos', () => {
	it('keeps files of the site and addresses elsewhere, drops site paths no file answers', () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const config = chamberConfigSchema.parse({
			name: 'Lakeside',
			slug: 'lakeside',
			logo: {
				standard: '/demo/logos/chamber.svg',
				stacked: '/logos/lakeside/logo-stacked.svg',
				favicon: 'https://cdn.example.org/favicon.png',
			},
		});
		expect(withExistingLogos(config, publicDir).logo).toEqual({
			standard: '/demo/logos/chamber.svg',
			stacked: '',
			favicon: 'https://cdn.example.org/favicon.png',
		});
		expect(warn).toHaveBeenCalledWith(
			'Logo stacked /logos/lakeside/logo-stacked.svg is no file of the site (public/logos/lakeside/logo-stacked.svg): left out',
		);
		warn.mockRestore();
	});

	it('does not look outside public/', () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const config = chamberConfigSchema.parse({
			name: 'X',
			slug: 'x',
			logo: { standard: '/../package.json' },
		});
		expect(withExistingLogos(config, publicDir).logo.standard).toBe('');
		warn.mockRestore();
	});
});
