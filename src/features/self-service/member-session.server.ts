import { decodeJwt } from 'jose';
import type { SupabaseClient } from '../../lib/database.ts';
import { HttpError } from '../../lib/http.server.ts';
import {
	createAuthClient,
	getUserClient,
	readClientEnv,
	type ClientEnv,
} from '../../lib/supabase.server.ts';
import {
	MEMBER_SESSION_NOT_FROM_LINK as NOT_A_MEMBER,
	memberSessionProblem,
} from './self-service.ts';

/**
 * The signed-in member, on its own: the member functions and the event submissions load it
 * without the rest of self-service (its logo writes carry sanitize-html and file-type).
 */

export interface MemberSession {
	userId: string;
	/** The member's address: the business's e-mail on file, which the link went to. */
	email: string;
	/** PostgREST as the member: the database's member checks apply. */
	client: SupabaseClient;
}

/**
 * The member's token, checked by the identity service (signature, expiry, its session still
 * there), from a session that began with the e-mailed link less than 30 days ago
 * (memberSessionProblem: Postgres's member_session_from_link holds the same); 401 otherwise.
 */
export async function authenticateMember(
	req: Request,
	env: ClientEnv = readClientEnv(),
	now: () => Date = () => new Date(),
): Promise<MemberSession> {
	const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '')?.[1];
	if (!token) throw new HttpError(401, NOT_A_MEMBER);
	const { data, error } = await createAuthClient(env).auth.getUser(token);
	if (error || !data.user) {
		if (error && (error.status ?? 0) >= 500) {
			throw new Error(`Identity service failed: ${error.message}`, { cause: error });
		}
		throw new HttpError(401, NOT_A_MEMBER);
	}
	// The identity service accepted the token, so its claims are the ones it signed.
	const problem = memberSessionProblem(decodeJwt(token), now());
	if (problem) throw new HttpError(401, problem);
	return { userId: data.user.id, email: data.user.email ?? '', client: getUserClient(token, env) };
}
