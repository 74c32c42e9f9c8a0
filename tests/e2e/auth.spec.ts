import { expect, test } from '@playwright/test';
import {
	createUser,
	DEMO_PASSWORD,
	logIn,
	logInAsNewUser,
	PANEL,
	resetLinkFor,
	serviceClient,
	signIn,
} from './admin-support.ts';

// The admin portal's sign-in in Chromium against `npm start`'s server and the
// stack's identity service: login, the password reset through the e-mailed link, the deprecated
// pages and the guarded panel shell.

test.describe('login', () => {
	test('asks for both fields, says when they are wrong, and returns to the page first asked for', async ({
		page,
	}) => {
		await page.goto(PANEL);
		await expect(page).toHaveURL(/\/chamber-login-v2\?redirect=%2Fchamber-config-v2$/);
		await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();

		await page.getByRole('button', { name: 'Sign In' }).click();
		await expect(page.getByRole('alert')).toHaveText('Email and password are required');

		await signIn(page, 'admin@demo.test', 'not-the-password');
		await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
		await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();

		await signIn(page, 'admin@demo.test');
		await expect(page).toHaveURL(PANEL);
		const header = page.getByRole('banner');
		await expect(header).toContainText('Cedar Valley Chamber of Commerce');
		await expect(header).toContainText('admin@demo.test');
		await expect(header).toContainText('Admin');
		await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
	});

	test('shows and hides the password; a visit with a live session goes straight to the panel', async ({
		page,
	}) => {
		await page.goto('/chamber-login-v2');
		const password = page.getByLabel('Password', { exact: true });
		await password.fill('secret-words');
		await expect(password).toHaveAttribute('type', 'password');
		await page.getByRole('button', { name: 'Show password' }).click();
		await expect(password).toHaveAttribute('type', 'text');
		await page.getByRole('button', { name: 'Hide password' }).click();
		await expect(password).toHaveAttribute('type', 'password');

		await signIn(page, 'editor@demo.test');
		await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
		await page.goto('/chamber-login-v2');
		await expect(page).toHaveURL(PANEL);
	});

	test('only this site’s admin pages are followed after signing in', async ({ browser }) => {
		for (const redirect of ['https://evil.example/steal', '/..//evil.example/phish']) {
			// A browser of its own each time: no session carried over from the last sign-in.
			const context = await browser.newContext();
			const page = await context.newPage();
			await logIn(page, 'admin@demo.test', redirect);
			await expect(page).toHaveURL(PANEL);
			await context.close();
		}
	});

	test('says so when the network fails', async ({ page }) => {
		await page.goto('/chamber-login-v2');
		await page.route('**/api/auth/supabase-login', (route) => route.abort('internetdisconnected'));
		await signIn(page, 'admin@demo.test');
		await expect(page.getByRole('alert')).toHaveText('Network error. Please try again.');
	});

	test('the sign-in pages stay out of search engines and caches', async ({ page }) => {
		for (const path of [
			'/chamber-login-v2',
			'/forgot-password',
			'/reset-password',
			'/chamber-login',
		]) {
			const response = await page.goto(path);
			expect(response?.headers()['cache-control']).toBe('no-store');
			expect(response?.headers()['x-robots-tag']).toBe('noindex');
			await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
			await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
		}
	});
});

test.describe('password reset', () => {
	test('forgot → e-mail → reset: the old password is refused, the new one accepted; the link works once', async ({
		page,
	}) => {
		const email = await createUser('demo', 'editor');
		await page.goto('/chamber-login-v2');
		await page.getByRole('link', { name: 'Forgot password?' }).click();
		await page.getByLabel('Email').fill(email);
		await page.getByRole('button', { name: 'Send Reset Link' }).click();
		await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
		await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();

		const link = await resetLinkFor(email);
		await page.goto(link);
		await expect(page).toHaveURL(/\/reset-password/);
		const submit = page.getByRole('button', { name: 'Update Password' });
		await expect(submit).toBeDisabled();
		await page.getByLabel('New password').fill('short');
		await page.getByLabel('Confirm password').fill('short');
		await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
		await expect(submit).toBeDisabled();
		await page.getByLabel('New password').fill('a-brand-new-password');
		await page.getByLabel('Confirm password').fill('a-different-password');
		await expect(page.getByText('Passwords do not match')).toBeVisible();
		await expect(submit).toBeDisabled();
		await page.getByLabel('Confirm password').fill('a-brand-new-password');
		await expect(submit).toBeEnabled();
		await submit.click();
		await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible();
		await expect(page).toHaveURL(/\/chamber-login-v2$/, { timeout: 10_000 });

		await signIn(page, email, DEMO_PASSWORD);
		await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
		await signIn(page, email, 'a-brand-new-password');
		await expect(page).toHaveURL(PANEL);

		await page.goto(link);
		await expect(page.getByRole('alert')).toHaveText(
			'Invalid or expired reset link. Please request a new one from the login page.',
		);
	});

	test('without a reset link the page says the link is invalid', async ({ page }) => {
		await page.goto('/reset-password');
		await expect(page.getByRole('alert')).toHaveText(
			'Invalid or expired reset link. Please request a new one from the login page.',
		);
	});

	test("'Try Again' goes back to the form; an unknown address gets the same answer", async ({
		page,
	}) => {
		await page.goto('/forgot-password');
		await page.getByLabel('Email').fill('nobody-at-all@e2e.test');
		await page.getByRole('button', { name: 'Send Reset Link' }).click();
		await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
		await page.getByRole('button', { name: 'Try Again' }).click();
		await expect(page.getByLabel('Email')).toBeVisible();
	});
});

