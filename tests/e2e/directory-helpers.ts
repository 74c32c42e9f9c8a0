import type { APIRequestContext } from '@playwright/test';
import { chamberConfigSchema, type ChamberConfig } from '../../src/features/config/config.ts';
import type { Business, BusinessListResult } from '../../src/features/directory/directory.ts';
import { generateTenant } from '../../tenants/demo/generate.ts';

/** Shared by the search, profile and contact specs: the demo as the API and its generator see it. */

let demo: ReturnType<typeof generateTenant> | undefined;

/** The demo tenant file the server imported (fixed seed, so the same businesses and config). */
export function demoTenant(): ReturnType<typeof generateTenant> {
	demo ??= generateTenant({});
	return demo;
}

export function demoConfig(): ChamberConfig {
	return chamberConfigSchema.parse(demoTenant().config);
}

export async function listBusinesses(
	request: APIRequestContext,
	params: Record<string, string> = {},
): Promise<BusinessListResult> {
	const query = new URLSearchParams({
		sortBy: demoConfig().searchPage.defaultSort,
		...params,
	});
	const response = await request.get(`/api/businesses?${query}`);
	if (!response.ok()) throw new Error(`GET /api/businesses?${query}: ${response.status()}`);
	return (await response.json()) as BusinessListResult;
}

/** Every published business, by name, through the API. */
export async function allBusinesses(request: APIRequestContext): Promise<Business[]> {
	const all: Business[] = [];
	for (let page = 1; ; page++) {
		const result = await listBusinesses(request, {
			page: String(page),
			pageSize: '100',
			sortBy: 'nameAsc',
		});
		all.push(...result.businesses);
		if (page >= result.totalPages) return all;
	}
}

export async function findBusiness(
	request: APIRequestContext,
	what: string,
	predicate: (business: Business) => boolean,
): Promise<Business> {
	const found = (await allBusinesses(request)).find(predicate);
	if (!found) throw new Error(`The demo has no business ${what}`);
	return found;
}

/** The text of HTML as a page shows it, for the few entities Astro writes. */
export function htmlText(html: string): string {
	return html
		.replace(/&#39;|&#x27;/g, "'")
		.replace(/&quot;/g, '"')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}
