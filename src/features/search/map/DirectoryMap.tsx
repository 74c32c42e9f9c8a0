import { useEffect, useRef, useState } from 'react';
import Supercluster from 'supercluster';
import { addMapStyles, createMap, L } from '../../geo/map.ts';
import type { Bounds, Position } from '../../geo/rules.ts';
import type { MapTiles } from '../../geo/tiles.ts';
import { BusinessCard } from '../../business/BusinessCard.tsx';
import { toCardBusiness, type CardBusiness, type CardSettings } from '../../business/business.ts';
import type { Business, BusinessLocations } from '../../directory/directory.ts';
import directoryMapCss from './DirectoryMap.css?inline';

/**
 * The search's results on a map (the search page's Map view): every match with a place, in
 * clusters (supercluster) that split as the map zooms in, each pin opening the business's card
 * with its profile link. Every pin and cluster is a button the keyboard reaches (Enter opens a
 * pin, zooms into a cluster), the map says how many businesses it shows, and the list under it
 * stays the same results in text. Moving the map offers 'Search this area'.
 */

export interface DirectoryMapProps {
	/** GET /api/business-locations for the search (locationsApiUrl). */
	url: string;
	tiles: MapTiles;
	/** 'Near me': the map starts around the visitor. */
	near: Position | null;
	settings: CardSettings;
	category: string;
	onSearchArea(bounds: Bounds): void;
}

type Point = Supercluster.PointFeature<{ i: number }>;

/** The points of each search, kept while the page is open (switching views asks once). */
const answers = new Map<string, Promise<BusinessLocations>>();

