import type { ChamberConfig } from '../config/config.ts';
import type { VersionSection } from './update-config.ts';

/**
 * The panel's side of versioned saves: the configuration is edited in units (a top-level field,
 * or one key of a section: 'content.heroTitle', 'colors.primary', 'navigation.menuItems'), the
 * same units the database reports conflicts in. When the configuration is loaded again while
 * edits are unsaved, the edits are carried onto the fresh configuration unit by unit, so a value
 * someone else saved meanwhile is taken wherever this person changed nothing.
 */

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The section a unit's version belongs to: 'identity' for the top-level fields. */
export function unitSection(path: string): VersionSection {
	const dot = path.indexOf('.');
	return (dot < 0 ? 'identity' : path.slice(0, dot)) as VersionSection;
}

/** Every unit of a configuration (or of two, for a comparison): its path. */
export function configUnits(...configs: ChamberConfig[]): string[] {
	const units = new Set<string>();
	for (const config of configs) {
		for (const [key, value] of Object.entries(config)) {
			if (isRecord(value)) for (const field of Object.keys(value)) units.add(`${key}.${field}`);
			else units.add(key);
		}
	}
	return [...units];
}

/** A unit's value: valueAt(config, 'content.heroTitle'). */
export function valueAt(config: ChamberConfig, path: string): unknown {
	const [key, field] = path.split('.', 2) as [string, string | undefined];
	const value = (config as unknown as Record<string, unknown>)[key];
	return field === undefined ? value : isRecord(value) ? value[field] : undefined;
}

/** Sets a unit's value in place (on a copy the caller owns). */
export function setAt(config: ChamberConfig, path: string, value: unknown): void {
	const [key, field] = path.split('.', 2) as [string, string | undefined];
	const target = config as unknown as Record<string, unknown>;
	if (field === undefined) target[key] = value;
	else if (isRecord(target[key])) (target[key] as Record<string, unknown>)[field] = value;
}

export interface Rebased {
	/** The fresh configuration with this person's unsaved units on it. */
	draft: ChamberConfig;
	/**
	 * Sections where someone else changed a unit this person changed too, to something else: the
	 * panel keeps stating the old version for them, so the database names the conflict (who and
	 * when) at the next save instead of it being overwritten.
	 */
	contested: Set<VersionSection>;
}

/**
 * Carries the unsaved edits (`draft` against `base`, the configuration they were made on) onto
 * `fresh`, the configuration as loaded now.
 */
export function rebaseDraft(
	base: ChamberConfig,
	draft: ChamberConfig,
	fresh: ChamberConfig,
): Rebased {
	const next = structuredClone(fresh);
	const contested = new Set<VersionSection>();
	for (const unit of configUnits(base, draft, fresh)) {
		const mine = valueAt(draft, unit);
		const before = valueAt(base, unit);
		if (same(mine, before)) continue;
		const theirs = valueAt(fresh, unit);
		setAt(next, unit, structuredClone(mine));
		if (!same(theirs, before) && !same(theirs, mine)) contested.add(unitSection(unit));
	}
	return { draft: next, contested };
}
