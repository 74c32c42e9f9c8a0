import Supercluster from 'supercluster';
import { addMapStyles, createMap, L } from '../../geo/map.ts';
import { boundsParam, type Position } from '../../geo/position.ts';
import type { MapTiles } from '../../geo/tiles.ts';
import { addressLine, hasAddress, profilePath, telHref } from '../../business/business.ts';
import type { Business, BusinessLocations } from '../../directory/directory.ts';
import directoryMapCss from './directory-map.css?inline';

/**
 * The search's results on a map (the search page's Map view): every match with a place, in
 * clusters (supercluster) that split as the map zooms in, each pin opening the business's card
 * with its profile link. Every pin and cluster is a button the keyboard reaches (Enter or Space
 * opens a pin, zooms into a cluster), the map says how many businesses it shows, and the list
 * under it stays the same results in text. Moving the map offers 'Search this area'.
 *
 * Built as one standalone file (`?worker&url`, src/pages/search.astro) that the page imports
 * when the map is first shown, and written without React: the list's script carries nothing of
 * it, not even an import helper. Such a file keeps no exports, so the page then speaks to it by
 * the `search:map` event (MapMessage).
 */

/** What the search page shows on its map, given again at every render of the page. */
export interface MapView {
	/** GET /api/business-locations of the search (locationsApiUrl). */
	url: string;
	/** 'Near me': the map starts around the visitor. */
	near: Position | null;
	tiles: MapTiles;
	/** The search's category, carried over to a card's profile link. */
	category: string;
	/** 'Search this area': the map's view (boundsParam), once the visitor has moved it. */
	onSearchArea(area: string): void;
}

/** `search:map`'s detail: show the map in `host` as `view` says, or (null) take it away. */
export interface MapMessage {
	host: HTMLElement;
	view: MapView | null;
}

interface DirectoryMap {
	load(url: string, near: Position | null): void;
	destroy(): void;
}

type Point = Supercluster.PointFeature<{ i: number }>;

const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'business' : 'businesses'}`;

/** The points of each search, kept while the page is open (switching views asks once). */
const answers = new Map<string, Promise<BusinessLocations>>();

function loadPoints(url: string): Promise<BusinessLocations> {
	let answer = answers.get(url);
	if (!answer) {
		answer = fetch(url, { headers: { Accept: 'application/json' } }).then(async (response) => {
			if (!response.ok) {
				throw new Error(`The map's businesses could not be loaded (${response.status})`);
			}
			return (await response.json()) as BusinessLocations;
		});
		answer.catch(() => answers.delete(url));
		answers.set(url, answer);
	}
	return answer;
}

// Every target at least 26 px across (WCAG 2.5.8 asks 24), and clusters 60 px apart (below).
const pinIcon = (selected: boolean) =>
	L.divIcon({ className: `map-pin${selected ? ' map-pin--selected' : ''}`, iconSize: [26, 26] });

function clusterIcon(size: number): L.DivIcon {
	const px = size < 10 ? 30 : size < 100 ? 34 : size < 1000 ? 38 : 44;
	return L.divIcon({
		className: 'map-cluster',
		html: `<span aria-hidden="true">${size >= 1000 ? `${Math.round(size / 100) / 10}k` : size}</span>`,
		iconSize: [px, px],
	});
}

/**
 * A marker's action on a click and on Enter or Space: Leaflet makes keyboard markers focusable
 * buttons (tabindex, role) but leaves their keys to the page.
 */
function onActivate(marker: L.Marker, action: () => void): L.Marker {
	return marker.on('click', action).on('keydown', (event: L.LeafletKeyboardEvent) => {
		const key = event.originalEvent.key;
		if (key !== 'Enter' && key !== ' ') return;
		event.originalEvent.preventDefault();
		action();
	});
}

function element<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	className: string,
	text?: string,
): HTMLElementTagNameMap[K] {
	const made = document.createElement(tag);
	made.className = className;
	if (text !== undefined) made.textContent = text;
	return made;
}