function loadPoints(url: string): Promise<BusinessLocations> {
	let answer = answers.get(url);
	if (!answer) {
		answer = fetch(url, { headers: { Accept: 'application/json' } }).then(async (response) => {
			if (!response.ok)
				throw new Error(`The map's businesses could not be loaded (${response.status})`);
			return (await response.json()) as BusinessLocations;
		});
		answer.catch(() => answers.delete(url));
		answers.set(url, answer);
	}
	return answer;
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

const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'business' : 'businesses'}`;

// Every target at least 26 px across (WCAG 2.5.8 asks 24), and clusters 60 px apart (below).
function pinIcon(selected: boolean): L.DivIcon {
	return L.divIcon({
		className: `map-pin${selected ? ' map-pin--selected' : ''}`,
		iconSize: [26, 26],
	});
}

function clusterIcon(size: number): L.DivIcon {
	const px = size < 10 ? 30 : size < 100 ? 34 : size < 1000 ? 38 : 44;
	return L.divIcon({
		className: 'map-cluster',
		html: `<span aria-hidden="true">${size >= 1000 ? `${Math.round(size / 100) / 10}k` : size}</span>`,
		iconSize: [px, px],
	});
}

export default function DirectoryMap(props: DirectoryMapProps) {
	const { url, tiles, near, onSearchArea } = props;
	const element = useRef<HTMLDivElement>(null);
	const map = useRef<L.Map | null>(null);
	const [data, setData] = useState<{ url: string; points: BusinessLocations } | null>(null);
	const [failed, setFailed] = useState<{ url: string; message: string } | null>(null);
	const [moved, setMoved] = useState(false);
	const [selected, setSelected] = useState<{ id: string; business: CardBusiness | null } | null>(
		null,
	);
	const selectedRef = useRef<string | null>(null);
	const redraw = useRef<(() => void) | null>(null);

	// The map itself, once.
	useEffect(() => {
		if (!element.current) return;
		addMapStyles('directory-map-styles', directoryMapCss);
		const created = createMap(element.current, tiles, 'Map of the businesses found');
		created.setView([39.8, -98.6], 4);
		map.current = created;
		return () => {
			created.remove();
			map.current = null;
		};
	}, [tiles]);

	// The search's points.
	useEffect(() => {
		let current = true;
		loadPoints(url).then(
			(points) => current && setData({ url, points }),
			(error: unknown) =>
				current &&
				setFailed({ url, message: error instanceof Error ? error.message : String(error) }),
		);
		return () => {
			current = false;
		};
	}, [url]);

	// Clusters of those points, drawn for the view after every move.
	useEffect(() => {
		const leaflet = map.current;
		if (!leaflet || !data) return;
		const { points } = data;
		// The radius counts a 512-pixel tile: 120 keeps clusters 60 screen pixels apart.
		const index = new Supercluster<{ i: number }>({ radius: 120, maxZoom: 17 });
		const features: Point[] = points.ids.map((_, i) => ({
			type: 'Feature',
			properties: { i },
			geometry: { type: 'Point', coordinates: [points.longitudes[i]!, points.latitudes[i]!] },
		}));
		index.load(features);
		const layer = L.layerGroup().addTo(leaflet);
		const draw = () => {
			// A marker the keyboard was on goes with the old view: the map keeps the focus, and Tab
			// reaches the new markers from there.
			const container = leaflet.getContainer();
			const focused = document.activeElement?.closest('.leaflet-marker-pane') != null;
			layer.clearLayers();
			if (focused) container.focus({ preventScroll: true });
			const b = leaflet.getBounds();
			const zoom = Math.round(leaflet.getZoom());
			for (const feature of index.getClusters(
				[b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
				zoom,
			)) {
				const [lng, lat] = feature.geometry.coordinates as [number, number];
				const props = feature.properties as Partial<Supercluster.ClusterProperties> & {
					i?: number;
				};
				if (props.cluster) {
					const id = props.cluster_id!;
					const size = props.point_count!;
					onActivate(
						L.marker([lat, lng], {
							icon: clusterIcon(size),
							title: `${count(size)} here: zoom in`,
							keyboard: true,
						}),
						() => leaflet.setView([lat, lng], Math.min(index.getClusterExpansionZoom(id), 18)),
					).addTo(layer);
				} else {
					const i = props.i!;
					const id = points.ids[i]!;
					onActivate(
						L.marker([lat, lng], {
							icon: pinIcon(id === selectedRef.current),
							title: points.names[i]!,
							keyboard: true,
						}),
						() => setSelected({ id, business: null }),
					).addTo(layer);
				}
			}
		};
		let fitting = true;
		const fitted = () => {
			fitting = false;
		};
		leaflet.once('moveend', fitted);
		if (near) {
			leaflet.fitBounds(L.latLng(near.latitude, near.longitude).toBounds(4000));
		} else if (points.located > 0) {
			let [south, west, north, east] = [90, 180, -90, -180];
			for (let i = 0; i < points.located; i++) {
				south = Math.min(south, points.latitudes[i]!);
				north = Math.max(north, points.latitudes[i]!);
				west = Math.min(west, points.longitudes[i]!);
				east = Math.max(east, points.longitudes[i]!);
			}
			leaflet.fitBounds(
				[
					[south, west],
					[north, east],
				],
				{ padding: [24, 24], maxZoom: 15 },
			);
		} else fitted();
		draw();
		redraw.current = draw;
		const onMove = () => {
			if (!fitting) setMoved(true);
		};
		leaflet.on('moveend', draw);
		leaflet.on('movestart', onMove);
		setMoved(false);
		return () => {
			leaflet.off('moveend', draw);
			leaflet.off('movestart', onMove);
			leaflet.off('moveend', fitted);
			layer.remove();
			redraw.current = null;
		};
		// A new selection only restyles the pins (drawn at the next move); it does not refit.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [data]);

	// The pin opened is drawn as such.
	const selectedId = selected?.id ?? null;
	useEffect(() => {
		selectedRef.current = selectedId;
		redraw.current?.();
	}, [selectedId]);

	// The card of the pin opened.
	useEffect(() => {
		if (!selected || selected.business) return;
		let current = true;
		fetch(`/api/business?id=${encodeURIComponent(selected.id)}`, {
			headers: { Accept: 'application/json' },
		})
			.then(async (response) => {
				if (!response.ok) throw new Error(String(response.status));
				const business = toCardBusiness((await response.json()) as Business);
				if (current) setSelected({ id: selected.id, business });
			})
			.catch(() => current && setSelected(null));
		return () => {
			current = false;
		};
	}, [selected]);

	const points = data?.points;
	const unplaced = points ? points.total - points.located : 0;
	return (
		<section className="search-map" aria-label="Map">
			<p className="search-map__count" aria-live="polite">
				{(failed?.url === url && failed.message) ||
					(points
						? `The map shows ${count(points.located)}.${unplaced > 0 ? ` ${count(unplaced)} without a place on the map ${unplaced === 1 ? 'is' : 'are'} in the list below.` : ''}`
						: 'Loading the map’s businesses…')}
			</p>
			<div className="search-map__frame">
				<div ref={element} className="search-map__map" />
				{moved && (
					<button
						type="button"
						className="search-map__area"
						onClick={() => {
							const b = map.current!.getBounds();
							setMoved(false);
							onSearchArea({
								south: b.getSouth(),
								west: b.getWest(),
								north: b.getNorth(),
								east: b.getEast(),
							});
						}}
					>
						Search this area
					</button>
				)}
			</div>
			{selected && (
				<div className="search-map__card" aria-live="polite">
					{selected.business ? (
						<>
							<BusinessCard
								business={selected.business}
								settings={props.settings}
								category={props.category || undefined}
							/>
							<button type="button" className="search-map__close" onClick={() => setSelected(null)}>
								Close<span className="sr-only"> {selected.business.name}</span>
							</button>
						</>
					) : (
						<p>Loading the business…</p>
					)}
				</div>
			)}
		</section>
	);
}
