/**
 * The fallback error screen's id: short and random, shown to the visitor and written
 * in the same log line as the failure (the server's log for a page rendered on demand, the
 * browser's console for an island), so a visitor can quote it and staff can find the failure.
 * Shared by the server and the browser: no Node-only API.
 */

/** Eight lowercase hex characters (32 random bits): enough to tell one day's failures apart. */
export function newErrorId(): string {
	// getRandomValues, not randomUUID: the latter exists only in secure contexts (not plain http).
	const bytes = crypto.getRandomValues(new Uint8Array(4));
	return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `[error 1a2b3c4d] {where}`: the prefix that ties a log line to the screen that shows the id. */
export function errorLogPrefix(errorId: string, where: string): string {
	return `[error ${errorId}] ${where}`;
}

/** Logs a failure under its id: one entry starting with the prefix, the error (and stack) after. */
export function logError(
	errorId: string,
	where: string,
	error: unknown,
	...details: unknown[]
): void {
	console.error(errorLogPrefix(errorId, where), error, ...details);
}
