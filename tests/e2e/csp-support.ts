import type { Page } from '@playwright/test';

/** Shared by the specs that open pages under their Content-Security-Policy (security, analytics). */

/** Records every CSP violation the page reports, from before its first script runs. */
export async function watchViolations(page: Page): Promise<string[]> {
	const violations: string[] = [];
	page.on('console', (message) => {
		if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
	});
	await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			(window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(
				`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
			);
		});
	});
	return violations;
}
