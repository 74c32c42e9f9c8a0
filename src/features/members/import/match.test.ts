import { describe, expect, it } from 'vitest';
import {
	cityKey,
	DirectoryIndex,
	emailKey,
	nameKey,
	ownId,
	websiteKey,
	type DirectoryEntry,
} from './match.ts';

let next = 0;
function business(name: string, more: Partial<DirectoryEntry> = {}): DirectoryEntry {
	next += 1;
	return {
		id: `id-${next}`,
		weblinkProfileId: String(100 + next),
		name,
		city: null,
		email: null,
		website: null,
		...more,
	};
}

describe('the keys each rule compares', () => {
	it('a name: case, accents, punctuation, &/and, a leading The and the legal form ignored', () => {
		expect(nameKey('Smith & Sons Co., Inc.')).toBe('smith sons');
		expect(nameKey('SMITH AND SONS')).toBe('smith sons');
		expect(nameKey("Joe's Café, L.L.C.")).toBe('joes cafe');
		expect(nameKey('Joes Cafe LLC')).toBe('joes cafe');
		expect(nameKey('The Harbor Hardware Company')).toBe('harbor hardware');
		expect(nameKey('Harbor-Hardware Ltd.')).toBe('harbor hardware');
		expect(nameKey('Bay Corp. Limited')).toBe('bay');
		// A name that is only a legal form keeps it: nothing else is left to compare.
		expect(nameKey('Co')).toBe('co');
		expect(nameKey('The')).toBe('the');
		expect(nameKey('  ')).toBeNull();
	});

	it('an e-mail: trimmed and in lower case; no address is no key', () => {
		expect(emailKey('  Info@Bakery.Example ')).toBe('info@bakery.example');
		expect(emailKey('call us')).toBeNull();
		expect(emailKey('')).toBeNull();
	});

	it('a website: its host without www, with or without a scheme; on shared sites the page', () => {
		expect(websiteKey('https://www.Bakery.example/menu?x=1')).toBe('bakery.example');
		expect(websiteKey('bakery.example')).toBe('bakery.example');
		expect(websiteKey('http://bakery.example:8080/')).toBe('bakery.example');
		expect(websiteKey('https://www.facebook.com/LakesideBakery/')).toBe(
			'facebook.com/lakesidebakery',
		);
		expect(websiteKey('m.facebook.com/lakesidebakery')).toBe('facebook.com/lakesidebakery');
		expect(websiteKey('n/a')).toBeNull();
		expect(websiteKey('mailto:x@y.example')).toBeNull();
	});

	it('a city: case, accents and punctuation ignored', () => {
		expect(cityKey("St. Mary's")).toBe('st marys');
		expect(cityKey('  ')).toBeNull();
	});

	it('the chamber’s own numbering, read from a cell', () => {
		expect(ownId('Chamber-007')).toBe('chamber-7');
		expect(ownId('chamber-0')).toBe('chamber-0');
		expect(ownId('102')).toBeNull();
		expect(ownId('chamber-x')).toBeNull();
	});
});

