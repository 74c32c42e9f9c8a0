import { describe, expect, it } from 'vitest';
import type { ChamberConfigInput } from '../../config/config.ts';
import type { Business } from '../../directory/directory.ts';
import { render, testConfig } from '../../site/render.test-helpers.ts';
import { testBusiness } from '../test-business.ts';
import BusinessProfile from './BusinessProfile.astro';

const business = testBusiness({
	longDescription:
		'<p>Wood-fired <strong>pizza</strong>.</p><img src="x" onerror="alert(1)"><a href="javascript:alert(2)">Menu</a>',
	logo: '/logo.svg',
	logoUrl: '/logo.svg',
	featured: true,
	socialMedia: { facebook: 'https://facebook.com/bella', myspace: 'https://myspace.com/bella' },
	badges: [
		{
			icon: '',
			iconText: 'Women in Business',
			iconUrl: 'https://chamber.example/wib',
			affCode: 'WIB',
		},
	],
});

async function renderProfile(b: Business, config: Partial<ChamberConfigInput> = {}) {
	return render(BusinessProfile, {
		business: b,
		config: testConfig({
			urls: { joinUrl: 'https://chamber.example/join' },
			content: {
				sidebarTitle: 'Grow With Us',
				sidebarTagline: 'Be seen.',
				sidebarButtonText: 'Join',
			},
			...config,
		}),
	});
}

describe.each(['classic', 'modern'] as const)('the %s profile layout', (layout) => {
	const features = { businessDetailLayout: layout };

	it('renders every section of the business', async () => {
		const { body, getByRole, getByText, getAllByRole } = await renderProfile(business, {
			features,
		});
		expect(body.querySelector('[data-layout]')?.getAttribute('data-layout')).toBe(layout);
		expect(getByRole('heading', { level: 1 }).textContent).toBe('Bella Café');
		expect(getByRole('img', { name: 'Bella Café logo' }).getAttribute('src')).toBe('/logo.svg');
		expect(getByText('Cedarbrook, IA')).toBeTruthy();
		expect(getByText('Trustee')).toBeTruthy();
		const categories = getByRole('list', { name: 'Categories' });
		expect(
			[...categories.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
		).toEqual([
			['Restaurants & Catering', '/search?category=Restaurants+%26+Catering'],
			['Bakeries', '/search?category=Bakeries'],
		]);
		for (const name of [
			'About Bella Café',
			'Location',
			'Contact Information',
			'Social Media',
			'Member Affiliations',
			'Grow With Us',
		]) {
			expect(getByRole('heading', { level: 2, name })).toBeTruthy();
		}
		expect(getByText('Suite 4')).toBeTruthy();
		expect(getByRole('link', { name: /^Bella Café on Facebook/ }).getAttribute('href')).toBe(
			'https://facebook.com/bella',
		);
		expect(getByRole('link', { name: /Women in Business/ }).getAttribute('href')).toBe(
			'https://chamber.example/wib',
		);
		// 'Contact' (mobile) and 'Send Message' both open the dialog; the address is never shown.
		expect(getAllByRole('button', { name: /^(Contact|Send Message)$/ })).toHaveLength(2);
		expect(body.innerHTML).not.toContain('hello@bella.example');
		expect(getAllByRole('link', { name: /Visit Website/ })).toHaveLength(2);
		expect(getByRole('button', { name: 'Share Business' }).dataset.sharePath).toBe(
			'/business/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/bella-caf',
		);
		expect(getByRole('link', { name: /View on Map/ })).toBeTruthy();
		expect(getByRole('link', { name: /Join/ }).getAttribute('href')).toBe(
			'https://chamber.example/join',
		);
		expect(getByRole('link', { name: 'Back to Directory' }).getAttribute('href')).toBe('/search');
	});

	it('sanitises the description at build time', async () => {
		const { getByRole } = await renderProfile(business, { features });
		const about = getByRole('region', { name: 'About Bella Café' });
		expect(about.innerHTML).toContain('Wood-fired <strong>pizza</strong>.');
		expect(about.innerHTML).not.toMatch(/onerror|javascript:|<script/);
	});

	it('holds the dialog host and a click-only loader, but no script file', async () => {
		const { body, html } = await renderProfile(business, {
			features,
			services: { recaptchaSiteKey: 'site-key-1' },
		});
		const host = body.querySelector('#contact-dialog') as HTMLElement;
		expect(host.dataset.businessName).toBe('Bella Café');
		expect(host.dataset.recaptchaKey).toBe('site-key-1');
		expect(html).not.toMatch(/<script[^>]+src=/);
		expect(html).toContain("document.addEventListener('click'");
	});
});

describe('profile variants', () => {
	it("shows 'Member Since {year}' and the main contact when configured", async () => {
		const { getByText, queryByText } = await renderProfile(business, {
			features: { memberBadgeDisplay: 'year', showMainContact: true },
		});
		expect(getByText('Member Since 2011')).toBeTruthy();
		expect(queryByText('Trustee')).toBeNull();
		expect(getByText('Main Contact')).toBeTruthy();
		expect(getByText('Ana Bell')).toBeTruthy();
	});

	it("links 'Update this listing' to the member sign-in only when the chamber lets members update", async () => {
		const off = await renderProfile(business);
		expect(off.queryByRole('link', { name: 'Update this listing' })).toBeNull();
		const on = await renderProfile(business, { features: { memberUpdates: true } });
		expect(on.getByRole('link', { name: 'Update this listing' }).getAttribute('href')).toBe(
			`/members/sign-in?business=${business.id}`,
		);
	});

	it('hides the main contact by default', async () => {
		const { queryByText } = await renderProfile(business);
		expect(queryByText('Ana Bell')).toBeNull();
	});

	it('shows a Business Partner website as text, with no link or button', async () => {
		const { getByText, queryAllByRole } = await renderProfile({
			...business,
			membershipLevel: 'Business Partner',
		});
		expect(getByText('bella.example')).toBeTruthy();
		expect(queryAllByRole('link', { name: /Visit Website/ })).toHaveLength(0);
	});

	it('leaves out what a business does not have', async () => {
		const bare: Business = {
			...business,
			logoUrl: '',
			acceptsMessages: false,
			website: '',
			phone: '',
			longDescription: '',
			address: { street: '', street2: '', city: '', state: '', zip: '' },
			socialMedia: 'None',
			badges: [],
			categories: [],
		};
		const { body, getByText, queryByRole, queryAllByRole } = await renderProfile(bare);
		expect(body.querySelector('.profile-header__logo--none svg')).not.toBeNull();
		expect(getByText('No description available.')).toBeTruthy();
		expect(getByText('No social media links available')).toBeTruthy();
		for (const name of ['Location', 'Member Affiliations']) {
			expect(queryByRole('heading', { name })).toBeNull();
		}
		expect(queryByRole('list', { name: 'Categories' })).toBeNull();
		expect(queryAllByRole('button', { name: /^(Contact|Send Message)$/ })).toHaveLength(0);
		expect(body.querySelector('#contact-dialog')).toBeNull();
		expect(queryByRole('link', { name: /View on Map/ })).toBeNull();
		expect(queryByRole('button', { name: 'Share Business' })).not.toBeNull();
	});
});
