import { atom } from 'nanostores';
import type { MemberRequestList } from './self-service.ts';

/**
 * The Requests tab's state shared with its badge: how many requests wait. The tab sets it from
 * every list it loads, so the badge follows each approval and return.
 */
export const $requestCount = atom<number | null>(null);

export interface StaffApi {
	getAccessToken(): Promise<string>;
	/** The chamber's slug (`?chamber=` for a super_admin's other chamber). */
	chamber: string;
}

/** An /api/admin/member-requests call as the signed-in staff member: the answer and its body. */
export async function requestsApi(
	deps: StaffApi,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
	const url = new URL(`/api/admin/member-requests${path}`, window.location.origin);
	url.searchParams.set('chamber', deps.chamber);
	let response: Response;
	try {
		response = await fetch(url, {
			method: body === undefined ? 'GET' : 'POST',
			headers: {
				Authorization: `Bearer ${await deps.getAccessToken()}`,
				...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	} catch {
		return { status: 0, body: { error: 'Network error. Please try again.' } };
	}
	const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
	return { status: response.status, body: json };
}

export async function loadRequests(deps: StaffApi): Promise<MemberRequestList | string> {
	const answer = await requestsApi(deps, '');
	if (answer.status !== 200)
		return String(answer.body.error ?? 'The requests could not be loaded.');
	const list = answer.body as unknown as MemberRequestList;
	$requestCount.set(list.count);
	return list;
}

export async function refreshRequestCount(deps: StaffApi): Promise<void> {
	const url = new URL('/api/admin/member-requests', window.location.origin);
	url.searchParams.set('chamber', deps.chamber);
	url.searchParams.set('count', '1');
	try {
		const response = await fetch(url, {
			headers: { Authorization: `Bearer ${await deps.getAccessToken()}` },
		});
		if (response.ok) $requestCount.set(((await response.json()) as { count: number }).count);
	} catch {
		// The badge stays as it was; the tab itself says what went wrong.
	}
}
