import type { ChamberConfig } from '../config/config.ts';
import type { Business } from '../directory/directory.ts';
import { getSite, getSiteBusinesses } from '../site/site.server.ts';
import { profilePath } from './business.ts';

/** Every published business of the build's tenant (one profile page each) and the config. */
export async function listProfiles(): Promise<{ config: ChamberConfig; businesses: Business[] }> {
	const [{ config }, businesses] = await Promise.all([getSite(), getSiteBusinesses()]);
	return { config, businesses };
}

/** Where the not-found view is pre-rendered; served with status 404 for unknown profiles. */
export const NOT_FOUND_PATH = '/business-not-found/';
export const ERROR_PATH = '/business-error/';

/**
 * Netlify `_redirects` rules for the profiles (301, as the site server honours them too): the
 * weblink profile id and a wrong or missing slug lead to the canonical /business/{id}/{slug};
 * anything else under /business/ gets the 'Business Not Found' view with a 404. A rule never
 * shadows a file, so the canonical pages themselves are served as they are.
 */
export function profileRedirects(businesses: readonly Business[]): string[] {
	const rules = businesses.flatMap((business) => {
		const canonical = profilePath(business);
		const id = encodeURIComponent(business.id);
		const weblink = business.weblinkProfileId.trim();
		return [
			`/business/${id}/*  ${canonical}  301`,
			...(/^\d+$/.test(weblink) ? [`/business/${weblink}/*  ${canonical}  301`] : []),
		];
	});
	return [...rules, `/business/*  ${NOT_FOUND_PATH}  404`];
}
