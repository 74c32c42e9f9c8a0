import { createClient } from '@supabase/supabase-js';
import { configure } from '@testing-library/dom';
import type { Database, SupabaseClient } from '../../lib/database.ts';
import { act, createElement, type ComponentType } from 'react';
import { vi } from 'vitest';
import { createRoot, type Root } from 'react-dom/client';
import type { AdminRole } from '../auth/auth.ts';
import { configFromRow, type ChamberConfig } from '../config/config.ts';
import type { AdminTabProps } from '../admin/admin.ts';

// Component tests of the Logos, Cache and Users tabs (happy-dom): the tab runs with a real
// supabase-js client and the browser's fetch, both answered by a stand-in of the functions and
// PostgREST that answers as they do (their real behaviour is tested in tests/db/admin-ops.test.ts).

// findBy and waitFor give up after 1 s by default: too short on a machine busy with the other
// suites (4 s stays under the test's own 5 s, so a miss still says what it waited for).
configure({ asyncUtilTimeout: 4_000 });

export interface Request {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: Headers;
	body: unknown;
}

export type Route = (request: Request) => Response | Promise<Response> | undefined;

export interface Backend {
	fetch: typeof fetch;
	requests: Request[];
	/** Each answers or passes (undefined) to the next. */
	routes: Route[];
}

export function backend(...routes: Route[]): Backend {
	const state: Backend = {
		requests: [],
		routes,
		fetch: async (input, init) => {
			const request = new globalThis.Request(input as RequestInfo, init);
			const url = new URL(request.url, 'http://site.test');
			const type = request.headers.get('content-type') ?? '';
			const body = type.includes('json')
				? await request.json()
				: type.includes('multipart')
					? await request.formData()
					: null;
			const seen: Request = {
				method: request.method,
				path: url.pathname,
				query: url.searchParams,
				headers: request.headers,
				body,
			};
			state.requests.push(seen);
			for (const route of state.routes) {
				const answer = await route(seen);
				if (answer) return answer;
			}
			return Response.json(
				{ message: `No stand-in for ${seen.method} ${seen.path}` },
				{ status: 404 },
			);
		},
	};
	return state;
}

/** A route answering one method and path (a PostgREST table is `/rest/v1/{table}`). */
export function on(
	method: string,
	path: string,
	answer: (request: Request) => Response | Promise<Response>,
): Route {
	return (request) =>
		request.method === method && request.path === path ? answer(request) : undefined;
}

export const CHAMBER = {
	id: '11111111-1111-4111-8111-111111111111',
	key: 'demo',
	name: 'Demo Chamber',
};

export function tabProps(
	role: AdminRole,
	server: Backend,
	overrides: Partial<AdminTabProps> = {},
): AdminTabProps {
	const client: SupabaseClient = createClient<Database>('http://stack.test', 'anon-key', {
		global: { fetch: server.fetch },
		auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
	});
	globalThis.fetch = server.fetch;
	const config: ChamberConfig = configFromRow({ slug: CHAMBER.key, name: CHAMBER.name }, 'test');
	return {
		user: {
			id: '22222222-2222-4222-8222-222222222222',
			email: `${role}@demo.test`,
			role,
			tenantId: CHAMBER.id,
			tenantKey: CHAMBER.key,
			tenantName: CHAMBER.name,
		},
		chamber: CHAMBER,
		config,
		client,
		getAccessToken: async () => 'user-token',
		reloadConfig: async () => {},
		...overrides,
	};
}

let root: Root | undefined;
let host: HTMLElement | undefined;

export async function render<P extends object>(component: ComponentType<P>, props: P) {
	host = document.createElement('div');
	document.body.append(host);
	root = createRoot(host);
	await act(async () => root!.render(createElement(component, props)));
	return {
		rerender: (next: P) => act(async () => root!.render(createElement(component, next))),
	};
}

export function cleanup() {
	act(() => root?.unmount());
	host?.remove();
	root = undefined;
}

/** Moves the fake clock (vi.useFakeTimers), letting React render what the timers changed. */
export async function advance(ms: number) {
	// React runs effects, which start the timers, after rendering: let it, then move the clock.
	await act(async () => {});
	await act(async () => void vi.advanceTimersByTime(ms));
}
