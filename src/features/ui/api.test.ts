import { afterEach, describe, expect, it, vi } from 'vitest';
import { at, expiresIn } from './api.ts';

afterEach(() => vi.useRealTimers());

describe('a notice’s time to go', () => {
	it('counts from when the notice was shown, however late its timer starts', () => {
		vi.useFakeTimers();
		const gone = vi.fn();
		const until = expiresIn(5_000);
		// The effect that starts the timer runs 4.9 s late (a busy page).
		vi.advanceTimersByTime(4_900);
		at(until, gone);
		vi.advanceTimersByTime(99);
		expect(gone).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(gone).toHaveBeenCalledOnce();
	});

	it('goes at once when its time has passed, and not at all once the component is gone', () => {
		vi.useFakeTimers();
		const late = vi.fn();
		const until = expiresIn(1_000);
		vi.advanceTimersByTime(2_000);
		at(until, late);
		vi.advanceTimersByTime(0);
		expect(late).toHaveBeenCalledOnce();

		const unmounted = vi.fn();
		const cleanup = at(expiresIn(1_000), unmounted);
		cleanup();
		vi.advanceTimersByTime(5_000);
		expect(unmounted).not.toHaveBeenCalled();
	});
});
