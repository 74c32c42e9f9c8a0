import { resolveUrl, type ChamberConfig } from '../config/config.ts';
import type { Banner } from '../directory/directory.server.ts';

/** Banner carousel slides (docs/behaviour.md#banner-carousel). */

export const BANNER_WIDTH = 970;
export const BANNER_HEIGHT = 90;

const TARGETS = new Set(['_blank', '_self', '_parent', '_top']);

export interface BannerSlide {
	id: string;
	name: string;
	/** The image through the site's image proxy. */
	src: string;
	alt: string;
	/** '' when navigate_url is missing or unsafe: the banner is shown without a link. */
	href: string;
	target: string;
}

/** The carousel's slides: none when banners are switched off (features.showBanners). */
export function bannerSlides(
	banners: readonly Banner[],
	config: Pick<ChamberConfig, 'features' | 'urls'>,
): BannerSlide[] {
	if (!config.features.showBanners) return [];
	return banners
		.filter((banner) => banner.image_url.trim() !== '')
		.map((banner) => ({
			id: banner.id,
			name: banner.banner_name,
			src: `/api/banner-image?url=${encodeURIComponent(banner.image_url.trim())}`,
			alt: banner.alternate_text.trim() || banner.banner_name,
			href: resolveUrl(banner.navigate_url, config.urls),
			target: TARGETS.has(banner.target) ? banner.target : '_blank',
		}));
}
