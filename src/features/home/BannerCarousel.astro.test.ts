import { describe, expect, it } from 'vitest';
import type { Banner } from '../directory/directory.server.ts';
import { render, testConfig } from '../site/render.test-helpers.ts';
import BannerCarousel from './BannerCarousel.astro';
import { bannerSlides } from './banners.ts';

const banner = (id: string): Banner => ({
	id,
	banner_name: `Banner ${id}`,
	image_url: `/demo/banners/${id}.svg`,
	navigate_url: `https://demo.example/${id}`,
	target: '_blank',
	alternate_text: `Alt ${id}`,
});

const renderCarousel = (banners: Banner[], showBanners = true) =>
	render(BannerCarousel, {
		slides: bannerSlides(banners, testConfig({ features: { showBanners } })),
	});

describe('BannerCarousel', () => {
	it('shows the first of several banners, with a dot per banner and a pause button', async () => {
		const { getAllByRole, getByRole, body } = await renderCarousel([
			banner('a'),
			banner('b'),
			banner('c'),
		]);
		const slides = [...body.querySelectorAll('[data-slide]')];
		expect(slides.map((s) => s.hasAttribute('hidden'))).toEqual([false, true, true]);
		const image = getByRole('img', { name: 'Alt a' });
		expect(image.getAttribute('src')).toBe('/api/banner-image?url=%2Fdemo%2Fbanners%2Fa.svg');
		expect(image.getAttribute('width')).toBe('970');
		expect(image.getAttribute('height')).toBe('90');
		expect(image.closest('a')?.getAttribute('href')).toBe('https://demo.example/a');
		expect(image.closest('a')?.getAttribute('target')).toBe('_blank');
		const dots = getAllByRole('button', { name: /^Show banner/ });
		expect(dots.map((d) => d.getAttribute('aria-label'))).toEqual([
			'Show banner 1: Banner a',
			'Show banner 2: Banner b',
			'Show banner 3: Banner c',
		]);
		expect(getByRole('button', { name: 'Pause banners' })).toBeTruthy();
	});

	it('shows a single banner without dots', async () => {
		const { queryAllByRole, getByRole } = await renderCarousel([banner('a')]);
		expect(getByRole('img', { name: 'Alt a' })).toBeTruthy();
		expect(queryAllByRole('button')).toEqual([]);
	});

	it('is hidden when banners are switched off or there are none', async () => {
		expect((await renderCarousel([banner('a')], false)).body.querySelector('section')).toBeNull();
		expect((await renderCarousel([])).body.querySelector('section')).toBeNull();
	});
});
