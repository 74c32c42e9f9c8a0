import { describe, expect, it } from 'vitest';
import { render } from '../site/render.test-helpers.ts';
import type { CardBusiness, CardSettings } from './business.ts';
import { BusinessCard } from './BusinessCard.tsx';

const business: CardBusiness = {
	id: '5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11',
	slug: 'bella-caf',
	name: 'Bella Café',
	description: 'Wood-fired pizza & more.',
	logoUrl: '/logo.svg',
	website: 'https://bella.example',
	phone: '(319) 555-0142',
	address: { street: '12 Main St', street2: '', city: 'Cedarbrook', state: 'IA', zip: '52901' },
	membershipLevel: 'Trustee',
	memberSince: '2011',
};

const settings: CardSettings = {
	memberBadgeDisplay: 'level',
	showMembershipLevels: true,
	showBusinessShortDescription: false,
};

const renderCard = (
	b: Partial<CardBusiness> = {},
	s: Partial<CardSettings> = {},
	category?: string,
) =>
	render(BusinessCard as never, {
		business: { ...business, ...b },
		settings: { ...settings, ...s },
		category,
	});

describe('BusinessCard', () => {
	it('shows the business with one link to its profile stretched over the card', async () => {
		const { body, getByRole, getByText } = await renderCard();
		const card = getByRole('article');
		const name = getByRole('heading', { level: 3, name: 'Bella Café' });
		const link = name.querySelector('a')!;
		expect(link.getAttribute('href')).toBe(
			'/business/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/bella-caf',
		);
		expect(link.className).toContain('bcard__link');
		expect(card.querySelector('img')?.getAttribute('src')).toBe('/logo.svg');
		expect(getByText('Trustee')).toBeTruthy();
		expect(card.querySelector('hr')).not.toBeNull();
		expect(getByText('12 Main St, Cedarbrook, IA 52901')).toBeTruthy();
		expect(getByRole('link', { name: '(319) 555-0142' }).getAttribute('href')).toBe(
			'tel:3195550142',
		);
		const website = getByRole('link', { name: /^Visit Website/ });
		expect(website.getAttribute('href')).toBe('https://bella.example/');
		expect(website.getAttribute('target')).toBe('_blank');
		expect(website.getAttribute('rel')).toBe('noopener noreferrer');
		expect(getByRole('link', { name: /^View Profile/ }).getAttribute('href')).toBe(
			link.getAttribute('href'),
		);
		// No interactive element inside another.
		expect(body.querySelector('a a, a button, button a')).toBeNull();
		// Plain text, no description unless configured.
		expect(body.textContent).not.toContain('Wood-fired');
	});

	it('carries the search category to the profile', async () => {
		const { getByRole } = await renderCard({}, {}, 'Food & Drink');
		expect(getByRole('link', { name: /^View Profile/ }).getAttribute('href')).toMatch(
			/\?category=Food%20%26%20Drink$/,
		);
	});

	it('shows the short description as plain text when configured', async () => {
		const { getByText } = await renderCard(
			{ description: '<b>Bold</b> claims' },
			{ showBusinessShortDescription: true },
		);
		expect(getByText('<b>Bold</b> claims')).toBeTruthy();
	});

	it("shows 'Member Since {year}' when configured", async () => {
		const { getByText } = await renderCard({}, { memberBadgeDisplay: 'year' });
		expect(getByText('Member Since 2011')).toBeTruthy();
	});

	it('never links a Business Partner website', async () => {
		const { queryByRole } = await renderCard({ membershipLevel: 'Business Partner' });
		expect(queryByRole('link', { name: /Visit Website/ })).toBeNull();
		expect(queryByRole('link', { name: /View Profile/ })).not.toBeNull();
	});

	it('shows a placeholder icon without a logo, and no address line without street or city', async () => {
		const { body, getByRole } = await renderCard({
			logoUrl: '',
			phone: '',
			address: { street: '', street2: '', city: '', state: 'IA', zip: '52901' },
		});
		const card = getByRole('article');
		expect(card.querySelector('img')).toBeNull();
		expect(card.querySelector('.bcard__logo--none svg')).not.toBeNull();
		expect(body.textContent).not.toContain('52901');
		expect(card.querySelector('a[href^="tel:"]')).toBeNull();
	});
});
