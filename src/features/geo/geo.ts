import { z } from 'zod';
import { DEFAULT_RADIUS, KM_PER_MILE, type DistanceUnit } from './rules.ts';
import { parseBounds, roundPosition, type Bounds, type Position } from './position.ts';

/**
 * Where businesses are and how far: the location a business stores, the distance query of the
 * directory's API, the one-line address the geocoder is asked, and the great-circle distance the
 * database computes, in TypeScript for the tests. Pure, no I/O; zod lives here, the islands' half
 * in ./rules.ts.
 */

/** The Earth's mean radius in km (IUGG), as the database's haversine uses it. */
const EARTH_RADIUS_KM = 6371.0088;

/** A degree of latitude on that sphere, in km (about 111.2), north to south anywhere. */
export const KM_PER_DEGREE_OF_LATITUDE = (Math.PI * EARTH_RADIUS_KM) / 180;

/** Coordinates keep six decimals (about 11 cm): more is noise, and equal pins compare equal. */
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

const degrees = (name: 'latitude' | 'longitude', limit: number) =>
	z
		.number({ error: `Expected the ${name} in degrees` })
		.min(-limit, { error: `The ${name} is between -${limit} and ${limit} degrees` })
		.max(limit, { error: `The ${name} is between -${limit} and ${limit} degrees` })
		.transform(round6);

/**
 * A business's location in degrees (WGS 84), as the tenant file and the Members tab write it; the
 * database holds every writer to the same ranges (business_location_problem).
 */
export const locationSchema = z.object({
	latitude: degrees('latitude', 90),
	longitude: degrees('longitude', 180),
});

export type Location = z.output<typeof locationSchema>;

/** How exact a location is (profiles.location_quality). */
export type LocationQuality = 'exact' | 'approximate' | 'street' | 'area' | 'manual' | 'supplied';

/** Who placed a location (profiles.location_source). */
export type LocationSource = 'file' | 'census' | 'nominatim' | 'staff';

// --- The directory's distance query ----------------------------------------------------------------

const NEAR = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/**
 * `near=latitude,longitude`: rounded to three decimals (about 110 m) whatever was sent, so the
 * server never holds a visitor's position more exactly than the page sends it.
 */
export const nearParamSchema = z
	.string()
	.max(60)
	.transform((value, ctx): Position => {
		const match = NEAR.exec(value);
		const latitude = Number(match?.[1]);
		const longitude = Number(match?.[2]);
		if (!match || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
			ctx.addIssue({
				code: 'custom',
				message: 'Expected a latitude and a longitude in degrees, like 41.977,-91.666',
			});
			return z.NEVER;
		}
		return roundPosition({ latitude, longitude });
	});

/** `radius=`: in the query's unit, more than 0 and at most 100. */
export const radiusParamSchema = z.coerce
	.number({ error: 'Expected a distance' })
	.gt(0, { error: 'Expected a distance more than 0' })
	.max(100, { error: 'Expected a distance of at most 100' });

/** `unit=`: mi or km. */
export const unitParamSchema = z.enum(['mi', 'km'], { error: 'Expected mi or km' });

/** `bounds=south,west,north,east`: a map's area, south below north and west of east. */
export const boundsParamSchema = z
	.string()
	.max(120)
	.transform((value, ctx): Bounds => {
		const bounds = parseBounds(value);
		if (!bounds) {
			ctx.addIssue({
				code: 'custom',
				message:
					'Expected south,west,north,east in degrees, south below north and west of east (like 41.9,-91.7,42.1,-91.5)',
			});
			return z.NEVER;
		}
		return bounds;
	});

/** What the database's distance search is asked: the point, the radius in km, the box. */
export interface DistanceQuery {
	near: Position | null;
	radiusKm: number | null;
	bounds: Bounds | null;
	unit: DistanceUnit;
}

/**
 * The distance part of a query: a radius only with a point (DEFAULT_RADIUS when none is given),
 * in the query's unit, turned into kilometres. Null when the query asks for no area.
 */
export function distanceQuery(
	query: { near?: Position; radius?: number; bounds?: Bounds; unit?: DistanceUnit },
	chamberUnit: DistanceUnit,
): DistanceQuery | null {
	if (!query.near && !query.bounds) return null;
	const unit = query.unit ?? chamberUnit;
	const radius = query.near ? (query.radius ?? DEFAULT_RADIUS) : null;
	return {
		near: query.near ?? null,
		radiusKm: radius === null ? null : toKm(radius, unit),
		bounds: query.bounds ?? null,
		unit,
	};
}

function toKm(distance: number, unit: DistanceUnit): number {
	return unit === 'mi' ? distance * KM_PER_MILE : distance;
}

function fromKm(km: number, unit: DistanceUnit): number {
	return unit === 'mi' ? km / KM_PER_MILE : km;
}

/** A distance as the API answers it: two decimals. */
export function answerDistance(km: number, unit: DistanceUnit): number {
	return Math.round(fromKm(km, unit) * 100) / 100;
}

/** The great-circle distance in km (haversine), the formula of the database's distance search. */
export function haversineKm(a: Position, b: Position): number {
	const rad = (deg: number) => (deg * Math.PI) / 180;
	const h =
		Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 +
		Math.cos(rad(a.latitude)) *
			Math.cos(rad(b.latitude)) *
			Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
	return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The point `km` away from `from` on the initial bearing `bearing` (degrees clockwise from
 * north), on the same sphere: what the tests place businesses with, exactly on a radius's edge.
 */
export function destination(from: Position, bearing: number, km: number): Position {
	const rad = (deg: number) => (deg * Math.PI) / 180;
	const deg = (r: number) => (r * 180) / Math.PI;
	const d = km / EARTH_RADIUS_KM;
	const lat1 = rad(from.latitude);
	const lng1 = rad(from.longitude);
	const theta = rad(bearing);
	const lat2 = Math.asin(
		Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(theta),
	);
	const lng2 =
		lng1 +
		Math.atan2(
			Math.sin(theta) * Math.sin(d) * Math.cos(lat1),
			Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
		);
	return { latitude: deg(lat2), longitude: ((deg(lng2) + 540) % 360) - 180 };
}

// --- What the geocoder is asked -----------------------------------------------------------------------

export interface AddressParts {
	address1: string;
	address2?: string;
	city: string;
	state: string;
	zip: string;
}

/**
 * The one line a geocoder is asked: street, town, state and ZIP code. The second address line
 * (a suite, a unit, a PO box) is left out: it is not part of where the building is, and geocoders
 * match worse with it.
 */
export function oneLineAddress(parts: AddressParts): string {
	const stateZip = [parts.state.trim(), parts.zip.trim()].filter(Boolean).join(' ');
	return [parts.address1.trim(), parts.city.trim(), stateZip].filter(Boolean).join(', ');
}
