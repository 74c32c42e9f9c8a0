/**
 * A position and a map's area as they leave the browser: how a visitor's position is rounded
 * before it is sent, and how a map's area travels in the address bar (docs/behaviour.md#near-me).
 * Pure and free of zod, and apart from ./rules.ts so that the list's script carries none of it:
 * Near me's and the map's own files use it, the server's schemas (./geo.ts) read the same values.
 */

/**
 * Decimals a visitor's position keeps: three, about 110 m of latitude, so what is sent names a
 * neighbourhood rather than a house. The server rounds what it is sent the same way, and the
 * statistics privacy page (src/features/reports/StatisticsPrivacy.astro) tells visitors so.
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
