import { describe, expect, it } from 'vitest';
import Footer from './Footer.astro';
import { render, testConfig } from './render.test-helpers.ts';

const SITE = 'https://demo.example';

describe('Footer', () => {
	it('shows a social icon only for each configured network, each with an accessible name', async () => {
		const some = await render(Footer, {
			config: testConfig({
				social: { facebook: `${SITE}/fb`, instagram: `${SITE}/ig` },
			}),
		});
		const names = some
			.getAllByRole('link', { name: /^Demo Chamber on / })
			.map((link) => link.getAttribute('aria-label'));
		expect(names).toEqual(['Demo Chamber on Facebook', 'Demo Chamber on Instagram']);
		expect(some.getByRole('link', { name: 'Demo Chamber on Facebook' }).getAttribute('href')).toBe(
			`${SITE}/fb`,
		);

		const none = await render(Footer, { config: testConfig() });
		expect(none.queryAllByRole('link', { name: /^Demo Chamber on / })).toEqual([]);
	});

	it.each([
		['events', '/events'],
		['community-events', '/community-events'],
		['events-list', '/events-list'],
	] as const)('Quick Links: Events opens %s', async (calendar, path) => {
		const { getByRole } = await render(Footer, {
			config: testConfig({ content: { defaultEventsCalendar: calendar } }),
		});
		const quick = getByRole('navigation', { name: 'Quick Links' });
		expect(quick.querySelector('a[href]')?.getAttribute('href')).toBe('/');
		const links = [...quick.querySelectorAll('a')].map((a) => [
			a.textContent?.trim(),
			a.getAttribute('href'),
		]);
		expect(links).toContainEqual(['Events', path]);
		expect(links).toContainEqual(['Search Directory', '/search']);
	});

	it.each([
		[false, true, '/community-events'],
		[true, false, '/events'],
	] as const)(
		'Quick Links: with chamber events %s and community events %s, Events opens %s',
		async (showEvents, showCommunityEvents, path) => {
			const { getByRole } = await render(Footer, {
				config: testConfig({
					features: { showEvents, showCommunityEvents },
					// The default calendar is the area that is off: the link follows the one that is on.
					content: { defaultEventsCalendar: showEvents ? 'community-events' : 'events' },
				}),
			});
			const quick = getByRole('navigation', { name: 'Quick Links' });
			expect(getByRole('link', { name: 'Events' }).getAttribute('href')).toBe(path);
			expect(quick.querySelectorAll('a')).toHaveLength(3);
		},
	);

	it('Quick Links: no Events link when both events areas are off', async () => {
		const { getByRole } = await render(Footer, {
			config: testConfig({ features: { showEvents: false, showCommunityEvents: false } }),
		});
		const quick = getByRole('navigation', { name: 'Quick Links' });
		expect([...quick.querySelectorAll('a')].map((a) => a.textContent?.trim())).toEqual([
			'Directory Home',
			'Search Directory',
		]);
	});

	it('Resources: configured labels, external links in a new tab', async () => {
		const { getByRole } = await render(Footer, {
			config: testConfig({
				urls: { workforceUrl: `${SITE}/work`, jobBoardUrl: `${SITE}/jobs` },
				footerLabels: { workforceLabel: 'Careers' },
			}),
		});
		const resources = getByRole('navigation', { name: 'Resources' });
		const careers = [...resources.querySelectorAll('a')].map((a) => [
			a.textContent?.replace(/\s+/g, ' ').trim(),
			a.getAttribute('href'),
			a.getAttribute('target'),
		]);
		expect(careers).toEqual([
			['Careers (opens in a new tab)', `${SITE}/work`, '_blank'],
			['Job Board (opens in a new tab)', `${SITE}/jobs`, '_blank'],
		]);
	});

	it('Contact Us: optional second line and e-mail only when set; the phone is a tel link', async () => {
		const full = await render(Footer, {
			config: testConfig({
				contact: {
					address: '200 Main Street',
					addressLine2: 'Suite 100',
					city: 'Cedarbrook',
					state: 'IA',
					zip: '52901',
					phone: '(319) 555-0100',
					email: 'info@demo.example',
				},
			}),
		});
		expect(full.getByText('Suite 100')).toBeTruthy();
		expect(full.getByText('Cedarbrook, IA 52901')).toBeTruthy();
		expect(full.getByRole('link', { name: '(319) 555-0100' }).getAttribute('href')).toBe(
			'tel:3195550100',
		);
		expect(full.getByRole('link', { name: 'info@demo.example' }).getAttribute('href')).toBe(
			'mailto:info@demo.example',
		);

		const short = await render(Footer, {
			config: testConfig({ contact: { address: '200 Main Street', city: 'Cedarbrook' } }),
		});
		expect(short.queryByText('Suite 100')).toBeNull();
		expect(short.queryByRole('link', { name: /@/ })).toBeNull();
		expect(short.getByText('Cedarbrook')).toBeTruthy();
	});

	it('copyright line: this year, the name, the configured text, powered-by and privacy links', async () => {
		const { body, getByRole, queryByRole } = await render(Footer, {
			config: testConfig({
				content: { copyrightText: 'Some rights reserved.' },
				urls: { privacyUrl: `${SITE}/privacy` },
			}),
		});
		for (const script of body.querySelectorAll('script')) script.remove();
		expect(body.textContent?.replace(/\s+/g, ' ')).toContain(
			`© ${new Date().getFullYear()} Demo Chamber. Some rights reserved.`,
		);
		expect(getByRole('link', { name: /Privacy Policy/ }).getAttribute('href')).toBe(
			`${SITE}/privacy`,
		);
		expect(getByRole('link', { name: /Astro/ }).getAttribute('href')).toBe('https://astro.build');

		expect(getByRole('link', { name: 'Statistics and privacy' }).getAttribute('href')).toBe(
			'/privacy/statistics',
		);
		expect(getByRole('link', { name: 'Accessibility' }).getAttribute('href')).toBe(
			'/accessibility',
		);
		const noPrivacy = await render(Footer, { config: testConfig() });
		expect(noPrivacy.queryByRole('link', { name: /Privacy Policy/ })).toBeNull();
		expect(queryByRole('link', { name: /Join the Chamber/ })).toBeNull();
	});
});
