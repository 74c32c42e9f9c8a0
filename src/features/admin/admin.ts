import type { SupabaseClient } from '@supabase/supabase-js';
import type { AdminUser } from '../auth/auth.ts';
import type { ChamberConfig } from '../config/config.ts';

/** The chamber the panel edits: this deployment's, or for a super_admin the one in `?chamber=`. */
export interface PanelChamber {
	/** tenants.id */
	id: string;
	/** tenants.slug (the spec's tenant_key and update-config's `chamber`). */
	key: string;
	name: string;
}

/**
 * What every tab of the admin panel receives. Tabs that save through the panel's pending changes
 * get more (see AdminPanel); tabs that act at once (Logos, Cache, Users) need only this.
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
