import { useEffect, useRef } from 'react';
import { createMap, L } from '../geo/map.ts';
import type { Location } from '../geo/geo.ts';
import type { MapTiles } from '../geo/tiles.ts';

/**
 * The Members tab's map of one listing: its pin, which staff drag (or place with a click on the
 * map) where the business is. The latitude and longitude fields beside it say the same and take
 * the keyboard. Loaded only when staff open it.
 */
export interface PinMapProps {
	tiles: MapTiles;
	location: Location | null;
	name: string;
	disabled: boolean;
	onMove(location: Location): void;
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

export default function PinMap({ tiles, location, name, disabled, onMove }: PinMapProps) {
	const element = useRef<HTMLDivElement>(null);
	const map = useRef<L.Map | null>(null);
	const marker = useRef<L.Marker | null>(null);
	const move = useRef(onMove);
	useEffect(() => {
		move.current = onMove;
	}, [onMove]);

	useEffect(() => {
		if (!element.current) return;
		const created = createMap(element.current, tiles, `Map of ${name || 'the listing'}`);
		map.current = created;
		const place = (at: L.LatLng) =>
			move.current({ latitude: round6(at.lat), longitude: round6(at.lng) });
		if (!disabled) created.on('click', (event: L.LeafletMouseEvent) => place(event.latlng));
		return () => {
			created.remove();
			map.current = null;
			marker.current = null;
		};
		// The map is made once; the pin follows the listing's location below.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [tiles, disabled]);

	useEffect(() => {
		const leaflet = map.current;
		if (!leaflet) return;
		if (!location) {
			marker.current?.remove();
			marker.current = null;
			if (!leaflet.getZoom()) leaflet.setView([39.8, -98.6], 4);
			return;
		}
		const at = L.latLng(location.latitude, location.longitude);
		if (!marker.current) {
			marker.current = L.marker(at, {
				icon: L.divIcon({ className: 'map-pin map-pin--selected', iconSize: [22, 22] }),
				title: `Pin of ${name || 'the listing'}`,
				draggable: !disabled,
				// The fields beside the map are the keyboard's way to move it.
				keyboard: false,
			})
				.on('dragend', () => {
					const moved = marker.current!.getLatLng();
					move.current({ latitude: round6(moved.lat), longitude: round6(moved.lng) });
				})
				.addTo(leaflet);
			leaflet.setView(at, 16);
		} else {
			marker.current.setLatLng(at);
			if (!leaflet.getBounds().contains(at)) leaflet.panTo(at);
		}
	}, [location, name, disabled]);

	return <div ref={element} className="members-location__map" />;
}
