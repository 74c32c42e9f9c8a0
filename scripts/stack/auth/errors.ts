import { UnreadableUserError } from './store.ts';
/**
 * GoTrue's error answers (internal/api/errors.go, apierrors/): an HTTP status, an error code and a
 * message. A request that sends `X-Supabase-Api-Version: 2024-01-01` (supabase-js always does)
 * gets `{code, message}` and the header echoed; older clients get `{code: status, error_code, msg}`.
 * Both carry the `x-sb-error-code` header.
 */
export class AuthError extends Error {
	readonly status: number;
	readonly code: string;
	/** Extra body fields, e.g. weak_password.reasons. */
	readonly extra: Record<string, unknown>;

	constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
		super(message);
		this.name = 'AuthError';
		this.status = status;
		this.code = code;
		this.extra = extra;
	}
}

/** OAuth-style errors GoTrue answers for the token endpoint's form problems (400). */
export class OAuthError extends Error {
	readonly error: string;
	readonly description: string;

	constructor(error: string, description: string) {
		super(`${error}: ${description}`);
		this.error = error;
		this.description = description;
	}
}

const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const API_VERSION_2024 = Date.UTC(2024, 0, 1);

/** The API version a request asks for: '2024-01-01' for that date or later, else the initial one. */
function requestedApiVersion(header: string | null | undefined): '2024-01-01' | null {
	if (!header || !/^\d{4}-\d{2}-\d{2}$/.test(header)) return null;
	const date = Date.parse(`${header}T00:00:00Z`);
	return Number.isFinite(date) && date >= API_VERSION_2024 ? '2024-01-01' : null;
}

export interface ErrorAnswer {
	status: number;
	headers: Record<string, string>;
	body: Record<string, unknown>;
}

export function errorAnswer(
	error: unknown,
	apiVersionHeader: string | null | undefined,
): ErrorAnswer {
	const version = requestedApiVersion(apiVersionHeader);
	const headers: Record<string, string> = version ? { [API_VERSION_HEADER]: version } : {};
	if (error instanceof OAuthError) {
		return {
			status: 400,
			headers,
			body: { error: error.error, error_description: error.description },
		};
	}
	const known =
		error instanceof AuthError
			? error
			: error instanceof UnreadableUserError
				? new AuthError(500, 'unexpected_failure', 'Database error querying schema')
				: new AuthError(
						500,
						'unexpected_failure',
						'Unexpected failure, please check server logs for more information',
					);
	headers['x-sb-error-code'] = known.code;
	const body = version
		? { code: known.code, message: known.message, ...known.extra }
		: { code: known.status, error_code: known.code, msg: known.message, ...known.extra };
	return { status: known.status, headers, body };
}
