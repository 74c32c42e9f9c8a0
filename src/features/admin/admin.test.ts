import { describe, expect, it } from 'vitest';
import { CATEGORY_COUNT, FEATURED_COUNT, type MenuItem } from '../config/config.ts';
import {
	changeMenuItemType,
	countOrFallback,
	move,
	newMenuItem,
	rerank,
	showsRequestsTab,
	TABS,
	tabsFor,
} from './admin.ts';

describe('tabsFor: what each role sees (docs/behaviour.md#admin-panel)', () => {
	it('an editor sees Content, Members, Events and Requests; an admin all but Users; a super_admin everything', () => {
		expect(tabsFor('editor')).toEqual(['Content', 'Members', 'Events', 'Requests']);
		expect(tabsFor('admin')).not.toContain('Users');
		expect(tabsFor('admin')).toEqual(TABS.filter((tab) => tab !== 'Users'));
		expect(tabsFor('super_admin')).toHaveLength(17);
		expect(tabsFor('super_admin').at(-1)).toBe('Users');
	});
});

describe('showsRequestsTab: who decides members’ requests', () => {
	it('admins when the chamber takes updates from members; editors only when it lets them', () => {
		const on = { memberUpdates: true, memberEditorsApprove: false };
		expect(showsRequestsTab('admin', on)).toBe(true);
		expect(showsRequestsTab('super_admin', on)).toBe(true);
		expect(showsRequestsTab('editor', on)).toBe(false);
		expect(showsRequestsTab('editor', { ...on, memberEditorsApprove: true })).toBe(true);
		expect(showsRequestsTab('admin', { ...on, memberUpdates: false })).toBe(false);
	});
});

describe('move: reorder within bounds', () => {
	it('moves up and down, never past the first or last', () => {
		expect(move(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
		expect(move(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
		expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
		expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
	});
});

describe('changeMenuItemType', () => {
	const link: MenuItem = { id: 'a', label: 'A', type: 'link', url: '/search', isInternal: true };
	it('to dropdown clears the url and starts an empty items list', () => {
		expect(changeMenuItemType(link, 'dropdown')).toEqual({
			id: 'a',
			label: 'A',
			type: 'dropdown',
			url: '',
			isInternal: false,
			items: [],
		});
	});
	it('to link removes the items and defaults the url to mainWebsite', () => {
		const dropdown: MenuItem = {
			id: 'b',
			label: 'B',
			type: 'dropdown',
			url: '',
			isInternal: false,
			items: [{ label: 'x', url: 'aboutUrl', isInternal: false }],
		};
		const changed = changeMenuItemType(dropdown, 'link');
		expect(changed).toEqual({
			id: 'b',
			label: 'B',
			type: 'link',
			url: 'mainWebsite',
			isInternal: false,
		});
		expect('items' in changed).toBe(false);
	});
	it('the same type changes nothing', () => {
		expect(changeMenuItemType(link, 'link')).toBe(link);
	});
});

describe('newMenuItem', () => {
	it('gets an id no item has', () => {
		const items: MenuItem[] = [
			{ id: 'item-2', label: 'x', type: 'link', url: '', isInternal: false },
			{ id: 'item-3', label: 'y', type: 'link', url: '', isInternal: false },
		];
		expect(newMenuItem(items).id).toBe('item-4');
		expect(newMenuItem([]).id).toBe('item-1');
	});
});

describe('rerank', () => {
	it('ranks run from the list length at the top down to 1', () => {
		expect(
			rerank([
				{ name: 'Member', rank: 3 },
				{ name: 'Trustee', rank: 10 },
				{ name: 'Chairman', rank: 9 },
			]),
		).toEqual([
			{ name: 'Member', rank: 3 },
			{ name: 'Trustee', rank: 2 },
			{ name: 'Chairman', rank: 1 },
		]);
	});
});

describe('countOrFallback', () => {
	it('featured 1-6 else 2; categories 4-40 else 8', () => {
		expect(countOrFallback('6', FEATURED_COUNT)).toBe(6);
		expect(countOrFallback('7', FEATURED_COUNT)).toBe(2);
		expect(countOrFallback('0', FEATURED_COUNT)).toBe(2);
		expect(countOrFallback('', FEATURED_COUNT)).toBe(2);
		expect(countOrFallback('4', CATEGORY_COUNT)).toBe(4);
		expect(countOrFallback('3', CATEGORY_COUNT)).toBe(8);
		expect(countOrFallback('12.5', CATEGORY_COUNT)).toBe(8);
	});
});
