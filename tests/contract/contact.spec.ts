import { expect, test, type Page } from '@playwright/test';
import { profilePath } from '../../src/features/business/business.ts';
import { findBusiness } from '../e2e/directory-helpers.ts';
import { holdRequests } from '../e2e/island-support.ts';

// The contact dialog's states as the specification writes them, on a profile of the demo chamber
// in Chromium: closed, open (Contact), sending, then the error line or the success line, and the
// dialog closing by itself 2 seconds after success. One page for the file: each row opens the
// dialog it needs and leaves it closed.

let page: Page;

test.beforeAll(async ({ browser }) => {
	page = await browser.newPage();
	const business = await findBusiness(
		page.request,
		'that takes messages',
		(b) => b.acceptsMessages,
	);
	await page.goto(profilePath(business));
});
test.afterAll(() => page?.close());

const dialog = () => page.getByRole('dialog');
const field = (name: string) => dialog().getByRole('textbox', { name });
const send = () => dialog().getByRole('button', { name: 'Send Message' });

async function open() {
	if (!(await dialog().isVisible())) {
		await page.getByRole('main').getByRole('button', { name: 'Send Message' }).click();
	}
	await expect(dialog()).toBeVisible();
}

async function fill(message: string) {
	await field('Name').fill('Ada Lovelace');
	await field('Email').fill('ada@example.com');
	await field('Message').fill(message);
}

async function close() {
	if (await dialog().isVisible()) await dialog().getByRole('button', { name: 'Cancel' }).click();
	await expect(dialog()).toBeHidden();
}

test('open (clicking Contact): fields name, email, message (5 rows); Cancel, submit and ×', async () => {
	await open();
	await expect(field('Name')).toBeVisible();
	await expect(field('Email')).toHaveAttribute('type', 'email');
	await expect(field('Message')).toHaveAttribute('rows', '5');
	await expect(dialog().getByRole('button', { name: 'Cancel' })).toBeVisible();
	await expect(send()).toBeVisible();
	await expect(dialog().getByRole('button', { name: 'Close' })).toHaveText('×');
	await close();
});

test("sending: inputs and buttons disabled, button label 'Sending...'", async () => {
	await open();
	await fill(`Sending state (contract ${Date.now()})`);
	const held = await holdRequests(page, '**/api/contact-business');
	await send().click();
	await expect(dialog().getByRole('button', { name: 'Sending...' })).toBeDisabled();
	for (const name of ['Name', 'Email', 'Message']) await expect(field(name)).toBeDisabled();
	await expect(dialog().getByRole('button', { name: 'Cancel' })).toBeDisabled();
	await expect(dialog().getByRole('button', { name: 'Close' })).toBeDisabled();
	held.release();
	await expect(dialog()).toBeHidden({ timeout: 10_000 });
	await page.unroute('**/api/contact-business');
});

test("'Message sent successfully!', the form cleared, the dialog closing by itself after 2 seconds", async () => {
	await open();
	await fill(`Success state (contract ${Date.now()})`);
	await send().click();
	await expect(dialog().getByRole('status')).toHaveText('Message sent successfully!');
	const shownAt = Date.now();
	for (const name of ['Name', 'Email', 'Message']) await expect(field(name)).toHaveValue('');
	await expect(dialog()).toBeHidden({ timeout: 5_000 });
	const closedAfter = Date.now() - shownAt;
	expect(closedAfter).toBeGreaterThan(1_500);
	expect(closedAfter).toBeLessThan(3_500);
});

test("Contact failure: the server's error text", async () => {
	await page.route('**/api/contact-business', (route) =>
		route.fulfill({ status: 429, json: { success: false, error: 'Too many messages sent.' } }),
	);
	await open();
	await fill('Hello');
	await send().click();
	await expect(dialog().getByRole('alert')).toHaveText('Too many messages sent.');
	await page.unroute('**/api/contact-business');
	await close();
});

test("Contact failure: 'Failed to send message.'", async () => {
	await page.route('**/api/contact-business', (route) =>
		route.fulfill({ status: 502, body: '<html>Bad gateway</html>' }),
	);
	await open();
	await fill('Hello');
	await send().click();
	await expect(dialog().getByRole('alert')).toHaveText('Failed to send message.');
	await page.unroute('**/api/contact-business');
	await close();
});

test("'reCAPTCHA not loaded. Please try again.'", async () => {
	// The demo chamber has no site key: the profile's dialog is given one, and the provider's script
	// does not load.
	await page.route('https://www.google.com/recaptcha/**', (route) => route.abort());
	await page.locator('#contact-dialog').evaluate((host) => {
		host.dataset.recaptchaKey = 'contract-site-key';
	});
	await open();
	await fill('Hello');
	await send().click();
	await expect(dialog().getByRole('alert')).toHaveText('reCAPTCHA not loaded. Please try again.');
	await close();
	await page.locator('#contact-dialog').evaluate((host) => {
		delete host.dataset.recaptchaKey;
	});
	await page.unroute('https://www.google.com/recaptcha/**');
});

test('Cancel and × close it', async () => {
	await open();
	await dialog().getByRole('button', { name: 'Cancel' }).click();
	await expect(dialog()).toBeHidden();
	await open();
	await dialog().getByRole('button', { name: 'Close' }).click();
	await expect(dialog()).toBeHidden();
});
