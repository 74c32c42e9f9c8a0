import { expect, test, type APIRequestContext } from '@playwright/test';
import { IN_FULL_BROWSER } from './full-browser.ts';
import ICAL from 'ical.js';
import { readFile } from 'node:fs/promises';
import { eventPath, withHttp, type Event } from '../../src/features/events/events.ts';
import { expectNoAxeViolations } from './a11y-support.ts';
import { expectSelfHostedFonts } from './font-support.ts';

// The event detail page of the demo chamber, as a visitor gets it: rendered on demand, complete
// in the HTML, with no script loaded until Share is clicked.

async function demoEvent(request: APIRequestContext, name: string): Promise<Event> {
	const response = await request.get('/api/events');
	expect(response.status()).toBe(200);
	const { Result } = (await response.json()) as { Result: Event[] };
	const event = Result.find((e) => e.EventName === name);
	if (!event) throw new Error(`The demo has no event named ${name}`);
	return event;
}

test.describe('event detail', () => {
	// The map embed and the sponsors' logos live on other hosts; tests never reach out to them.
	test.beforeEach(async ({ context, baseURL }) => {
		const site = new URL(baseURL ?? 'http://localhost').host;
		await context.route(
			(url) => url.host !== site,
			(route) => route.abort(),
		);
	});

	test('shows every section of the featured gala with its texts', async ({ page, request }) => {
		// Many checks, and the first request wakes the on-demand function.
		test.slow();
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await page.goto(eventPath(gala));

		const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
		await expect(breadcrumb.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
		await expect(breadcrumb.getByRole('link', { name: 'Events' })).toHaveAttribute(
			'href',
			'/events',
		);
		await expect(breadcrumb).toContainText('Annual Gala & Awards Night');

		const main = page.getByRole('main');
		await expect(main.getByText('Signature Event', { exact: true })).toBeVisible();
		await expect(main.getByText('⭐ Featured')).toBeVisible();
		await expect(
			main.getByRole('heading', { level: 1, name: 'Annual Gala & Awards Night' }),
		).toBeVisible();
		await expect(main).toContainText(/(Sun|Mon|Tues|Wednes|Thurs|Fri|Satur)day, \w+ \d+, \d{4}/);
		await expect(main).toContainText(/5:30 PM – 10:00 PM C[SD]T/);
		await expect(main.getByText(`${gala.Attendees.length} attending`)).toBeVisible();

		const about = main.getByRole('region', { name: 'About This Event' });
		await expect(about.getByRole('heading', { name: 'An Evening Celebrating' })).toBeVisible();
		await expect(about).toContainText('Business of the Year');

		const tickets = main.getByRole('region', { name: 'Tickets & Pricing' });
		await expect(tickets).toContainText('Individual Ticket$125');
		await expect(tickets).toContainText('Table of Eight$900');
		await expect(tickets).not.toContainText('Sponsor Table');

		const location = main.getByRole('region', { name: 'Location' });
		await expect(location).toContainText('Grand Prairie Hotel Ballroom');
		await expect(location).toContainText('1200 Lincoln Way');
		await expect(location).toContainText('Cedarbrook, IA 52902');
		await expect(location.locator('iframe')).toHaveAttribute(
			'title',
			'Map of Grand Prairie Hotel Ballroom',
		);
		const directions = location.getByRole('link', { name: 'Get Directions' });
		await expect(directions).toHaveAttribute('target', '_blank');
		await expect(directions).toHaveAttribute('href', /destination=Grand%20Prairie%20Hotel/);

		const registration = main.getByRole('region', { name: 'Registration Information' });
		await expect(registration).toContainText('Registration Opens');
		await expect(registration).toContainText('Registration Closes');

		const questions = main.getByRole('region', { name: 'Questions?' });
		await expect(questions.getByRole('link')).toHaveAttribute(
			'href',
			`mailto:${gala.SendQuestionsToEmail}`,
		);

		const details = main.getByRole('region', { name: 'Event Details' });
		for (const text of ['Date', 'Time', 'Location', 'Price', '$125 – $900']) {
			await expect(details).toContainText(text);
		}

		const sponsors = main.getByRole('region', { name: 'Event Sponsors' });
		await expect(sponsors.getByRole('listitem')).toHaveCount(gala.Sponsors.length);
		await expect(sponsors).toContainText('Proud presenting sponsor of the Annual Gala.');
		for (const sponsor of gala.Sponsors) {
			const item = sponsors.getByRole('listitem').filter({
				has: page.getByRole('img', { name: sponsor.SponsorName }),
			});
			if (sponsor.SponsorLogoUrl) {
				// Logos and websites without a scheme get http://.
				await expect(item.getByRole('img').first()).toHaveAttribute(
					'src',
					withHttp(sponsor.SponsorLogoUrl),
				);
				await expect(item.getByRole('link').first()).toHaveAttribute(
					'href',
					withHttp(sponsor.SponsorWebsite),
				);
			}
			const name = sponsors.getByText(sponsor.SponsorName, { exact: true });
			if (sponsor.HideSponsorOrgName) await expect(name).toHaveCount(0);
			else await expect(name.first()).toBeVisible();
		}

		const actions = main.getByRole('region', { name: 'Actions' });
		await expect(actions.getByRole('link', { name: 'Add to Calendar' })).toBeVisible();
		await expect(actions.getByRole('button', { name: 'Share Event' })).toBeVisible();
		await expect(main.getByRole('link', { name: 'Back to All Events' })).toHaveAttribute(
			'href',
			'/events',
		);
	});

	test('carries title, description, canonical, social cards and JSON-LD in the HTML itself', async ({
		request,
	}) => {
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		const response = await request.get(eventPath(gala));
		expect(response.status()).toBe(200);
		expect(response.headers()['netlify-cdn-cache-control']).toMatch(
			/^public, durable, s-maxage=\d+, stale-while-revalidate=172800$/,
		);
		expect(response.headers()['netlify-cache-tag']).toContain(`demo:event:${gala.EventId}`);
		const html = await response.text();
		const attribute = (pattern: RegExp) => pattern.exec(html)?.[1] ?? '';

		expect(attribute(/<title>([^<]*)<\/title>/)).toBe(
			'Annual Gala &amp; Awards Night | Cedar Valley Chamber of Commerce',
		);
		const description = attribute(/<meta name="description" content="([^"]*)"/);
		expect(description.startsWith('An Evening Celebrating Cedar Valley Business.')).toBe(true);
		expect([...description].length).toBeLessThanOrEqual(160);
		expect(attribute(/<link rel="canonical" href="([^"]*)"/)).toMatch(
			new RegExp(`^https?://[^/]+${eventPath(gala)}$`),
		);
		expect(attribute(/<meta property="og:title" content="([^"]*)"/)).toContain('Annual Gala');
		expect(attribute(/<meta property="og:url" content="([^"]*)"/)).toContain(eventPath(gala));
		expect(attribute(/<meta name="twitter:card" content="([^"]*)"/)).toBe('summary');

		const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)]
			.map((m) => JSON.parse(m[1] ?? '{}') as Record<string, unknown>)
			.find((data) => data['@type'] === 'Event');
		expect(jsonLd).toMatchObject({
			'@context': 'https://schema.org',
			name: 'Annual Gala & Awards Night',
			startDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT17:30:00-0[56]:00$/),
			endDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT22:00:00-0[56]:00$/),
			location: {
				'@type': 'Place',
				name: 'Grand Prairie Hotel Ballroom',
				address: { '@type': 'PostalAddress', streetAddress: '1200 Lincoln Way' },
			},
			organizer: { '@type': 'Organization', name: 'Cedar Valley Chamber of Commerce' },
		});
		expect(jsonLd?.offers).toEqual([
			expect.objectContaining({ name: 'Individual Ticket', price: '125.00', priceCurrency: 'USD' }),
			expect.objectContaining({ name: 'Table of Eight', price: '900.00' }),
		]);
		expect(Date.parse(String(jsonLd?.startDate))).toBe(Date.parse(gala.StartDateTimeUtc));
	});

	test("'Add to Calendar' downloads a valid calendar file for the event", async ({
		page,
		request,
	}) => {
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await page.goto(eventPath(gala));
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('link', { name: 'Add to Calendar' }).click(),
		]);
		expect(download.suggestedFilename()).toMatch(/\.ics$/);
		const text = await readFile((await download.path()) ?? '', 'utf8');
		const calendar = new ICAL.Component(ICAL.parse(text));
		const [vevent] = calendar.getAllSubcomponents('vevent');
		const event = new ICAL.Event(vevent);
		expect(event.uid).toBe(`event-${gala.EventId}@localhost`);
		expect(event.summary).toBe('Annual Gala & Awards Night');
		expect(event.startDate.toJSDate().getTime()).toBe(Date.parse(gala.StartDateTimeUtc));
		expect(event.endDate.toJSDate().getTime()).toBe(Date.parse(gala.EndDateTimeUtc));
		expect([...(event.description ?? '')].length).toBeLessThanOrEqual(500);
		expect(event.component.getFirstPropertyValue('url')).toMatch(new RegExp(`${eventPath(gala)}$`));
	});

	test("registration: 'Register Now' in a new tab, 'Event Has Passed' once over, or nothing", async ({
		page,
		request,
	}) => {
		const sidebar = () => page.getByRole('complementary', { name: 'Event information' });

		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await page.goto(eventPath(gala));
		const special = sidebar().getByRole('link', { name: 'Register Now' });
		await expect(special).toHaveAttribute('href', gala.SpecialRegistrationUrl);
		await expect(special).toHaveAttribute('target', '_blank');
		await expect(special).toHaveAttribute('rel', 'noopener noreferrer');

		const address = await demoEvent(request, 'State of the City Address');
		await page.goto(eventPath(address));
		await expect(sidebar().getByRole('link', { name: 'Register Now' })).toHaveAttribute(
			'href',
			`https://members.cedarvalleychamber.example/atlas/events/state-of-the-city-address-${address.EventId}/register`,
		);

		const breakfast = await demoEvent(request, 'Legislative Breakfast');
		await page.goto(eventPath(breakfast));
		await expect(sidebar().getByRole('button', { name: 'Event Has Passed' })).toBeDisabled();
		await expect(page.getByRole('link', { name: 'Register Now' })).toHaveCount(0);

		const shopLocal = await demoEvent(request, 'Shop Local Saturday');
		await page.goto(eventPath(shopLocal));
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shop Local Saturday');
		await expect(page.getByText('All Day').first()).toBeVisible();
		await expect(page.getByRole('link', { name: 'Register Now' })).toHaveCount(0);
		await expect(page.getByRole('button', { name: 'Event Has Passed' })).toHaveCount(0);
		await expect(page.getByRole('region', { name: 'Registration Information' })).toHaveCount(0);
	});

	test('on a phone the register button sits in the header', async ({ page, request }) => {
		await page.setViewportSize({ width: 375, height: 800 });
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await page.goto(eventPath(gala));
		const register = page.getByRole('link', { name: 'Register Now' });
		await expect(register).toHaveCount(1);
		const box = await register.boundingBox();
		const about = await page.getByRole('heading', { name: 'About This Event' }).boundingBox();
		expect(box && about && box.y < about.y).toBe(true);
	});

	test('companies attending open up to names and titles, only above the threshold', async ({
		page,
		request,
	}) => {
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await page.goto(eventPath(gala));
		const companies = page.getByRole('region', { name: 'Companies Attending' });
		const first = gala.Attendees[0]!;
		const person = companies.getByText(`${first.FName} ${first.LName}`).first();
		await expect(person).toBeHidden();
		await companies.getByText(first.RegistrationOrgName).first().click();
		await expect(person).toBeVisible();
		if (first.Title) {
			await expect(person.locator('..')).toContainText(`, ${first.Title}`);
		}

		// The golf classic shows attendee detail only from 50, and has fewer.
		const golf = await demoEvent(request, 'Chamber Golf Classic');
		await page.goto(eventPath(golf));
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chamber Golf Classic');
		await expect(page.getByRole('region', { name: 'Companies Attending' })).toHaveCount(0);
		await expect(page.getByText(/\d+ attending/)).toHaveCount(0);
	});

	test("'Share Event' copies the link and says so when there is no share sheet", async ({
		page,
		context,
		request,
	}) => {
		await context.grantPermissions(['clipboard-read', 'clipboard-write']);
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await page.addInitScript(() => {
			Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
		});
		await page.goto(eventPath(gala));
		// The alert holds the page until it is answered, so it is answered as it opens.
		const alerts: string[] = [];
		page.on('dialog', (dialog) => {
			alerts.push(dialog.message());
			void dialog.accept();
		});
		await page.getByRole('button', { name: 'Share Event' }).click();
		await expect.poll(() => alerts).toEqual(['Event link copied to clipboard!']);
		const copied = await page.evaluate(() => navigator.clipboard.readText());
		expect(copied).toMatch(new RegExp(`^https?://[^/]+${eventPath(gala)}$`));
	});

	test("'Share Event' uses the native share sheet where there is one", async ({
		page,
		request,
	}) => {
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await page.addInitScript(() => {
			const calls: unknown[] = [];
			Object.defineProperty(window, 'sharedWith', { value: calls });
			Object.defineProperty(Navigator.prototype, 'share', {
				value: async (data: unknown) => void calls.push(data),
				configurable: true,
			});
		});
		await page.goto(eventPath(gala));
		await page.getByRole('button', { name: 'Share Event' }).click();
		await expect
			.poll(() => page.evaluate(() => (window as unknown as { sharedWith: unknown[] }).sharedWith))
			.toEqual([
				{
					title: 'Annual Gala & Awards Night',
					url: expect.stringMatching(new RegExp(`^https?://[^/]+${eventPath(gala)}$`)),
				},
			]);
	});

	test('a wrong slug redirects to the canonical one', async ({ page, request }) => {
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		const response = await request.get(`/events/${gala.EventId}/old-name`, { maxRedirects: 0 });
		expect(response.status()).toBe(301);
		expect(response.headers().location).toBe(eventPath(gala));
		await page.goto(`/events/${gala.EventId}`);
		await expect(page).toHaveURL(new RegExp(`${eventPath(gala)}$`));
	});

	test("an unknown or closed event shows 'Event Not Found' with a 404", async ({
		page,
		request,
	}) => {
		for (const path of ['/events/999999/no-such-event', '/events/not-a-number']) {
			const response = await page.goto(path);
			expect(response?.status()).toBe(404);
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Event Not Found');
			await expect(
				page.getByText('This might be due to a recent update. Try refreshing the page.'),
			).toBeVisible();
			await expect(page.getByRole('link', { name: 'Refresh Page' })).toHaveAttribute('href', path);
			await expect(page.getByRole('link', { name: 'Back to Events' })).toHaveAttribute(
				'href',
				'/events',
			);
		}
		// The demo numbers its chamber events in a row, closed ones included: the gaps are closed.
		const day = (offset: number) =>
			new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
		const all = await request.get(`/api/events?startDate=${day(-200)}&endDate=${day(400)}`);
		const ids = ((await all.json()) as { Result: Event[] }).Result.map((e) => e.EventId);
		const closed = ids.slice(1).flatMap((id, k) => (id - ids[k]! > 1 ? [ids[k]! + 1] : []));
		expect(closed.length).toBeGreaterThan(0);
		const response = await page.goto(`/events/${closed[0]}/board-of-directors-meeting`);
		expect(response?.status()).toBe(404);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Event Not Found');
	});

	test('loads no script with the page', IN_FULL_BROWSER, async ({ page, request }) => {
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		const scripts: string[] = [];
		page.on('request', (r) => {
			if (r.resourceType() === 'script') scripts.push(r.url());
		});
		await page.goto(eventPath(gala), { waitUntil: 'networkidle' });
		expect(scripts).toEqual([]);
	});

	test('fonts come from this site, though the page is rendered on demand', async ({
		page,
		request,
	}) => {
		const gala = await demoEvent(request, 'Annual Gala & Awards Night');
		await expectSelfHostedFonts(page, eventPath(gala));
	});

	for (const name of ['Annual Gala & Awards Night', 'Legislative Breakfast']) {
		test(`has no accessibility violations: ${name}`, async ({ page, request }) => {
			const event = await demoEvent(request, name);
			await page.goto(eventPath(event));
			if (event.ShowAttendeeDetail) {
				await page
					.getByRole('region', { name: 'Companies Attending' })
					.locator('summary')
					.first()
					.click();
			}
			await expectNoAxeViolations(page, { exclude: ['iframe'] });
		});
	}

	test("has no accessibility violations: 'Event Not Found'", async ({ page }) => {
		await page.goto('/events/999999/no-such-event');
		await expectNoAxeViolations(page);
	});
});
