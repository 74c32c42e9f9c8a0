import L from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css?inline';
import mapCss from './map.css?inline';
import type { MapTiles } from './tiles.ts';

/**
 * A Leaflet map with the chamber's tiles and their attribution, as the search page's map and
 * the Members tab's pin share it. Browser only: the modules that import it are loaded when a map
 * is first shown (a dynamic import), never with a page's own script.
 */

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The attribution as Leaflet shows it (its control takes HTML): the text, linked if asked. */
function attributionHtml(tiles: MapTiles): string {
	const text = escapeHtml(tiles.attribution);
	return tiles.attributionUrl && text
		? `<a href="${escapeHtml(tiles.attributionUrl)}" target="_blank" rel="noopener noreferrer">${text}</a>`
		: text;
}

/**
 * The maps' styles, put in the page when a map is first made: imported as text, they stay out of
 * the CSS a page inlines for its islands (the search page's list view carries none of them).
 */
export function addMapStyles(id: string, css: string): void {
	if (document.getElementById(id)) return;
	const style = document.createElement('style');
	style.id = id;
	style.textContent = css;
	document.head.append(style);
}

export function createMap(element: HTMLElement, tiles: MapTiles, label: string): L.Map {
	addMapStyles('map-styles', `${leafletCss}\n${mapCss}`);
	const map = L.map(element, {
		attributionControl: false,
		// Leaflet's own wheel zoom takes over a page's scrolling; the buttons and keys zoom.
		scrollWheelZoom: false,
		worldCopyJump: false,
	});
	L.control
		.attribution({ prefix: '<a href="https://leafletjs.com">Leaflet</a>' })
		.addAttribution(attributionHtml(tiles))
		.addTo(map);
	// Tiles are decoration (Leaflet gives them an empty alt): the list says the same in text.
	L.tileLayer(tiles.url, { maxZoom: tiles.maxZoom }).addTo(map);
	// The container is the map's keyboard target (arrows pan, + and - zoom): a named region.
	element.setAttribute('role', 'region');
	element.setAttribute('aria-label', label);
	return map;
}

export { L };
