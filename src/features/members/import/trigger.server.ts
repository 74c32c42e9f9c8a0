// Its own module: the functions that only queue an import (the upload, the panel's actions, the
// syncs) must not trace the pipeline's spreadsheet reader (exceljs) into their zips
// (docs/performance.md#function-sizes).

/**
 * Queues the work of an import with the background function, as Netlify runs it: a request to
 * its path answers 202 at once and the work goes on for up to 15 minutes. `origin` is this site's.
 */
export async function triggerBackground(origin: string, id: string): Promise<void> {
	const response = await fetch(new URL('/api/member-import-background', origin), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ id }),
		signal: AbortSignal.timeout(10_000),
	});
	await response.body?.cancel();
	if (response.status !== 202 && !response.ok) {
		throw new Error(`The background function answered HTTP ${response.status}`);
	}
}
