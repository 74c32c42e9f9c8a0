import { describe, expect, it } from 'vitest';
import Header from './Header.astro';
import { render, testConfig } from './render.test-helpers.ts';

const SITE = 'https://demo.example';

describe('Header', () => {
	it('links the logo to the main website, with the stacked logo on small screens', async () => {
		const { getByRole, body } = await render(Header, {
			config: testConfig({
				logo: { standard: '/logo.svg', stacked: '/logo-stacked.svg' },
				urls: { mainWebsite: SITE },
			}),
		});
		const logo = getByRole('link', { name: 'Demo Chamber' });
		expect(logo.getAttribute('href')).toBe(SITE);
		expect(logo.querySelector('img')?.getAttribute('src')).toBe('/logo.svg');
		const source = body.querySelector('picture source');
		expect(source?.getAttribute('srcset')).toBe('/logo-stacked.svg');
		expect(source?.getAttribute('media')).toBe('(max-width: 998.98px)');
	});

	it('shows the chamber name when there is no logo, linking home without a main website', async () => {
		const { getByRole } = await render(Header, { config: testConfig() });
		expect(getByRole('link', { name: 'Demo Chamber' }).getAttribute('href')).toBe('/');
	});

	it("opens 'Join Today' in a new tab, and leaves it out without a join URL", async () => {
		const joined = await render(Header, {
			config: testConfig({ urls: { joinUrl: `${SITE}/join` } }),
		});
		const join = joined.getByRole('link', { name: /Join Today/ });
		expect(join.getAttribute('href')).toBe(`${SITE}/join`);
		expect(join.getAttribute('target')).toBe('_blank');
		expect(join.getAttribute('rel')).toContain('noopener');

		const none = await render(Header, { config: testConfig() });
		expect(none.queryByRole('link', { name: /Join Today/ })).toBeNull();
	});

	it('renders the configured menu: links, and dropdowns as closed disclosure buttons', async () => {
		const { getByRole } = await render(Header, {
			config: testConfig({
				urls: { aboutUrl: `${SITE}/about`, newsUrl: `${SITE}/news` },
				content: { defaultEventsCalendar: 'events-list' },
			}),
		});
		const nav = getByRole('navigation', { name: 'Main' });
		const links = [...nav.querySelectorAll(':scope > ul > li > a')].map((a) => [
			a.textContent?.trim(),
			a.getAttribute('href'),
		]);
		// The default menu: Home, Directory, Events (following the default calendar), About.
		expect(links).toEqual([
			['Home', '/'],
			['Directory', '/search'],
			['Events', '/events-list'],
		]);
		const about = getByRole('button', { name: 'About' });
		expect(about.getAttribute('aria-expanded')).toBe('false');
		const panel = nav.querySelector(`#${about.getAttribute('aria-controls')}`);
		expect(panel?.hasAttribute('hidden')).toBe(true);
		// Only the configured one of About's three default links (aboutUrl, teamUrl, boardUrl).
		expect([...(panel?.querySelectorAll('a') ?? [])].map((a) => a.getAttribute('href'))).toEqual([
			`${SITE}/about`,
		]);
	});

	const menuLinks = (body: HTMLElement) =>
		[...body.querySelectorAll('nav[aria-label="Main"] a, dialog#mobile-menu a')].map((a) =>
			a.getAttribute('href'),
		);

	it.each([
		// [showEvents, showCommunityEvents, defaultEventsCalendar, where Events leads]
		[false, true, 'events', '/community-events'],
		[true, false, 'community-events', '/events'],
		[false, true, 'events-list', '/events-list'],
		[true, false, 'events-list', '/events-list'],
	] as const)(
		'events %s, community events %s, default %s: the Events link opens %s',
		async (showEvents, showCommunityEvents, calendar, path) => {
			const { getByRole, body } = await render(Header, {
				config: testConfig({
					features: { showEvents, showCommunityEvents },
					content: { defaultEventsCalendar: calendar },
				}),
			});
			const nav = getByRole('navigation', { name: 'Main' });
			expect(
				nav.querySelector('a[href^="/events"], a[href^="/community"]')?.getAttribute('href'),
			).toBe(path);
			expect(menuLinks(body)).not.toContain(showEvents ? '/community-events' : '/events');
		},
	);

	it('has no Events link at all, in the bar or the mobile menu, when both events areas are off', async () => {
		const { getByRole, body } = await render(Header, {
			config: testConfig({
				features: { showEvents: false, showCommunityEvents: false },
				navigation: {
					menuItems: [
						{ id: 'home', label: 'Home', url: '/', isInternal: true },
						{ id: 'events', label: 'Events', url: '/events', isInternal: true },
						{ id: 'town', label: 'Around Town', url: '/community-events', isInternal: true },
						{ id: 'list', label: 'Calendar', url: '/events-list/', isInternal: true },
					],
				},
			}),
		});
		expect(menuLinks(body)).toEqual(['/', '/']);
		expect(getByRole('navigation', { name: 'Main' }).textContent).not.toMatch(
			/Events|Calendar|Around Town/,
		);
	});

	it('has a mobile menu button that opens the slide-out menu dialog', async () => {
		const { getByRole, body } = await render(Header, { config: testConfig() });
		const toggle = getByRole('button', { name: 'Open menu' });
		expect(toggle.getAttribute('aria-controls')).toBe('mobile-menu');
		expect(toggle.getAttribute('aria-expanded')).toBe('false');
		expect(toggle.getAttribute('commandfor')).toBe('mobile-menu');
		const dialog = body.querySelector('dialog#mobile-menu');
		expect(dialog?.getAttribute('aria-label')).toBe('Menu');
		expect(dialog?.querySelector('button[aria-label="Close menu"]')).not.toBeNull();
	});
});
