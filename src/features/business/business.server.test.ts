import { describe, expect, it } from 'vitest';
import type { Business } from '../directory/directory.ts';
import { NOT_FOUND_PATH, profileRedirects } from './business.server.ts';

const business = (id: string, slug: string, weblinkProfileId: string) =>
	({ id, slug, weblinkProfileId }) as Business;

describe('profileRedirects', () => {
	it('sends weblink ids and wrong slugs to the canonical page, the rest to the not-found view', () => {
		const rules = profileRedirects([
			business('5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11', 'bella-s-cafe', '104233'),
			business('0c0e7f62-8a55-4c3f-9d38-2f3c1c8f0a12', '', ''),
		]);
		expect(rules).toEqual([
			'/business/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/*  /business/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/bella-s-cafe  301',
			'/business/104233/*  /business/5b0e7f62-8a55-4c3f-9d38-2f3c1c8f0a11/bella-s-cafe  301',
			'/business/0c0e7f62-8a55-4c3f-9d38-2f3c1c8f0a12/*  /business/0c0e7f62-8a55-4c3f-9d38-2f3c1c8f0a12/business  301',
			`/business/*  ${NOT_FOUND_PATH}  404`,
		]);
	});

	it('never writes a weblink id that is not digits into a rule', () => {
		const rules = profileRedirects([business('a-b', 'x', '12 34  /evil 200')]);
		expect(rules.some((rule) => rule.includes('evil'))).toBe(false);
	});
});
