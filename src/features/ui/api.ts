// The Logos, Cache and Users tabs call their functions at once (no pending changes): a bearer
// call to /api/*, its JSON answer, or the server's `{error}` text with a fallback of the caller's.

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: string };

export interface ApiCall {
	method?: 'GET' | 'POST' | 'DELETE';
	json?: unknown;
	form?: FormData;
	/** What the tab says when the server gives no reason (e.g. 'Failed to refresh cache'). */
	fallback: string;
}

export async function callApi<T>(
	path: string,
	getAccessToken: () => Promise<string>,
	call: ApiCall,
): Promise<ApiResult<T>> {
	try {
		const token = await getAccessToken();
		const response = await fetch(path, {
			method: call.method ?? (call.json !== undefined || call.form ? 'POST' : 'GET'),
			headers: {
				authorization: `Bearer ${token}`,
				...(call.json !== undefined ? { 'content-type': 'application/json' } : {}),
			},
			body: call.form ?? (call.json !== undefined ? JSON.stringify(call.json) : undefined),
		});
		const body = (await response.json().catch(() => null)) as (T & { error?: unknown }) | null;
		if (!response.ok || body === null) {
			const reason = typeof body?.error === 'string' && body.error ? body.error : call.fallback;
			return { ok: false, error: reason };
		}
		return { ok: true, data: body };
	} catch {
		return { ok: false, error: call.fallback };
	}
}

/**
 * When a notice shown now should go. A notice keeps this time rather than a duration: React may
 * run the effect that starts its timer well after the notice is shown (a busy page, a render cut
 * into slices), and the notice should still go on time.
 */
export function expiresIn(ms: number): number {
	return Date.now() + ms;
}

/** Runs `fn` at `time` (from expiresIn) unless the component is gone; answers the cleanup for useEffect. */
export function at(time: number, fn: () => void): () => void {
	const timer = setTimeout(fn, Math.max(0, time - Date.now()));
	return () => clearTimeout(timer);
}
