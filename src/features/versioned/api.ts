// A bearer call of a staff tab's API (the Members and Events tabs and their panels): the chamber
// named as `?chamber=`, JSON in and out (or a FormData upload), the answer's `{error}` or a
// fallback when it fails. Part of the versioned-record kit (docs/architecture.md).

export interface RecordDeps {
	/** The chamber's slug (`?chamber=`). */
	chamber: string;
	getAccessToken(): Promise<string>;
	/** The browser's, unless a test serves the API itself. */
	fetch?: typeof fetch;
}

export type Answer<T> =
	{ ok: true; data: T } | { ok: false; status: number; body: unknown; error: string };

export async function recordApi<T>(
	deps: RecordDeps,
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
	path: string,
	body?: unknown,
	fallback = 'The server could not be reached. Please try again.',
): Promise<Answer<T>> {
	const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
	const url = `${path}${path.includes('?') ? '&' : '?'}chamber=${encodeURIComponent(deps.chamber)}`;
	try {
		const response = await doFetch(url, {
			method,
			headers: {
				authorization: `Bearer ${await deps.getAccessToken()}`,
				...(body !== undefined && !(body instanceof FormData)
					? { 'content-type': 'application/json' }
					: {}),
			},
			body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
		});
		const json = (await response.json().catch(() => null)) as unknown;
		if (response.ok && json !== null) return { ok: true, data: json as T };
		const error = (json as { error?: unknown } | null)?.error;
		return {
			ok: false,
			status: response.status,
			body: json,
			error: typeof error === 'string' && error ? error : fallback,
		};
	} catch {
		return { ok: false, status: 0, body: null, error: fallback };
	}
}
