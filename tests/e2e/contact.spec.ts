import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { profilePath } from '../../src/features/business/business.ts';
import type { Business } from '../../src/features/directory/directory.ts';
import { openPanel, withDatabase } from './admin-support.ts';
import { demoTenant, findBusiness } from './directory-helpers.ts';
import { expectFocusKeptIn } from './focus-support.ts';
import { holdRequests } from './island-support.ts';
import { DATA_DIR } from './e2e-env.ts';

async function openDialog(page: Page): Promise<Business> {
	const business = await findBusiness(
		page.request,
		'with an e-mail address',
		(b) => b.acceptsMessages,
	);
	await page.goto(profilePath(business));
	await page.getByRole('button', { name: 'Send Message' }).click();
	await expect(page.getByRole('dialog', { name: `Contact ${business.name}` })).toBeVisible();
	return business;
}

function form(page: Page) {
	const dialog = page.getByRole('dialog');
	return {
		dialog,
		name: dialog.getByRole('textbox', { name: 'Name' }),
		email: dialog.getByRole('textbox', { name: 'Email' }),
		message: dialog.getByRole('textbox', { name: 'Message' }),
		send: dialog.getByRole('button', { name: 'Send Message' }),
	};
}

async function fill(page: Page, message: string) {
	const f = form(page);
	await f.name.fill('Ada Lovelace');
	await f.email.fill('ada@example.com');
	await f.message.fill(message);
}

