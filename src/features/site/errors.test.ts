import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportPageError } from './error-page.server.ts';
import { errorLogPrefix, newErrorId } from './errors.ts';

afterEach(() => vi.restoreAllMocks());

describe('error ids', () => {
	it('are eight lowercase hex characters, a new one each time', () => {
		const ids = Array.from({ length: 200 }, newErrorId);
		for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
		expect(new Set(ids).size).toBe(200);
	});

	it('start the log line of the failure', () => {
		expect(errorLogPrefix('0a1b2c3d', 'island SearchDirectory at /search/')).toBe(
			'[error 0a1b2c3d] island SearchDirectory at /search/',
		);
	});
});

describe('a page rendered on demand that fails', () => {
	it('is logged in one line with its id, method and path, the error after it', () => {
		const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const error = new Error('Failed to load chamber configuration: timeout');
		const id = reportPageError(new Request('http://site.test/events/41020/x?v=3'), error);
		expect(id).toMatch(/^[0-9a-f]{8}$/);
		expect(log).toHaveBeenCalledExactlyOnceWith(`[error ${id}] GET /events/41020/x failed:`, error);
	});

	it('names a 500 answered without an error', () => {
		const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const id = reportPageError(new Request('http://site.test/500'), null);
		expect(log).toHaveBeenCalledExactlyOnceWith(
			`[error ${id}] GET /500 failed:`,
			'the page answered 500 without an error',
		);
	});
});
