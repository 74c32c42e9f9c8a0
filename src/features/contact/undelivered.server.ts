import type { Row, SupabaseClient } from '../../lib/database.ts';
import type { UndeliveredCount } from './contact.ts';

/**
 * Visitors' messages not e-mailed yet: the retry's list and the panel's count. Apart from
 * contact.server.ts so that the panel's count does not carry the mail library (nodemailer) in its
 * function's zip (docs/performance.md#function-sizes).
 */

/**
 * How often a stored message is tried before it is left for the chamber's staff (the panel counts
 * undelivered messages): with the back-off below, about two days of a mail server being down.
 */
export const MAX_DELIVERY_ATTEMPTS = 16;

/** A stored message and what its delivery needs. */
export type UndeliveredMessage = Pick<
	Row<'contact_messages'>,
	'id' | 'tenant_id' | 'business_id' | 'name' | 'email' | 'message' | 'attempts'
>;

/** The chamber's stored messages due for another attempt, the longest waiting first. */
export async function listUndeliveredMessages(
	service: SupabaseClient,
	tenantId: string,
	now: Date = new Date(),
	limit = 100,
): Promise<UndeliveredMessage[]> {
	const { data, error } = await service
		.from('contact_messages')
		.select('id, tenant_id, business_id, name, email, message, attempts')
		.eq('tenant_id', tenantId)
		.neq('delivery_status', 'sent')
		.lt('attempts', MAX_DELIVERY_ATTEMPTS)
		.lte('next_attempt_at', now.toISOString())
		.order('next_attempt_at')
		.limit(limit);
	if (error) throw new Error(`Failed to list messages: ${error.message}`, { cause: error });
	return data;
}

/** Counted with the staff member's own token: row-level security decides who may see them. */
export async function countUndeliveredMessages(
	client: SupabaseClient,
	tenantId: string,
): Promise<UndeliveredCount> {
	const count = async (gaveUp: boolean) => {
		let query = client
			.from('contact_messages')
			.select('id', { count: 'exact', head: true })
			.eq('tenant_id', tenantId)
			.neq('delivery_status', 'sent');
		if (gaveUp) query = query.gte('attempts', MAX_DELIVERY_ATTEMPTS);
		const { count: n, error } = await query;
		if (error) throw new Error(`Failed to count messages: ${error.message}`, { cause: error });
		return n ?? 0;
	};
	const [undelivered, givenUp] = await Promise.all([count(false), count(true)]);
	return { undelivered, givenUp };
}