test.describe('contact dialog', () => {
	test('sends a message: Sending..., then success, then it closes after 2 seconds', async ({
		page,
	}) => {
		// The page's clock, so 'after 2 seconds' is the page's two seconds, however busy the machine.
		await page.clock.install();
		const business = await openDialog(page);
		const f = form(page);
		await expect(f.message).toHaveAttribute('rows', '5');
		const text = `Do you cater weddings? (e2e ${Date.now()})`;
		await fill(page, text);
		// Held until checked, so the sending state can be seen.
		const held = await holdRequests(page, '**/api/contact-business');
		await f.send.click();

		const sending = f.dialog.getByRole('button', { name: 'Sending...' });
		await expect(sending).toBeDisabled();
		for (const field of [f.name, f.email, f.message]) await expect(field).toBeDisabled();
		await expect(f.dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
		await expect(f.dialog.getByRole('button', { name: 'Close' })).toBeDisabled();
		// From here the page's time moves only when told to.
		await page.clock.pauseAt(new Date(Date.now() + 60_000));
		held.release();

		await expect(f.dialog.getByText('Message sent successfully!')).toBeVisible();
		for (const field of [f.name, f.email, f.message]) await expect(field).toHaveValue('');
		await page.clock.runFor(1_900);
		await expect(f.dialog).toBeVisible();
		await page.clock.runFor(1_000);
		await expect(f.dialog).toBeHidden();
		await expect(page.getByRole('button', { name: 'Send Message' })).toBeFocused();

		// Stored in the database…
		const { rows } = await withDatabase((db) =>
			db.query(
				'select name, email, business_name, business_id from public.contact_messages where message = $1',
				[text],
			),
		);
		expect(rows).toEqual([
			{
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				business_name: business.name,
				business_id: business.id,
			},
		]);
		// …and e-mailed right after the answer: an .eml in the outbox.
		const outbox = join(DATA_DIR, 'outbox');
		const sentEmails = async () => {
			const files = (await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml'));
			const emails = await Promise.all(files.map((f) => readFile(join(outbox, f), 'utf8')));
			return emails.filter((eml) => eml.includes(text));
		};
		await expect.poll(async () => (await sentEmails()).length).toBe(1);
		const sent = await sentEmails();
		// The address is not public: the function read it by the business's id.
		const address =
			(demoTenant().businesses ?? []).find(
				(b) => b.weblink_profile_id === business.weblinkProfileId,
			)?.email ?? '';
		expect(address).toContain('@');
		expect(sent[0]).toMatch(new RegExp(`^To: .*${address.replace(/[.+]/g, '\\$&')}`, 'm'));
		expect(sent[0]).toMatch(/^Reply-To: .*ada@example\.com/m);
	});

	test('required fields and the e-mail format block sending', async ({ page }) => {
		const posts: string[] = [];
		page.on('request', (r) => r.url().includes('/api/contact-business') && posts.push(r.url()));
		await openDialog(page);
		const f = form(page);
		for (const field of [f.name, f.email, f.message])
			await expect(field).toHaveAttribute('required', '');
		await expect(f.email).toHaveAttribute('type', 'email');

		await f.send.click();
		expect(await f.name.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
		await fill(page, 'Hello');
		await f.email.fill('not-an-email');
		await f.send.click();
		expect(await f.email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
		await f.message.fill('');
		await f.email.fill('ada@example.com');
		await f.send.click();
		expect(await f.message.evaluate((el: HTMLTextAreaElement) => el.validity.valueMissing)).toBe(
			true,
		);

		await expect(f.dialog).toBeVisible();
		await expect(f.dialog.getByText('Message sent successfully!')).toHaveCount(0);
		expect(posts).toEqual([]);
	});

	test("shows the server's error text, or 'Failed to send message.' without one", async ({
		page,
	}) => {
		await openDialog(page);
		const f = form(page);
		await page.route('**/api/contact-business', (route) =>
			route.fulfill({
				status: 429,
				json: {
					success: false,
					error: 'Too many messages sent. Please wait a minute and try again.',
				},
			}),
		);
		await fill(page, 'Hello');
		await f.send.click();
		await expect(f.dialog.getByRole('alert')).toHaveText(
			'Too many messages sent. Please wait a minute and try again.',
		);
		// Nothing is lost: the visitor can try again.
		await expect(f.message).toHaveValue('Hello');
		await expect(f.send).toBeEnabled();

		await page.unroute('**/api/contact-business');
		await page.route('**/api/contact-business', (route) =>
			route.fulfill({ status: 502, body: '<html>Bad gateway</html>' }),
		);
		await f.send.click();
		await expect(f.dialog.getByRole('alert')).toHaveText('Failed to send message.');
		await expect(f.dialog).toBeVisible();
	});

	test('Escape, Cancel and × close it, and focus returns to the opener', async ({ page }) => {
		await openDialog(page);
		const f = form(page);
		const opener = page.getByRole('button', { name: 'Send Message' });
		await expect(f.name).toBeFocused();

		await page.keyboard.press('Escape');
		await expect(f.dialog).toBeHidden();
		await expect(opener).toBeFocused();

		await opener.click();
		await expect(f.dialog).toBeVisible();
		await f.dialog.getByRole('button', { name: 'Cancel' }).click();
		await expect(f.dialog).toBeHidden();
		await expect(opener).toBeFocused();

		await opener.click();
		await f.dialog.getByRole('button', { name: 'Close' }).click();
		await expect(f.dialog).toBeHidden();
		await expect(opener).toBeFocused();
	});

	test('keeps focus inside while open', async ({ page }) => {
		await openDialog(page);
		await expectFocusKeptIn(page, 'dialog[open]', 8, 8);
		// The honeypot is never reached.
		const reached = new Set<string>();
		for (let i = 0; i < 8; i++) {
			await page.keyboard.press('Tab');
			reached.add(await page.evaluate(() => document.activeElement?.getAttribute('name') ?? ''));
		}
		expect(reached.has('website')).toBe(false);
	});
});

test.describe("messages not delivered yet, in the panel's header", () => {
	test("the chamber's admins see how many, its editors do not", async ({ page, browser }) => {
		const texts = [`Undelivered waiting ${Date.now()}`, `Undelivered given up ${Date.now()}`];
		// Stored while the mail server was down: one still retried later, one out of attempts.
		await withDatabase((db) =>
			db.query(
				`insert into public.contact_messages
					(tenant_id, business_name, name, email, message, delivery_status, delivery_error, attempts, next_attempt_at)
				select t.id, 'A business', 'Ada Lovelace', 'ada@example.com', m.text, 'failed',
					'connect ECONNREFUSED', m.attempts, now() + interval '1 day'
				from public.tenants t, (values ($1, 1), ($2, 16)) as m(text, attempts)
				where t.slug = 'demo'`,
				texts,
			),
		);
		try {
			await openPanel(page, 'admin@demo.test');
			await expect(page.getByRole('status').filter({ hasText: 'not delivered yet' })).toHaveText(
				'2 visitor messages not delivered yet, 1 no longer retried: check the mail settings.',
			);

			const editor = await browser.newPage();
			await openPanel(editor, 'editor@demo.test');
			await expect(editor.getByText('not delivered yet')).toHaveCount(0);
			await editor.context().close();
		} finally {
			await withDatabase((db) =>
				db.query('delete from public.contact_messages where message = any($1)', [texts]),
			);
		}
	});
});
