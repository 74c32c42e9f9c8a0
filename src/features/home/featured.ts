// The featured island's own module, so the hero search script shares no chunk with it and
// stays small enough to be inlined.

/**
 * pickFeatured of directory.ts (Fisher-Yates, then the first `count`), restated here because
 * directory.ts also holds zod schemas that would triple the featured island's size;
 * featured.test.ts holds the two equal.
 * TODO(dir-data): use theirs once it lives in a zod-free module.
 */
export function pickFeatured<T>(
	candidates: readonly T[],
	count: number,
	random: () => number = Math.random,
): T[] {
	const pool = [...candidates];
	for (let i = pool.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
	}
	return pool.slice(0, Math.max(0, count));
}
