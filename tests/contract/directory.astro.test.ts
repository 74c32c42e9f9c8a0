import { describe, expect, it } from 'vitest';
import type { CardBusiness } from '../../src/features/business/business.ts';
import { BusinessCard } from '../../src/features/business/BusinessCard.tsx';
import FeaturedSection from '../../src/features/home/FeaturedSection.astro';
import { render, testConfig } from '../../src/features/site/render.test-helpers.ts';
import { cardSettings } from '../../src/features/site/site.ts';

// The directory's visible texts of states the demo chamber's build never shows (a configuration
// it does not have, a build that could not read the featured businesses), rendered by Astro from
// the components the build uses, as the build would write them.

const business: CardBusiness = {
	id: '5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11',
	slug: 'bella-cafe',
	name: 'Bella Cafe',
	description: '',
	logoUrl: '',
	website: 'https://bella.example',
	phone: '(319) 555-0142',
	address: { street: '12 Main St', street2: '', city: 'Cedarbrook', state: 'IA', zip: '52901' },
	membershipLevel: 'Trustee',
	memberSince: '2011',
};

async function renderFeatured(
	input: Parameters<typeof testConfig>[0],
	candidates: CardBusiness[] | null,
) {
	const config = testConfig(input);
	return render(FeaturedSection, {
		title: 'Featured Members',
		featured: config.featuredBusinesses,
		settings: cardSettings(config),
		candidates,
	});
}

describe('home', () => {
	it("featured load failure: 'Error loading businesses. Please try again later.'", async () => {
		const { getByRole } = await renderFeatured({}, null);
		expect(getByRole('alert').textContent?.trim()).toBe(
			'Error loading businesses. Please try again later.',
		);
	});

	it("affiliation strategy: 'View All {affiliation} Members' to /search?affiliation=...", async () => {
		const { getByRole } = await renderFeatured(
			{ featuredBusinesses: { strategy: 'affiliation', affiliation: 'Women in Business' } },
			[business],
		);
		expect(
			getByRole('link', { name: 'View All Women in Business Members' }).getAttribute('href'),
		).toBe('/search?affiliation=Women+in+Business');
	});
});

describe('business card', () => {
	it("badge 'Member Since {year}' when memberBadgeDisplay is year", async () => {
		const settings = cardSettings(testConfig({ features: { memberBadgeDisplay: 'year' } }));
		const { getByText } = await render(BusinessCard as never, { business, settings });
		expect(getByText('Member Since 2011')).toBeTruthy();
	});
});
