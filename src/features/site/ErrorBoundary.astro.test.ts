// @vitest-environment happy-dom
import { within } from '@testing-library/dom';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ErrorBoundary, withErrorBoundary } from './ErrorBoundary.tsx';
import ErrorScreen from './ErrorScreen.tsx';
import { render } from './render.test-helpers.ts';

// The fallback error screen as a visitor meets it: an island whose render throws, rendered by
// React into a DOM, the screen found by role and text, the console line read back.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Broken({ message }: { message: string }): never {
	throw new Error(message);
}

function Fine() {
	return createElement('p', null, 'Island content');
}

let host: HTMLElement;
let root: Root;
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
	host = document.createElement('div');
	document.body.append(host);
	root = createRoot(host);
	consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
	act(() => root.unmount());
	host.remove();
	consoleError.mockRestore();
	vi.restoreAllMocks();
});

/** The lines the boundary logged under an error id: [first argument, the error]. */
function errorLines(): [string, unknown][] {
	return consoleError.mock.calls
		.filter((call) => typeof call[0] === 'string' && call[0].startsWith('[error '))
		.map((call) => [call[0] as string, call[1]]);
}

describe('an island that throws while rendering', () => {
	it('shows the fallback screen with an error id, which starts the console line with the error', () => {
		const Island = withErrorBoundary('SearchDirectory', Broken);
		act(() => root.render(createElement(Island, { message: 'results is undefined' })));

		const screen = within(host);
		expect(screen.getByRole('alert')).toBeTruthy();
		expect(screen.getByRole('heading', { level: 2, name: 'Something Went Wrong' })).toBeTruthy();
		expect(
			screen.getByText(/An unexpected error stopped this page from loading/).textContent,
		).toMatch(/refresh to try again.*quote the error ID below\.$/);
		const id = screen.getByText(/^[0-9a-f]{8}$/).textContent ?? '';
		expect(screen.getByText(/Error ID:/).textContent).toBe(`Error ID: ${id}`);

		const lines = errorLines();
		expect(lines).toHaveLength(1);
		expect(lines[0]?.[0]).toBe(`[error ${id}] island SearchDirectory at /`);
		expect(lines[0]?.[1]).toBeInstanceOf(Error);
		expect((lines[0]?.[1] as Error).message).toBe('results is undefined');
	});

	it('offers Refresh Page, which reloads, and Go to Homepage, a link to /', async () => {
		const reload = vi.fn();
		vi.spyOn(window, 'location', 'get').mockReturnValue({
			...window.location,
			pathname: '/events/',
			reload,
		} as Location);
		act(() =>
			root.render(
				createElement(
					ErrorBoundary,
					{ name: 'EventsCalendar' },
					createElement(Broken, { message: 'x' }),
				),
			),
		);

		const screen = within(host);
		act(() => screen.getByRole('button', { name: 'Refresh Page' }).click());
		expect(reload).toHaveBeenCalledOnce();
		expect(screen.getByRole('link', { name: 'Go to Homepage' }).getAttribute('href')).toBe('/');
		expect(errorLines()[0]?.[0]).toMatch(
			/^\[error [0-9a-f]{8}\] island EventsCalendar at \/events\/$/,
		);
	});

	it('gives every failure its own id', () => {
		const ids = new Set<string>();
		for (let i = 0; i < 5; i++) {
			act(() =>
				root.render(
					createElement(
						ErrorBoundary,
						{ key: i, name: 'AdminApp' },
						createElement(Broken, { message: 'x' }),
					),
				),
			);
			ids.add(within(host).getByText(/^[0-9a-f]{8}$/).textContent ?? '');
		}
		expect(ids.size).toBe(5);
	});

	it('renders the island as it is while nothing throws', () => {
		const Island = withErrorBoundary('FeaturedBusinesses', Fine);
		act(() => root.render(createElement(Island)));
		const screen = within(host);
		expect(screen.getByText('Island content')).toBeTruthy();
		expect(screen.queryByRole('alert')).toBeNull();
		expect(errorLines()).toEqual([]);
	});
});

describe('the screen rendered on the server (the 500 page)', () => {
	it('has the page heading, both actions and the id in the HTML', async () => {
		const { getByRole, getByText } = await render(ErrorScreen, {
			errorId: '0a1b2c3d',
			headingLevel: 1,
		});
		expect(getByRole('heading', { level: 1, name: 'Something Went Wrong' })).toBeTruthy();
		// No React in the browser there: the page's own script answers this attribute.
		expect(getByRole('button', { name: 'Refresh Page' }).hasAttribute('data-error-refresh')).toBe(
			true,
		);
		expect(getByRole('link', { name: 'Go to Homepage' }).getAttribute('href')).toBe('/');
		expect(getByText('0a1b2c3d').tagName).toBe('CODE');
	});
});
