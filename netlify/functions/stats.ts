import type { Config } from '@netlify/functions';
import { isBotAgent, RepeatFilter } from '../../src/features/reports/counting.server.ts';
import { recordStats } from '../../src/features/reports/reports.server.ts';
import {
	countEvents,
	MAX_BATCH_BYTES,
	statBatchSchema,
	utcDay,
} from '../../src/features/reports/reports.ts';
import {
	BadRequest,
	clientIp,
	handleJson,
	HttpError,
	ipRateKey,
} from '../../src/lib/http.server.ts';
import { getServiceClient } from '../../src/lib/supabase.server.ts';
import { getCurrentTenant } from '../../src/lib/tenant.server.ts';

export const config: Config = { path: '/api/stats' };

/** This instance's repeat filter: its salt and hashes live in memory for the UTC day only. */
const repeats = new RepeatFilter();

/** Only this site's pages send statistics (a beacon always carries Origin, and Sec-Fetch-Site). */
function fromThisSite(req: Request): boolean {
	const site = req.headers.get('sec-fetch-site');
	if (site !== null && site !== 'same-origin') return false;
	const origin = req.headers.get('origin');
	if (!origin) return false;
	if (origin === new URL(req.url).origin) return true;
	try {
		return new URL(origin).host === req.headers.get('host');
	} catch {
		return false;
	}
}

/** The batch as sent by navigator.sendBeacon (text/plain) or as JSON, at most 16 KB. */
async function readBatch(req: Request) {
	const text = await req.text();
	if (new TextEncoder().encode(text).byteLength > MAX_BATCH_BYTES) {
		throw new HttpError(413, 'A batch must be at most 16 KB');
	}
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		throw new BadRequest('Expected a JSON body');
	}
	const parsed = statBatchSchema.safeParse(body);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
		throw new BadRequest(`${where}${issue?.message ?? 'Invalid batch'}`);
	}
	return parsed.data;
}

const NO_CONTENT = () =>
	new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });

/**
 * A page's batch of statistics events (docs/reports.md): validated, bots and repeats dropped,
 * then added to the per-business-per-day counters in one call. Answers 204 whether or not
 * anything was counted, so a page learns nothing from it.
 */
export default handleJson('stats', ['POST'], async (req, context) => {
	if (!fromThisSite(req)) throw new HttpError(403, 'Statistics can only be sent from this site');
	const batch = await readBatch(req);
	if (isBotAgent(req.headers.get('user-agent'))) return NO_CONTENT();
	const events = repeats.admit(ipRateKey(clientIp(req, context)), batch.events);
	if (events.length === 0) return NO_CONTENT();
	const tenant = await getCurrentTenant();
	await recordStats(getServiceClient(), tenant.id, utcDay(new Date()), countEvents(events));
	return NO_CONTENT();
});
