import { gzipSync } from 'node:zlib';
import { expect, type Page, type Response } from '@playwright/test';

// The script budget of the interactive pages (home, search, the calendar pages): what a visitor's
// browser downloads as JavaScript before any interaction, React included; and the pages that
// load none until the visitor asks for something (a profile's contact dialog).

/** At most this much gzipped script before interaction (docs/performance.md). */
const SCRIPT_BUDGET_BYTES = 80 * 1024;

export interface ScriptWeight {
	/** Gzipped bytes of every script file the page loaded, plus its inline scripts. */
	total: number;
	/** Each loaded script file's path and gzipped bytes. */
	files: { path: string; bytes: number }[];
}

/**
 * Opens a page and weighs the scripts it loads until the network is idle without any
 * interaction: every script file (gzipped as the server would send it) and the inline scripts
 * (JSON and JSON-LD blocks are data, not scripts), counted as bench:pages counts them.
 */
export async function weighScripts(page: Page, path: string): Promise<ScriptWeight> {
	const files: Promise<{ path: string; bytes: number }>[] = [];
	const onResponse = (response: Response) => {
		if (response.request().resourceType() !== 'script') return;
		const path = new URL(response.url()).pathname;
		files.push(response.body().then((body) => ({ path, bytes: gzipSync(body).length })));
	};
	page.on('response', onResponse);
	try {
		await page.goto(path);
		await page.waitForLoadState('networkidle');
	} finally {
		page.off('response', onResponse);
	}
	const inline = await page.evaluate(() =>
		[...document.querySelectorAll('script:not([src])')]
			.filter((s) => !/json/i.test(s.getAttribute('type') ?? ''))
			.map((s) => s.textContent ?? '')
			.join(''),
	);
	const loaded = await Promise.all(files);
	const total = loaded.reduce((sum, file) => sum + file.bytes, gzipSync(inline).length);
	return { total, files: loaded };
}

/** The page loads some script, and no more than the budget (the message lists the files). */
export async function expectWithinScriptBudget(
	page: Page,
	path: string,
	budget = SCRIPT_BUDGET_BYTES,
): Promise<void> {
	const { total, files } = await weighScripts(page, path);
	expect(files.length, `${path} loads no script file`).toBeGreaterThan(0);
	const list = files.map((f) => `${f.path} ${(f.bytes / 1024).toFixed(1)} KB`).join(', ');
	expect(
		total,
		`${path}: ${(total / 1024).toFixed(1)} KB of gzipped script (${list})`,
	).toBeLessThanOrEqual(budget);
}

/** The script files the page's own frame asks for from now on. */
export function scriptRequests(page: Page): string[] {
	const urls: string[] = [];
	page.on('request', (request) => {
		if (request.resourceType() === 'script' && request.frame() === page.mainFrame()) {
			urls.push(request.url());
		}
	});
	return urls;
}

/**
 * The profile of `name` at `url` loads no script while the visitor reads, points and scrolls;
 * Send Message then loads one, the contact dialog's, and opens the dialog.
 */
export async function expectScriptOnlyOnSendMessage(
	page: Page,
	url: string,
	name: string,
): Promise<void> {
	const scripts = scriptRequests(page);
	await page.goto(url);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
	await page.waitForLoadState('networkidle');
	await page.mouse.move(200, 300);
	await page.getByRole('heading', { name: `About ${name}` }).scrollIntoViewIfNeeded();
	expect(scripts).toEqual([]);

	await page.getByRole('button', { name: 'Send Message' }).click();
	await expect(page.getByRole('dialog', { name: `Contact ${name}` })).toBeVisible();
	expect(scripts).toHaveLength(1);
	expect(scripts[0]).toMatch(/\/_astro\/open-contact-[\w-]+\.js$/);
}
