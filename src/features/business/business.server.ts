import type { ChamberConfig } from '../config/config.ts';
import type { Business } from '../directory/directory.ts';
import { getSite, getSiteBusinesses } from '../site/site.server.ts';

/** Every published business of the build's tenant (one profile page each) and the config. */
export async function listProfiles(): Promise<{ config: ChamberConfig; businesses: Business[] }> {
	const [{ config }, businesses] = await Promise.all([getSite(), getSiteBusinesses()]);
	return { config, businesses };
}

/** Where the not-found view is pre-rendered; served with status 404 for unknown profiles. */
export const NOT_FOUND_PATH = '/business-not-found/';
export const ERROR_PATH = '/business-error/';
