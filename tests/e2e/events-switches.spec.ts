import { expect, test, type APIRequestContext } from '@playwright/test';
import { eventPath, type Event } from '../../src/features/events/events.ts';
import { changeDemoConfig } from './admin-support.ts';

// features.showEvents / showCommunityEvents off, as the running site sees them: the functions and
// the on-demand event page read the configuration per request (by its cache version), so these
// tests switch the demo's areas off in the database and back on afterwards. The pre-rendered
// calendar pages follow at the next build (src/pages/[calendar].astro builds only the pages
// whose area is on; `calendarOn` is unit-tested), and the header and footer links have
// component tests.

type Switches = { showEvents: boolean; showCommunityEvents: boolean };

async function setSwitches(switches: Switches): Promise<void> {
	await changeDemoConfig('features', (features) => ({ ...features, ...switches }));
}

async function firstEvent(request: APIRequestContext, path: string): Promise<Event> {
	const response = await request.get(path);
	expect(response.status()).toBe(200);
	const { Result } = (await response.json()) as { Result: Event[] };
	const event = Result[0];
	if (!event) throw new Error(`${path} answered no event`);
	return event;
}

async function expectGone(request: APIRequestContext, path: string, error: string) {
	const response = await request.get(path);
	expect(response.status(), path).toBe(404);
	expect(response.headers()['content-type']).toContain('application/json');
	expect(await response.json()).toEqual({ error });
}

test.describe('events areas switched off', () => {
	test.describe.configure({ mode: 'serial' });
	test.afterEach(() => setSwitches({ showEvents: true, showCommunityEvents: true }));

	test('community events off: their functions answer 404, chamber events and event pages stay', async ({
		request,
	}) => {
		const chamber = await firstEvent(request, '/api/events');
		await setSwitches({ showEvents: true, showCommunityEvents: false });
		await expectGone(request, '/api/community-events', 'Community events are not available');
		await expectGone(
			request,
			'/api/events.ics?source=community',
			'Community events are not available',
		);
		expect((await request.get('/api/events')).status()).toBe(200);
		expect((await request.get('/api/events.ics')).status()).toBe(200);
		expect((await request.get(eventPath(chamber))).status()).toBe(200);
	});

	test('chamber events off: /api/events and its feed answer 404, community events stay', async ({
		request,
	}) => {
		await setSwitches({ showEvents: false, showCommunityEvents: true });
		await expectGone(request, '/api/events', 'Events are not available');
		await expectGone(request, '/api/events.ics', 'Events are not available');
		expect((await request.get('/api/community-events')).status()).toBe(200);
	});

	test('both off: event details, calendar files and event pages answer 404, the page the 404 page', async ({
		page,
		request,
	}) => {
		const event = await firstEvent(request, '/api/events');
		await setSwitches({ showEvents: false, showCommunityEvents: false });
		await expectGone(
			request,
			`/api/event-details?eventId=${event.EventId}`,
			'Events are not available',
		);
		await expectGone(request, `/api/events/${event.EventId}.ics`, 'Events are not available');
		await expectGone(request, '/api/community-events', 'Community events are not available');

		const response = await page.goto(eventPath(event));
		expect(response?.status()).toBe(404);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
		await expect(page.getByText(event.EventName)).toHaveCount(0);

		await setSwitches({ showEvents: true, showCommunityEvents: true });
		expect((await request.get(eventPath(event))).status()).toBe(200);
	});
});
