import type { Position } from './position.ts';

/**
 * Distances as visitors see them: the chamber's unit and the radius choices of 'Near me'
 * (docs/behaviour.md#near-me). Pure and free of zod: the search island ships this module (the
 * search e2e spec weighs it); positions and areas are in ./position.ts, the schemas that read the
 * same values on the server in ./geo.ts.
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

/** `near=` of the API: 'latitude,longitude'. */
export function nearParam(position: Position): string {
	return `${position.latitude},${position.longitude}`;
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
