import type { ChamberConfig } from '../config/config.ts';

/**
 * Where the maps' tiles come from (the search page's map, the Members tab's pin): the chamber's
 * configuration (services.mapTileUrl), else the deployment's MAP_TILE_URL, else OpenStreetMap's
 * standard raster tiles, each with the attribution its terms ask for. Read when a page is built;
 * the page's policy lets images come from that host (src/lib/security-headers.ts) and nothing
 * else of the map's reaches out. Pure: the environment is passed in.
 */

export interface MapTiles {
	/** A raster tile template with {z}/{x}/{y} (and maybe {s}, {r}). */
	url: string;
	/** Plain text, shown in the map's corner. */
	attribution: string;
	/** Where the attribution links, when the provider asks for a link; '' for none. */
	attributionUrl: string;
	maxZoom: number;
}

export const OSM_TILES: MapTiles = {
	url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
	attribution: '© OpenStreetMap contributors',
	attributionUrl: 'https://www.openstreetmap.org/copyright',
	maxZoom: 19,
};

/** A tile template from MAP_TILE_URL: http(s) (tests serve a stand-in over http) with {z}/{x}/{y}. */
function usableTemplate(value: string | undefined): string | null {
	const url = value?.trim() ?? '';
	return /^https?:\/\/[^\s"'<>\\]+$/.test(url) &&
		['{z}', '{x}', '{y}'].every((p) => url.includes(p))
		? url
		: null;
}

export function mapTiles(
	config: { services: Pick<ChamberConfig['services'], 'mapTileUrl' | 'mapAttribution'> },
	env: Record<string, string | undefined>,
): MapTiles {
	const configured = config.services.mapTileUrl;
	const fromEnv = usableTemplate(env.MAP_TILE_URL);
	const url = configured || fromEnv;
	if (!url) return OSM_TILES;
	const attribution =
		config.services.mapAttribution || (configured ? '' : (env.MAP_TILE_ATTRIBUTION ?? '').trim());
	const maxZoom = Number(env.MAP_TILE_MAX_ZOOM);
	return {
		url,
		attribution: attribution.slice(0, 200),
		attributionUrl: '',
		maxZoom: Number.isInteger(maxZoom) && maxZoom >= 1 && maxZoom <= 22 ? maxZoom : 19,
	};
}

/**
 * The source the page's img-src needs for the tiles: the template's scheme and host (its {s}
 * subdomains as a wildcard), or null for one the policy cannot name.
 */
export function tileSource(template: string): string | null {
	const match = /^(https?):\/\/([^/?#]+)/.exec(template);
	if (!match) return null;
	const host = match[2]!.replace(/^\{s\}\./, '*.');
	return /^[\w.*-]+(?::\d+)?$/.test(host) ? `${match[1]}://${host}` : null;
}