describe('matching a row', () => {
	const bakery = business('Lakeside Bakery', {
		city: 'Lakeside',
		email: 'hello@bakery.example',
		website: 'https://bakery.example',
	});
	const hardware = business('Harbor Hardware, Inc.', { city: 'Harbor' });
	const subwayNorth = business('Subway', { city: 'North Bay' });
	const subwaySouth = business('Subway', { city: 'South Bay' });
	const twinA = business('Twin Pines Realty', { email: 'office@twins.example', city: 'Pines' });
	const twinB = business('Twin Pines Rentals', { email: 'office@twins.example', city: 'Pines' });
	const sharedSite = business('Shore Yoga', { website: 'https://www.facebook.com/shoreyoga' });
	const cityless = business('Corner Books');
	const index = new DirectoryIndex([
		bakery,
		hardware,
		subwayNorth,
		subwaySouth,
		twinA,
		twinB,
		sharedSite,
		cityless,
	]);

	it('by e-mail first, whatever the name says', () => {
		expect(index.matchRow({ email: 'HELLO@bakery.example', name: 'Lakeside Bread Co' })).toEqual({
			kind: 'match',
			entry: bakery,
			on: 'email',
		});
	});

	it('by the website’s host when the e-mail finds nothing', () => {
		expect(
			index.matchRow({ email: 'new@else.example', website: 'www.bakery.example/about' }),
		).toEqual({ kind: 'match', entry: bakery, on: 'website' });
		expect(index.matchRow({ website: 'facebook.com/ShoreYoga' })).toMatchObject({
			entry: sharedSite,
			on: 'website',
		});
		// Another page of the same shared site is another business.
		expect(index.matchRow({ website: 'facebook.com/other' })).toEqual({ kind: 'none' });
	});

	it('by the normalised name when neither finds one', () => {
		expect(index.matchRow({ name: 'HARBOR HARDWARE LLC' })).toEqual({
			kind: 'match',
			entry: hardware,
			on: 'name',
		});
	});

	it('by name and city when the file has cities', () => {
		expect(index.matchRow({ name: 'Subway', city: 'south bay' })).toEqual({
			kind: 'match',
			entry: subwaySouth,
			on: 'name_city',
		});
		expect(index.matchRow({ name: 'Harbor Hardware', city: 'Harbor' })).toMatchObject({
			on: 'name_city',
		});
		// The directory has no city for it: the name alone decides.
		expect(index.matchRow({ name: 'Corner Books', city: 'Lakeside' })).toMatchObject({
			entry: cityless,
			on: 'name',
		});
		// A row without a city in a file with cities: by name.
		expect(index.matchRow({ name: 'Harbor Hardware', city: '' })).toMatchObject({ on: 'name' });
	});

	it('asks to confirm a name two businesses have, or a known name in another city', () => {
		expect(index.matchRow({ name: 'Subway' })).toEqual({
			kind: 'confirm',
			candidates: [
				{ entry: subwayNorth, on: 'name' },
				{ entry: subwaySouth, on: 'name' },
			],
		});
		expect(index.matchRow({ name: 'Harbor Hardware', city: 'Lakeside' })).toEqual({
			kind: 'confirm',
			candidates: [{ entry: hardware, on: 'name' }],
		});
	});

	it('lets the name single out one of two businesses sharing an e-mail, else asks', () => {
		expect(
			index.matchRow({ email: 'office@twins.example', name: 'Twin Pines Rentals LLC' }),
		).toEqual({ kind: 'match', entry: twinB, on: 'email' });
		expect(index.matchRow({ email: 'office@twins.example', name: 'Twin Pines' })).toEqual({
			kind: 'confirm',
			candidates: [
				{ entry: twinA, on: 'email' },
				{ entry: twinB, on: 'email' },
			],
		});
	});

	it('passes over a business an earlier row took when it matches by e-mail or website', () => {
		const taken = (id: string) => id === twinA.id;
		expect(index.matchRow({ email: 'office@twins.example', name: 'Twin Pines' }, taken)).toEqual({
			kind: 'match',
			entry: twinB,
			on: 'email',
		});
	});

	it('asks to confirm a name only loosely like a business’s', () => {
		for (const name of [
			'Lakeside Bakery & Café', // more words
			'Lakeside', // fewer words
			'Bakery Lakeside', // another order
			'LakesideBakery', // run together
		]) {
			expect(index.matchRow({ name }), name).toEqual({
				kind: 'confirm',
				candidates: [{ entry: bakery, on: 'similar_name' }],
			});
		}
		// Too short a name to say anything loosely.
		expect(index.matchRow({ name: 'Twin' })).toEqual({ kind: 'none' });
	});

	it('finds none for a new business', () => {
		expect(
			index.matchRow({ name: 'New Florist', email: 'f@florist.example', city: 'Lakeside' }),
		).toEqual({ kind: 'none' });
		expect(index.matchRow({})).toEqual({ kind: 'none' });
	});

	it('offers at most five businesses to choose from', () => {
		const many = new DirectoryIndex(
			Array.from({ length: 8 }, (_, i) => business('Main Street Diner', { city: `Town ${i}` })),
		);
		const result = many.matchRow({ name: 'Main Street Diner' });
		expect(result.kind === 'confirm' && result.candidates.length).toBe(5);
	});
});
