import { describe, expect, it } from 'vitest';
import { chamberConfigSchema } from '../config/config.ts';
import type { Banner } from '../directory/directory.server.ts';
import { bannerSlides } from './banners.ts';

const config = chamberConfigSchema.parse({ slug: 'demo', name: 'Demo' });

const banner = (fields: Partial<Banner>): Banner => ({
	id: 'b1',
	banner_name: 'Gala',
	image_url: '/demo/banners/gala.svg',
	navigate_url: 'https://demo.example/gala',
	target: '_blank',
	alternate_text: 'Annual Gala tickets',
	...fields,
});

describe('bannerSlides', () => {
	it('serves images through the proxy and links each banner with its target', () => {
		expect(bannerSlides([banner({})], config)).toEqual([
			{
				id: 'b1',
				name: 'Gala',
				src: '/api/banner-image?url=%2Fdemo%2Fbanners%2Fgala.svg',
				alt: 'Annual Gala tickets',
				href: 'https://demo.example/gala',
				target: '_blank',
			},
		]);
	});

	it('falls back to the banner name as alt text and to a new tab for unknown targets', () => {
		const [slide] = bannerSlides([banner({ alternate_text: ' ', target: 'popup' })], config);
		expect(slide).toMatchObject({ alt: 'Gala', target: '_blank' });
		expect(bannerSlides([banner({ target: '_self' })], config)[0]?.target).toBe('_self');
	});

	it('shows a banner with an unsafe or missing link without a link, and drops imageless ones', () => {
		const slides = bannerSlides(
			[
				banner({ id: 'a', navigate_url: 'javascript:alert(1)' }),
				banner({ id: 'b', navigate_url: '' }),
				banner({ id: 'c', image_url: '  ' }),
			],
			config,
		);
		expect(slides.map((s) => [s.id, s.href])).toEqual([
			['a', ''],
			['b', ''],
		]);
	});

	it('shows no banner when banners are switched off', () => {
		const off = chamberConfigSchema.parse({
			slug: 'demo',
			name: 'Demo',
			features: { showBanners: false },
		});
		expect(bannerSlides([banner({})], off)).toEqual([]);
	});
});
