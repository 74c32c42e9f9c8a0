import { expect, test } from '@playwright/test';

test.describe('the demo chamber, end to end', () => {
	test('home page shows the chamber, themed from its configuration in the database', async ({
		page,
	}) => {
		await page.goto('/');
		await expect(page).toHaveTitle(/Cedar Valley Chamber of Commerce/);
		await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
		const theme = await page.evaluate(() => {
			const style = getComputedStyle(document.documentElement);
			return {
				primary: style.getPropertyValue('--color-primary').trim(),
				font: style.getPropertyValue('--font-heading').trim(),
			};
		});
		expect(theme.primary).toMatch(/^#[0-9a-fA-F]{6}$/);
		expect(theme.font.length).toBeGreaterThan(0);
	});

	test('GET /api/categories answers categories with counts, most popular first', async ({
		request,
	}) => {
		const response = await request.get('/api/categories');
		expect(response.status()).toBe(200);
		expect(response.headers()['netlify-cdn-cache-control']).toContain('s-maxage=86400');
		const categories = (await response.json()) as { name: string; count: number }[];
		expect(categories.length).toBeGreaterThanOrEqual(30);
		expect(categories.map((c) => c.name)).toContain('Chamber of Commerce');
		for (const c of categories) expect(c.count).toBeGreaterThan(0);
		const counts = categories.map((c) => c.count);
		expect(counts).toEqual([...counts].sort((a, b) => b - a));
	});

	test('bad input gets a JSON error with the right status, never a stack trace', async ({
		request,
	}) => {
		const bad = await request.get('/api/categories?v=abc');
		expect(bad.status()).toBe(400);
		expect(await bad.json()).toEqual({ error: expect.stringContaining('v') });
		const wrongMethod = await request.post('/api/categories');
		expect(wrongMethod.status()).toBe(405);
	});
});
