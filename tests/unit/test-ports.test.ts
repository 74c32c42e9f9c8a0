import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The suites' fixed ports stay below Linux's ephemeral range (docs/operations.md#ports): the
 * kernel hands ports from 32768 up to outgoing connections and to servers on port 0, so a suite
 * starting beside another could find its port taken. A default is a port written after `||`,
 * `??`, `??=` or `:-` next to a PORT variable.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const EPHEMERAL_FROM = 32768;
/** The largest offset a suite adds to its base port (test:hosted's last stack). */
const LARGEST_OFFSET = 17;

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return files(path);
		return /\.(ts|sh)$/.test(name) ? [path] : [];
	});
}

const DEFAULT = /PORT\w*\}?\s*(?:\|\||\?\?=?|:-)\s*'?(\d{4,5})\b/g;

function portDefaults(source: string): number[] {
	return [...source.matchAll(DEFAULT)].map((m) => Number(m[1]));
}

describe('the test suites’ default ports', () => {
	it('finds a default after ||, ??, ??= and :- (planted)', () => {
		expect(
			portDefaults(
				"a = process.env.E2E_STACK_PORT || 56321; b.CHAMBER_STACK_PORT ??= '55321'; PORT=${HOSTED_PORT:-54329}; c = process.env.X_PORT ?? 8080",
			),
		).toEqual([56321, 55321, 54329, 8080]);
	});

	const sources = [
		...files(join(ROOT, 'tests')).filter((file) => file !== import.meta.filename),
		join(ROOT, 'playwright.config.ts'),
		join(ROOT, 'playwright.hosted.config.ts'),
	];
	const found = sources.flatMap((file) =>
		portDefaults(readFileSync(file, 'utf8')).map((port) => ({ file: relative(ROOT, file), port })),
	);

	it('are found in the suites’ configs and tests', () => {
		expect(found.length).toBeGreaterThan(5);
	});

	it('sit below the ephemeral range, with their offsets', () => {
		expect(found.filter(({ port }) => port + LARGEST_OFFSET >= EPHEMERAL_FROM)).toEqual([]);
	});
});
