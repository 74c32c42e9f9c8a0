import { createHash, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { AuthError } from './errors.ts';

/**
 * Access tokens as GoTrue issues them (internal/tokens/service.go AccessTokenClaims): HS256 with
 * the project's JWT secret, so PostgREST sees the same auth.uid() and auth.jwt() as on Supabase.
 * Refresh tokens and e-mailed tokens are opaque random strings; only their SHA-256 is stored.
 */

export interface AccessTokenClaims extends JWTPayload {
	sub: string;
	aud: string;
	exp: number;
	iat: number;
	iss: string;
	email: string;
	phone: string;
	app_metadata: Record<string, unknown>;
	user_metadata: Record<string, unknown>;
	role: string;
	aal: string;
	amr: { method: string; timestamp: number }[];
	session_id: string;
	is_anonymous: boolean;
}

const secretKey = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(
	secret: string,
	claims: Omit<AccessTokenClaims, 'iat' | 'exp'>,
	options: { now: Date; expiresInSeconds: number },
): Promise<{ token: string; expiresAt: number }> {
	const iat = Math.floor(options.now.getTime() / 1000);
	const expiresAt = iat + options.expiresInSeconds;
	const token = await new SignJWT({ ...claims })
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.setIssuedAt(iat)
		.setExpirationTime(expiresAt)
		.sign(secretKey(secret));
	return { token, expiresAt };
}

/**
 * Verifies a bearer token as GoTrue's middleware does: HS256 with this secret only (an unsigned or
 * otherwise signed token is refused), not expired. Failures are GoTrue's 403 bad_jwt.
 */
export async function verifyAccessToken(
	secret: string,
	token: string,
	now: Date,
): Promise<JWTPayload & Partial<AccessTokenClaims>> {
	try {
		const { payload } = await jwtVerify<Partial<AccessTokenClaims>>(token, secretKey(secret), {
			algorithms: ['HS256'],
			currentDate: now,
		});
		return payload;
	} catch (error) {
		const reason =
			error instanceof joseErrors.JWTExpired
				? 'token has invalid claims: token is expired'
				: error instanceof joseErrors.JOSEAlgNotAllowed
					? 'token is unverifiable: signing method none is invalid'
					: 'token signature is invalid';
		throw new AuthError(
			403,
			'bad_jwt',
			`invalid JWT: unable to parse or verify signature, ${reason}`,
		);
	}
}

/** A new opaque token (refresh token, e-mailed link token). */
export function newOpaqueToken(): string {
	return randomBytes(32).toString('base64url');
}

/** How an opaque token is stored: its SHA-256, hex. */
export function hashToken(token: string): string {
	return createHash('sha256').update(token).digest('hex');
}
