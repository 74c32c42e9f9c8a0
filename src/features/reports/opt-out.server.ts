import { z } from 'zod';
import type { ChamberConfig } from '../config/config.ts';
import { getCachedChamberConfig } from '../config/config.server.ts';
import { getAnonClient } from '../../lib/supabase.server.ts';
import { getCurrentTenant } from '../../lib/tenant.server.ts';
import { optOutOfMonthlyEmail } from './reports.server.ts';

/** The opt-out link's token: random, made by the database (member_report_recipients). */
const tokenSchema = z.uuid();

export type OptOutOutcome =
	{ kind: 'confirm'; token: string } | { kind: 'done'; business: string } | { kind: 'invalid' };

/**
 * /privacy/statistics/opt-out?token=…: GET shows the confirmation, POST (the page's button, or a
 * mail client's one-click unsubscribe, RFC 8058) opts out. The token comes from the address, or
 * from the form.
 */
export async function optOutRequest(
	req: Request,
): Promise<{ config: ChamberConfig; outcome: OptOutOutcome; status: number }> {
	const anon = getAnonClient();
	const tenant = await getCurrentTenant(anon);
	const config = await getCachedChamberConfig(anon, tenant.id);
	let raw = new URL(req.url).searchParams.get('token');
	if (req.method === 'POST') {
		const form = await req.formData().catch(() => null);
		const posted = form?.get('token');
		if (typeof posted === 'string' && posted) raw = posted;
	}
	const token = tokenSchema.safeParse(raw);
	if (!token.success) return { config, outcome: { kind: 'invalid' }, status: 400 };
	if (req.method !== 'POST') {
		return { config, outcome: { kind: 'confirm', token: token.data }, status: 200 };
	}
	const business = await optOutOfMonthlyEmail(anon, token.data);
	return business === null
		? { config, outcome: { kind: 'invalid' }, status: 404 }
		: { config, outcome: { kind: 'done', business }, status: 200 };
}