/** A business's card under the map, as the list's cards say it: name, address, phone, profile. */
function card(business: Business, category: string, close: () => void): HTMLElement {
	const article = element('article', 'bcard search-map__business');
	const heading = element('h3', 'bcard__name');
	const href = profilePath(business, category || undefined);
	const name = element('a', 'bcard__link', business.name);
	name.href = href;
	heading.append(name);
	article.append(heading);
	if (hasAddress(business.address)) {
		article.append(element('p', 'bcard__address', addressLine(business.address)));
	}
	if (business.phone) {
		const phone = element('a', 'bcard__phone bcard__above', business.phone);
		phone.href = telHref(business.phone);
		article.append(phone);
	}
	const actions = element('div', 'bcard__actions');
	const profile = element('a', 'bcard__button bcard__button--primary bcard__above', 'View Profile');
	profile.href = href;
	profile.append(element('span', 'sr-only', ` of ${business.name}`));
	const closeButton = element('button', 'search-map__close', 'Close');
	closeButton.type = 'button';
	closeButton.append(element('span', 'sr-only', ` ${business.name}`));
	closeButton.addEventListener('click', close);
	actions.append(profile, closeButton);
	article.append(actions);
	return article;
}

function mountDirectoryMap(
	host: HTMLElement,
	options: { tiles: MapTiles; category(): string; onSearchArea(area: string): void },
): DirectoryMap {
	addMapStyles('directory-map-styles', directoryMapCss);
	const status = element('p', 'search-map__count', 'Loading the map’s businesses…');
	status.setAttribute('aria-live', 'polite');
	const frame = element('div', 'search-map__frame');
	const mapElement = element('div', 'search-map__map');
	const searchArea = element('button', 'search-map__area', 'Search this area');
	searchArea.type = 'button';
	searchArea.hidden = true;
	const cardHost = element('div', 'search-map__card');
	cardHost.setAttribute('aria-live', 'polite');
	frame.append(mapElement, searchArea);
	host.append(status, frame, cardHost);

	const map = createMap(mapElement, options.tiles, 'Map of the businesses found');
	map.setView([39.8, -98.6], 4);
	const layer = L.layerGroup().addTo(map);
	let index: Supercluster<{ i: number }> | null = null;
	let points: BusinessLocations | null = null;
	let selected: string | null = null;
	let fitting = false;
	let current = '';

	searchArea.addEventListener('click', () => {
		const b = map.getBounds();
		searchArea.hidden = true;
		options.onSearchArea(
			boundsParam({
				south: b.getSouth(),
				west: b.getWest(),
				north: b.getNorth(),
				east: b.getEast(),
			}),
		);
	});

	function draw(): void {
		// A marker the keyboard was on goes with the old view: the map keeps the focus, and Tab
		// reaches the new markers from there.
		const focused = document.activeElement?.closest('.leaflet-marker-pane') != null;
		layer.clearLayers();
		if (focused) map.getContainer().focus({ preventScroll: true });
		if (!index || !points) return;
		const b = map.getBounds();
		const zoom = Math.round(map.getZoom());
		for (const feature of index.getClusters(
			[b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
			zoom,
		)) {
			const [lng, lat] = feature.geometry.coordinates as [number, number];
			const props = feature.properties as Partial<Supercluster.ClusterProperties> & { i?: number };
			if (props.cluster) {
				const id = props.cluster_id!;
				const size = props.point_count!;
				const target = index;
				onActivate(
					L.marker([lat, lng], {
						icon: clusterIcon(size),
						title: `${count(size)} here: zoom in`,
						keyboard: true,
					}),
					() => map.setView([lat, lng], Math.min(target.getClusterExpansionZoom(id), 18)),
				).addTo(layer);
			} else {
				const id = points.ids[props.i!]!;
				onActivate(
					L.marker([lat, lng], {
						icon: pinIcon(id === selected),
						title: points.names[props.i!]!,
						keyboard: true,
					}),
					() => void open(id),
				).addTo(layer);
			}
		}
	}

	function close(): void {
		selected = null;
		cardHost.replaceChildren();
		draw();
	}

	async function open(id: string): Promise<void> {
		selected = id;
		draw();
		cardHost.replaceChildren(element('p', '', 'Loading the business…'));
		try {
			const response = await fetch(`/api/business?id=${encodeURIComponent(id)}`, {
				headers: { Accept: 'application/json' },
			});
			if (!response.ok) throw new Error(String(response.status));
			const business = (await response.json()) as Business;
			if (selected === id) cardHost.replaceChildren(card(business, options.category(), close));
		} catch {
			if (selected === id) close();
		}
	}

	function show(answer: BusinessLocations, near: Position | null): void {
		points = answer;
		const features: Point[] = answer.ids.map((_, i) => ({
			type: 'Feature',
			properties: { i },
			geometry: { type: 'Point', coordinates: [answer.longitudes[i]!, answer.latitudes[i]!] },
		}));
		// The radius counts a 512-pixel tile: 120 keeps clusters 60 screen pixels apart.
		index = new Supercluster<{ i: number }>({ radius: 120, maxZoom: 17 }).load(features);
		const unplaced = answer.total - answer.located;
		status.textContent = `The map shows ${count(answer.located)}.${
			unplaced > 0
				? ` ${count(unplaced)} without a place on the map ${unplaced === 1 ? 'is' : 'are'} in the list below.`
				: ''
		}`;
		fitting = true;
		map.once('moveend', () => {
			fitting = false;
		});
		if (near) {
			map.fitBounds(L.latLng(near.latitude, near.longitude).toBounds(4000));
		} else if (answer.located > 0) {
			let [south, west, north, east] = [90, 180, -90, -180];
			for (let i = 0; i < answer.located; i++) {
				south = Math.min(south, answer.latitudes[i]!);
				north = Math.max(north, answer.latitudes[i]!);
				west = Math.min(west, answer.longitudes[i]!);
				east = Math.max(east, answer.longitudes[i]!);
			}
			map.fitBounds(
				[
					[south, west],
					[north, east],
				],
				{ padding: [24, 24], maxZoom: 15 },
			);
		} else fitting = false;
		searchArea.hidden = true;
		draw();
	}

	map.on('moveend', draw);
	map.on('movestart', () => {
		if (!fitting) searchArea.hidden = false;
	});

	return {
		load(url, near) {
			current = url;
			loadPoints(url).then(
				(answer) => current === url && show(answer, near),
				(error: unknown) => {
					if (current === url)
						status.textContent = error instanceof Error ? error.message : String(error);
				},
			);
		},
		destroy() {
			current = '';
			map.remove();
			host.replaceChildren();
		},
	};
}

const shown = new WeakMap<HTMLElement, { map: DirectoryMap; view: MapView; key: string }>();

/**
 * The map in `host` as `view` says: made the first time, then only the search's points asked
 * again when the search changed. The page calls it at every render of the map view.
 */
function showMap(host: HTMLElement, view: MapView): void {
	let entry = shown.get(host);
	if (!entry) {
		const made: { map: DirectoryMap; view: MapView; key: string } = {
			view,
			key: '',
			map: mountDirectoryMap(host, {
				tiles: view.tiles,
				category: () => made.view.category,
				onSearchArea: (area) => made.view.onSearchArea(area),
			}),
		};
		entry = made;
		shown.set(host, made);
	}
	entry.view = view;
	const key = `${view.url}|${view.near?.latitude},${view.near?.longitude}`;
	if (key !== entry.key) {
		entry.key = key;
		entry.map.load(view.url, view.near);
	}
}

/** The map view left: the map goes (its listeners with it). */
function hideMap(host: HTMLElement): void {
	shown.get(host)?.map.destroy();
	shown.delete(host);
}

document.addEventListener('search:map', (event) => {
	const { host, view } = (event as CustomEvent<MapMessage>).detail;
	if (view) showMap(host, view);
	else hideMap(host);
});
