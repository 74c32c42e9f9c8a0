import { describe, expect, it } from 'vitest';

describe('runtime', () => {
	it('runs on the pinned Node (>= 22), not the machine’s Node 20', () => {
		const major = Number(process.versions.node.split('.')[0]);
		expect(major).toBeGreaterThanOrEqual(22);
	});
});
