/**
 * Distances as visitors see them: the chamber's unit, the radius choices of 'Near me', how a
 * position is rounded before it leaves the browser, and how a map's area travels in the address
 * bar (docs/behaviour.md#near-me). Pure and free of zod: the search island ships this module
 * (the search e2e spec weighs it); the schemas that read the same values on the server are in
 * ./geo.ts.
 */

/** Miles or kilometres. */
export type DistanceUnit = 'mi' | 'km';

export const KM_PER_MILE = 1.609344;

/** The radius choices of 'Near me', in the chamber's unit; the middle one is preselected. */
export const RADIUS_CHOICES = [1, 5, 10, 25] as const;
export const DEFAULT_RADIUS = 10;

/** Countries whose road signs count in miles; everyone else reads kilometres. */
const MILE_COUNTRIES = new Set(['US', 'GB', 'LR', 'MM']);

/** The unit of a chamber's country (ISO 3166-1 alpha-2; '' counts as the United States). */
export function distanceUnitOf(country: string): DistanceUnit {
	const code = country.trim().toUpperCase() || 'US';
	return MILE_COUNTRIES.has(code) ? 'mi' : 'km';
}

/**
 * Decimals a visitor's position keeps: three, about 110 m of latitude, so what is sent names a
 * neighbourhood rather than a house. The server rounds what it is sent the same way.
 */
export const POSITION_DECIMALS = 3;

export function roundCoordinate(value: number, decimals: number = POSITION_DECIMALS): number {
	const factor = 10 ** decimals;
	// Away from zero at .5 alike for both signs, and no -0.
	return (Math.round(Math.abs(value) * factor) / factor) * Math.sign(value) || 0;
}

export interface Position {
	latitude: number;
	longitude: number;
}

export function roundPosition(position: Position): Position {
	return {
		latitude: roundCoordinate(position.latitude),
		longitude: roundCoordinate(position.longitude),
	};
}

/** `near=` of the API: 'latitude,longitude'. */
export function nearParam(position: Position): string {
	return `${position.latitude},${position.longitude}`;
}

/** A map's area: its south, west, north and east edges in degrees. */
export interface Bounds {
	south: number;
	west: number;
	north: number;
	east: number;
}

/** Decimals of an area's edges in the address bar: four, about 11 m. */
const BOUNDS_DECIMALS = 4;

/** `bounds=` of the API and `area=` of the search page: 'south,west,north,east'. */
export function boundsParam(bounds: Bounds): string {
	return [bounds.south, bounds.west, bounds.north, bounds.east]
		.map((edge) => roundCoordinate(edge, BOUNDS_DECIMALS))
		.join(',');
}

/** An area from the address bar, read leniently: anything unusable is no area. */
export function parseBounds(value: string | null | undefined): Bounds | null {
	const parts = (value ?? '').split(',').map((part) => (part.trim() === '' ? NaN : Number(part)));
	if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
	const [south, west, north, east] = parts as [number, number, number, number];
	if (south < -90 || north > 90 || west < -180 || east > 180) return null;
	if (south >= north || west >= east) return null;
	return { south, west, north, east };
}

/** A distance as a card shows it: '0.4 mi', '3.2 km', '12 mi'. */
export function formatDistance(distance: number, unit: DistanceUnit): string {
	const shown = distance < 10 ? Math.round(distance * 10) / 10 : Math.round(distance);
	return `${shown.toLocaleString('en-US')} ${unit}`;
}

/** 'miles' or 'km', for sentences ('Within 5 miles'). */
export function unitWords(unit: DistanceUnit, count: number): string {
	if (unit === 'km') return 'km';
	return count === 1 ? 'mile' : 'miles';
}
