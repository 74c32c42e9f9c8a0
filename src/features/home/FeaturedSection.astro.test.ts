import { describe, expect, it } from 'vitest';
import type { CardBusiness } from '../business/business.ts';
import { cardSettings } from '../site/site.ts';
import { render, testConfig } from '../site/render.test-helpers.ts';
import FeaturedSection from './FeaturedSection.astro';

const business = (id: string, name: string): CardBusiness => ({
	id,
	slug: name.toLowerCase().replace(/\W+/g, '-'),
	name,
	description: '',
	logoUrl: '',
	website: '',
	phone: '',
	address: { street: '', street2: '', city: 'Cedarbrook', state: 'IA', zip: '' },
	membershipLevel: 'Trustee',
	memberSince: '2001',
});

async function renderFeatured(
	featured: Parameters<typeof testConfig>[0],
	candidates: CardBusiness[] | null,
) {
	const config = testConfig(featured);
	return render(FeaturedSection, {
		title: 'Featured Members',
		featured: config.featuredBusinesses,
		settings: cardSettings(config),
		candidates,
	});
}

describe('FeaturedSection', () => {
	it('embeds the candidates and shows two skeletons until the browser picks', async () => {
		const candidates = [business('a', 'Alpha'), business('b', 'Beta'), business('c', 'Gamma')];
		const { getByRole, body } = await renderFeatured(
			{ featuredBusinesses: { count: 3 } },
			candidates,
		);
		expect(getByRole('heading', { level: 2, name: 'Featured Members' })).toBeTruthy();
		expect(body.querySelectorAll('.bcard--skeleton')).toHaveLength(2);
		const island = body.querySelector('astro-island');
		expect(island?.getAttribute('client')).toBe('idle');
		const embedded = JSON.parse(body.querySelector('#featured-candidates')?.textContent ?? '');
		expect(embedded.map((b: CardBusiness) => b.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
	});

	it('says so when the candidates could not be read', async () => {
		const { getByRole, body } = await renderFeatured({}, null);
		expect(getByRole('alert').textContent?.trim()).toBe(
			'Error loading businesses. Please try again later.',
		);
		expect(body.querySelector('astro-island')).toBeNull();
	});

	it("offers 'View All {affiliation} Members' under the affiliation strategy", async () => {
		const { getByRole } = await renderFeatured(
			{ featuredBusinesses: { strategy: 'affiliation', affiliation: 'Young Professionals' } },
			[],
		);
		expect(
			getByRole('link', { name: 'View All Young Professionals Members' }).getAttribute('href'),
		).toBe('/search?affiliation=Young+Professionals');
	});

	it.each([
		{ strategy: 'membership', affiliation: 'Young Professionals' },
		{ strategy: 'affiliation' },
		{ strategy: 'affiliation', affiliation: 'Young Professionals', showViewAllButton: false },
	] as const)('has no view-all button for %j', async (featuredBusinesses) => {
		const { queryByRole } = await renderFeatured({ featuredBusinesses }, []);
		expect(queryByRole('link', { name: /View All/ })).toBeNull();
	});
});
