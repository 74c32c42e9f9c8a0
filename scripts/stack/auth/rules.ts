/**
 * The identity service's decisions that need no database, so they are unit tested on their own:
 * what a presented refresh token earns, whether an e-mailed link is still fresh, and the password
 * hash formats a sign-in accepts.
 */

/** What the refresh-token grant does with a presented token. */
export type RefreshDecision =
	/** An active token: revoke it and issue its child. */
	| { kind: 'rotate' }
	/** The parent of the active token, within the reuse interval: the active token again. */
	| { kind: 'return-active'; token: string }
	/** Any other spent token: possible theft, the whole session ends. */
	| { kind: 'reuse-detected' };

export interface PresentedRefreshToken {
	/** SHA-256 of the presented token (the stored form). */
	hash: string;
	revoked: boolean;
	/** When it was revoked (its row's updated_at), for the reuse interval. */
	revokedAt: Date;
}

/**
 * GoTrue's RefreshTokenGrant (internal/tokens/service.go): a client that lost the answer to its
 * refresh presents the parent of the session's active token again and gets that active token back.
 * Two deliberate differences: GoTrue returns the active token for its parent without a time limit
 * and issues a new one for any other revoked token within the interval; here (the project's rule)
 * only the parent, and only within `reuseSeconds` of its rotation, is forgiven, and every other
 * reuse ends the session, as GoTrue's v2 refresh tokens do (LogoutSession on a reused counter).
 * `reissuable` is the plain active token, which only this process knows (the table holds hashes):
 * after a restart the parent can no longer be answered and counts as reuse.
 */
export function decideRefresh(input: {
	presented: PresentedRefreshToken;
	active: { hash: string; parent: string | null } | null;
	reissuable: string | undefined;
	now: Date;
	reuseSeconds: number;
	hash: (token: string) => string;
}): RefreshDecision {
	const { presented, active, reissuable, now } = input;
	if (!presented.revoked) return { kind: 'rotate' };
	const withinInterval = now.getTime() - presented.revokedAt.getTime() <= input.reuseSeconds * 1000;
	if (
		active &&
		active.parent === presented.hash &&
		withinInterval &&
		reissuable !== undefined &&
		input.hash(reissuable) === active.hash
	) {
		return { kind: 'return-active', token: reissuable };
	}
	return { kind: 'reuse-detected' };
}

/**
 * The plain refresh token last issued for each parent, kept only for the reuse interval (the
 * database has hashes only). Entries past their time are dropped as new ones come in.
 */
export class RecentRefreshTokens {
	readonly #byParent = new Map<string, { token: string; until: number }>();
	readonly #seconds: number;

	constructor(reuseSeconds: number) {
		this.#seconds = reuseSeconds;
	}

	remember(parentHash: string, token: string, now: Date): void {
		const nowMs = now.getTime();
		for (const [key, entry] of this.#byParent) {
			if (entry.until < nowMs) this.#byParent.delete(key);
		}
		this.#byParent.set(parentHash, { token, until: nowMs + this.#seconds * 1000 });
	}

	/** The child issued for this parent, while the interval lasts. */
	childOf(parentHash: string, now: Date): string | undefined {
		const entry = this.#byParent.get(parentHash);
		return entry && entry.until >= now.getTime() ? entry.token : undefined;
	}
}

/**
 * An e-mailed link works for `lifetimeSeconds` after it was sent (GoTrue's MAILER_OTP_EXP,
 * isOtpExpired in verify.go): valid up to and including the last second.
 */
export function isEmailLinkFresh(sentAt: Date, now: Date, lifetimeSeconds: number): boolean {
	return now.getTime() <= sentAt.getTime() + lifetimeSeconds * 1000;
}

/**
 * The stored password hashes GoTrue verifies (internal/crypto/password.go
 * CompareHashAndPassword): argon2 (`$argon2id$…`, what the tenant import writes) and bcrypt
 * (`$2a$`, `$2b$`, `$2y$`: what GoTrue itself writes and a copied Supabase project holds).
 */
export function passwordHashKind(stored: string | null): 'argon2' | 'bcrypt' | null {
	if (!stored) return null;
	if (/^\$argon2(id|i)\$/.test(stored)) return 'argon2';
	if (/^\$2[aby]\$\d{2}\$/.test(stored)) return 'bcrypt';
	return null;
}
