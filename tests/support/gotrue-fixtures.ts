/**
 * What Supabase Auth (GoTrue) answers, for comparing the local identity service with it by shape.
 * Taken from GoTrue's own definitions (supabase/auth at bc32168e): openapi.yaml
 * AccessTokenResponseSchema and UserSchema, internal/tokens/service.go AccessTokenResponse,
 * internal/models/user.go and identity.go (fields marked omitempty appear only when set: these
 * are the ones a confirmed e-mail user who has signed in has), internal/api/errors.go
 * HTTPErrorResponse20240101 and apierrors.HTTPError, internal/api/admin.go AdminListUsersResponse.
 * Values are examples; only keys and value types are compared.
 */

const USER = {
	id: '11111111-2222-4333-8444-555555555555',
	aud: 'authenticated',
	role: 'authenticated',
	email: 'admin@example.org',
	email_confirmed_at: '2026-11-01T10:00:00.000000Z',
	phone: '',
	confirmed_at: '2026-11-01T10:00:00.000000Z',
	last_sign_in_at: '2026-11-23T09:00:00.000000Z',
	app_metadata: { provider: 'email', providers: ['email'] },
	user_metadata: {},
	identities: [
		{
			identity_id: '66666666-7777-4888-8999-000000000000',
			id: '11111111-2222-4333-8444-555555555555',
			user_id: '11111111-2222-4333-8444-555555555555',
			identity_data: {
				email: 'admin@example.org',
				email_verified: true,
				phone_verified: false,
				sub: '11111111-2222-4333-8444-555555555555',
			},
			provider: 'email',
			last_sign_in_at: '2026-11-01T10:00:00.000000Z',
			created_at: '2026-11-01T10:00:00.000000Z',
			updated_at: '2026-11-01T10:00:00.000000Z',
			email: 'admin@example.org',
		},
	],
	created_at: '2026-11-01T10:00:00.000000Z',
	updated_at: '2026-11-23T09:00:00.000000Z',
	is_anonymous: false,
};

export const GOTRUE_SESSION = {
	access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.signature',
	token_type: 'bearer',
	expires_in: 3600,
	expires_at: 1795411786,
	refresh_token: 'v4rfjm3ge5mu',
	user: USER,
};

export const GOTRUE_ERROR_2024 = {
	code: 'invalid_credentials',
	message: 'Invalid login credentials',
};

export const GOTRUE_ERROR_INITIAL = {
	code: 400,
	error_code: 'invalid_credentials',
	msg: 'Invalid login credentials',
};

export const GOTRUE_ADMIN_LIST = { users: [USER], aud: 'authenticated' };

type Shape = string | { [key: string]: Shape } | Shape[];

/** The keys and value types of a JSON value (arrays by their first element). */
export function shapeOf(value: unknown): Shape {
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
	if (typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value as Record<string, unknown>)
				.sort(([a], [b]) => a.localeCompare(b))
				.map(([k, v]) => [k, shapeOf(v)]),
		);
	}
	return typeof value;
}