test.describe('deprecated pages', () => {
	test('/chamber-login forwards to the new login after 5 s, keeping where to go next', async ({
		page,
	}) => {
		await page.clock.install();
		await page.goto('/chamber-login?redirect=/chamber-config/generator');
		await expect(page.getByRole('heading', { name: 'Admin sign-in has moved' })).toBeVisible();
		await expect(page.getByRole('link', { name: 'Go to the new page now' })).toHaveAttribute(
			'href',
			'/chamber-login-v2?redirect=%2Fchamber-config%2Fgenerator',
		);
		// Still here once the notice shows (the page's clock runs, faster only when told to).
		expect(page.url()).toMatch(/\/chamber-login\?/);
		await page.clock.runFor(5_000);
		await expect(page).toHaveURL(/\/chamber-login-v2\?redirect=%2Fchamber-config%2Fgenerator$/);
	});

	test('/chamber-config forwards to the panel after 5 s, and its link goes now', async ({
		page,
	}) => {
		await page.clock.install();
		await page.goto('/chamber-config');
		await expect(page.getByRole('heading', { name: 'The admin panel has moved' })).toBeVisible();
		await page.clock.runFor(5_000);
		// Not signed in: the panel sends the visitor on to the login.
		await expect(page).toHaveURL(/\/chamber-login-v2\?redirect=%2Fchamber-config-v2$/);
	});
});

test.describe('the panel shell', () => {
	test("an admin of another chamber sees 'Access Denied' for 5 s, then is signed out", async ({
		page,
	}) => {
		await page.clock.install();
		await logIn(page, 'admin@riverside.test');
		await expect(page.getByRole('alert')).toHaveText(
			"Access Denied: You are not authorized to access this chamber's admin panel.",
		);
		await page.clock.runFor(5_100);
		await expect(page).toHaveURL(/\/chamber-login-v2/);
		// The credentials are gone: the panel asks to sign in again.
		await page.goto(PANEL);
		await expect(page).toHaveURL(/\/chamber-login-v2\?redirect=/);
		expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
	});

	test('a super_admin of another chamber may open this chamber’s panel', async ({ page }) => {
		await logInAsNewUser(page, 'riverside', 'super_admin');
		await expect(page).toHaveURL(PANEL);
		await expect(page.getByRole('banner')).toContainText('Super Admin');
		await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
	});

	test('Logout clears the stored session and returns to the login', async ({ page }) => {
		await logIn(page, 'admin@demo.test');
		await page.getByRole('button', { name: 'Logout' }).click();
		await expect(page).toHaveURL(/\/chamber-login-v2/);
		expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
		await page.goto(PANEL);
		await expect(page).toHaveURL(/\/chamber-login-v2\?redirect=/);
	});

	test('a session the identity service ended sends the panel back to the login', async ({
		page,
	}) => {
		await logInAsNewUser(page, 'demo', 'admin');
		await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
		// Signed out everywhere (another device, or the password changed): this session ends.
		const token = await page.evaluate(() => {
			const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
			return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
		});
		const { error } = await (await serviceClient()).auth.admin.signOut(token, 'global');
		expect(error).toBeNull();
		await page.reload();
		await expect(page).toHaveURL(/\/chamber-login-v2\?redirect=/);
	});
	test('Change password asks for the current one, then the new one takes over', async ({
		page,
	}) => {
		const email = await logInAsNewUser(page, 'demo', 'editor');
		await page.getByRole('button', { name: 'Change password' }).click();
		const dialog = page.getByRole('dialog', { name: 'Change password' });
		await dialog.getByLabel('Current password').fill('not-my-password');
		await dialog.getByLabel('New password', { exact: true }).fill('a-brand-new-one');
		await dialog.getByLabel('Confirm new password').fill('a-brand-new-one');
		await dialog.getByRole('button', { name: 'Change password' }).click();
		await expect(dialog.getByRole('alert')).toHaveText('Your current password is not right.');
		await dialog.getByLabel('Current password').fill(DEMO_PASSWORD);
		await dialog.getByRole('button', { name: 'Change password' }).click();
		await expect(dialog.getByRole('status')).toHaveText(
			'Your password has been changed. Your other sessions were signed out.',
		);
		await dialog.getByRole('button', { name: 'Close' }).click();
		await page.getByRole('button', { name: 'Logout' }).click();
		await signIn(page, email, DEMO_PASSWORD);
		await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
		await signIn(page, email, 'a-brand-new-one');
		await expect(page).toHaveURL(PANEL);
	});
});
