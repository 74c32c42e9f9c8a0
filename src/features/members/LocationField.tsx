import { lazy, Suspense, useId, useState } from 'react';
import type { Location } from '../geo/geo.ts';
import type { MapTiles } from '../geo/tiles.ts';
import { describeActor, describeLocation, type LocationStatus, type Override } from './members.ts';

// Leaflet loads when staff open the map, not with the panel.
const PinMap = lazy(() => import('./PinMap.tsx'));

export interface LocationFieldProps {
	location: Location | null;
	/** Who placed it and the geocoder's request; null for a member not added yet. */
	status: LocationStatus | null;
	override: Override | undefined;
	name: string;
	/** The role may not move pins (an editor), or the listing is removed. */
	disabled: boolean;
	/** Saving or the location has unsaved changes: placing by the address waits. */
	busy: boolean;
	messages: readonly string[];
	tiles: MapTiles;
	formatWhen(iso: string): string;
	onChange(location: Location | null): void;
	/** Drops a pin placed by hand: the geocoder places the business by its address again. */
	onPlaceByAddress(): void;
}

const text = (value: number | undefined) =>
	value === undefined || Number.isNaN(value) ? '' : String(value);

/** The same place (NaN, a coordinate typed that is none yet, equal to itself). */
const samePlace = (a: Location | null, b: Location | null) =>
	a === b ||
	(a !== null &&
		b !== null &&
		Object.is(a.latitude, b.latitude) &&
		Object.is(a.longitude, b.longitude));

/** A coordinate as typed: a number, or NaN for text that is none (the schema names the problem). */
const degrees = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

/**
 * Where the listing is on the map: who placed it (the geocoder, a file, staff) or why it is not
 * placed yet, its latitude and longitude, a map to drag the pin on, and 'Place by the address
 * again'. A pin moved here is saved with the listing and is then kept through imports, syncs and
 * the geocoder.
 */
export default function LocationField(props: LocationFieldProps) {
	const { location, status, override, disabled } = props;
	const id = useId();
	const [typed, setTyped] = useState({
		for: location,
		latitude: text(location?.latitude),
		longitude: text(location?.longitude),
	});
	// A location from elsewhere (the map, a reload, the other person's value) replaces the text.
	if (!samePlace(typed.for, location)) {
		setTyped({
			for: location,
			latitude: text(location?.latitude),
			longitude: text(location?.longitude),
		});
	}
	const [mapOpen, setMapOpen] = useState(false);
	const type = (key: 'latitude' | 'longitude', value: string) => {
		const next = { ...typed, [key]: value };
		const blank = next.latitude.trim() === '' && next.longitude.trim() === '';
		const changed = blank
			? null
			: { latitude: degrees(next.latitude), longitude: degrees(next.longitude) };
		setTyped({ ...next, for: changed });
		props.onChange(changed);
	};
	const placedByHand = status?.source === 'staff' || override !== undefined;
	const described = `${id}-status${props.messages.length ? ` ${id}-error` : ''}`;
	return (
		<fieldset className="admin-field members-wide members-location">
			<legend>Location on the map</legend>
			<p id={`${id}-status`} className="admin-field__hint">
				{status
					? describeLocation(location !== null, status)
					: 'Placed by the address once the member is added.'}
				{placedByHand && override && (
					<>
						{' '}
						Placed by hand by {describeActor(override.changedBy)} on{' '}
						{props.formatWhen(override.changedAt)}: imports, syncs and the geocoder leave it where
						it is.
					</>
				)}
			</p>
			<div className="members-location__coords">
				{(['latitude', 'longitude'] as const).map((key) => (
					<div key={key} className="admin-field">
						<label htmlFor={`${id}-${key}`}>{key === 'latitude' ? 'Latitude' : 'Longitude'}</label>
						<input
							id={`${id}-${key}`}
							inputMode="decimal"
							disabled={disabled}
							value={typed[key]}
							aria-invalid={props.messages.length > 0}
							aria-describedby={described}
							onChange={(event) => type(key, event.target.value)}
						/>
					</div>
				))}
			</div>
			{props.messages.length > 0 && (
				<p id={`${id}-error`} className="admin-field__error">
					{props.messages.join(' ')}
				</p>
			)}
			<div className="members-location__actions">
				<button
					type="button"
					className="admin-button admin-button--secondary"
					aria-expanded={mapOpen}
					onClick={() => setMapOpen(!mapOpen)}
				>
					{mapOpen ? 'Hide the map' : disabled ? 'Show on a map' : 'Move the pin on a map'}
				</button>
				{status && placedByHand && !disabled && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={props.busy}
						onClick={props.onPlaceByAddress}
					>
						Place by the address again
					</button>
				)}
			</div>
			{mapOpen && (
				<Suspense fallback={<p>Loading the map…</p>}>
					{!disabled && (
						<p className="admin-field__hint">
							Drag the pin, or click the map where the business is; then save the listing.
						</p>
					)}
					<PinMap
						tiles={props.tiles}
						location={
							location && Number.isFinite(location.latitude + location.longitude) ? location : null
						}
						name={props.name}
						disabled={disabled}
						onMove={props.onChange}
					/>
				</Suspense>
			)}
		</fieldset>
	);
}
