import { expect, test } from '@playwright/test';
import { signIn } from '../e2e/admin-support.ts';

// On the hosted-shaped database: the admin the deploy guide imported signs in through the app,
// changes the hero title, and the save goes live on the public site.

test('an imported admin signs in, saves a new hero title, and the home page shows it', async ({
	page,
}) => {
	test.setTimeout(300_000);
	const title = `Welcome to Example ${Date.now().toString(36)}`;
	await page.goto(`/chamber-login-v2?redirect=${encodeURIComponent('/chamber-config-v2')}`);
	await signIn(page, 'admin@example.test', 'example-password');
	await page.getByRole('tab', { name: 'Content', exact: true }).click();
	await page.getByRole('tabpanel').getByRole('textbox', { name: 'Hero title' }).fill(title);
	await page.getByRole('button', { name: /^Save Changes/ }).click();
	await expect(page.getByText('Changes saved successfully!')).toBeVisible();
	const status = page
		.getByRole('banner')
		.getByRole('status')
		.filter({ hasText: /Publishing|Live/ });
	await expect(status).toHaveText(/^Live since \d\d:\d\d$/, { timeout: 240_000 });
	const visitor = await page.context().newPage();
	await visitor.goto('/');
	await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
});
