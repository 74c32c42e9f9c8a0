import type { SupabaseClient } from '../../lib/database.ts';
import { can, type AdminRole, type AdminUser, type Capability } from '../auth/auth.ts';
import type { ChamberConfig, MembershipTier, MenuItem } from '../config/config.ts';

/** The chamber the panel edits: this deployment's, or for a super_admin the one in `?chamber=`. */
export interface PanelChamber {
	/** tenants.id */
	id: string;
	/** tenants.slug (the admin user's tenantKey and update-config's `chamber`). */
	key: string;
	name: string;
}

/**
 * What every tab of the admin panel receives. Tabs that save through the panel's pending changes
 * get more (see AdminPanel); tabs that act at once (Members, Logos, Cache, Users) need only this.
 */
export interface AdminTabProps {
	/** The signed-in user: the role decides what the tab offers (never a control the server refuses). */
	user: AdminUser;
	chamber: PanelChamber;
	/** The chamber's configuration as last loaded from the database. */
	config: ChamberConfig;
	/** supabase-js signed in as the user: reads and writes run under row-level security. */
	client: SupabaseClient;
	/** A fresh access token for a bearer call to /api/* (supabase-js refreshes it before expiry). */
	getAccessToken(): Promise<string>;
	/** Loads the configuration again, e.g. after an upload changed `logo`. */
	reloadConfig(): Promise<void>;
}

// --- Tabs: who sees which ------------------------------------------------------------------------

export const TABS = [
	'Identity',
	'Contact',
	'URLs',
	'Colors',
	'Fonts',
	'Content',
	'Members',
	'Events',
	'Requests',
	'Cache',
	'Homepage',
	'Search',
	'Logos',
	'Nav',
	'History',
	'Reports',
	'Users',
] as const;
export type TabName = (typeof TABS)[number];

/**
 * The capability each tab needs (docs/behaviour.md#roles-and-permissions). Identity, Contact and
 * URLs are the chamber's contact details; Homepage and Search shape the site as branding does;
 * History (restoring a published configuration rewrites every section) needs what Colors needs.
 */
const TAB_CAPABILITY: Readonly<Record<TabName, Capability>> = {
	Identity: 'Edit Contact Info',
	Contact: 'Edit Contact Info',
	URLs: 'Edit Contact Info',
	Colors: 'Edit Colors & Branding',
	Fonts: 'Edit Colors & Branding',
	Content: 'Edit Content & Text',
	// Every role: editors change listings' descriptive content, admins the rest (the database
	// decides per field).
	Members: 'Edit Content & Text',
	// Every role: editors keep events too (the database refuses featuring and deleting them).
	Events: 'Edit Content & Text',
	// Members' own updates of their listings: admins, and editors when the chamber lets them
	// (showsRequestsTab; the database decides).
	Requests: 'Edit Content & Text',
	Cache: 'Purge Cache',
	Homepage: 'Edit Colors & Branding',
	Search: 'Edit Colors & Branding',
	Logos: 'Upload Logos',
	Nav: 'Manage Navigation',
	History: 'Edit Colors & Branding',
	Reports: 'View Reports',
	Users: 'Manage Users',
};

/**
 * The tabs a role sees: an editor Content, Members and Events, an admin all but Users, a
 * super_admin all.
 */
export function tabsFor(role: AdminRole): TabName[] {
	return TABS.filter((tab) => can(role, TAB_CAPABILITY[tab]));
}

/**
 * The Requests tab shows where members update their own listings, to the staff who decide their
 * requests: admins and super_admins, editors when the chamber lets them.
 */
export function showsRequestsTab(
	role: AdminRole,
	features: { memberUpdates: boolean; memberEditorsApprove: boolean } | undefined,
): boolean {
	if (!features?.memberUpdates) return false;
	return role !== 'editor' || features.memberEditorsApprove;
}

// --- Navigation menu editing ---------------------------------------------------------------------

/** Moves the item at `index` one place up (-1) or down (+1); never beyond the first or last. */
export function move<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
	const to = index + by;
	if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
	const next = [...list];
	[next[index], next[to]] = [next[to]!, next[index]!];
	return next;
}

/**
 * A menu item's type change: to dropdown clears the url and starts an empty items
 * list; to link removes the items and points the url at mainWebsite.
 */
export function changeMenuItemType(item: MenuItem, type: MenuItem['type']): MenuItem {
	if (item.type === type) return item;
	if (type === 'dropdown') return { ...item, type, url: '', isInternal: false, items: [] };
	const { items: _dropped, ...rest } = item;
	return { ...rest, type, url: 'mainWebsite', isInternal: false };
}

/** A new menu item with an id no other item has. */
export function newMenuItem(existing: readonly MenuItem[]): MenuItem {
	const ids = new Set(existing.map((item) => item.id));
	let n = existing.length + 1;
	while (ids.has(`item-${n}`)) n += 1;
	return {
		id: `item-${n}`,
		label: 'New item',
		type: 'link',
		url: 'mainWebsite',
		isInternal: false,
	};
}

// --- Membership hierarchy ------------------------------------------------------------------------

/** After a reorder the ranks run from the list's length at the top down to 1. */
export function rerank(tiers: readonly MembershipTier[]): MembershipTier[] {
	return tiers.map((tier, index) => ({ ...tier, rank: tiers.length - index }));
}

/** The levels offered when the chamber's own cannot be loaded. */
export const DEFAULT_MEMBERSHIP_LEVELS = [
	'trustee',
	'chairman',
	'executive partner',
	'executive',
	'corporate partner',
	'corporate',
	'business partner',
	'member',
] as const;

/** Clamps what is typed into a count field the way the schema will store it. */
export function countOrFallback(
	value: string,
	range: { min: number; max: number; fallback: number },
): number {
	const n = Number(value);
	return Number.isInteger(n) && n >= range.min && n <= range.max ? n : range.fallback;
}
