import type { SupabaseClient } from '../../lib/database.ts';
import { HttpError } from '../../lib/http.server.ts';
import {
	PublicFetchRefused,
	readLimited,
	ResponseTooLarge,
	sourceFetch,
	type PublicFetch,
} from '../../lib/public-fetch.server.ts';
import { getChamberConfig } from '../config/config.server.ts';
import { chamberTimeZone } from '../config/time-zone.ts';
import { refusal } from '../members/refusal.server.ts';
import type { TenantRow } from '../tenants/lookup.server.ts';
import { recordId } from '../versioned/versioned.server.ts';
import { FEED_LIMITS } from './feed-limits.ts';
import { FEED_COLUMNS, type FeedAdd, type FeedRead, type FeedRow } from './feeds.ts';
import { FeedFormatError, parseFeed, type ParsedFeed } from './ical-feed.ts';

/**
 * The chamber's calendar feeds on the server: the admins' list, add and remove (through their
 * own token, so add_event_feed and its neighbours judge them), and the reader: each feed's
 * address fetched through the public-address fetch (redirects checked hop by hop, a size cap, a
 * time limit), parsed with ical.js (ical-feed.ts) and applied by apply_event_feed as whoever asked
 * (an admin on demand, the service role on the schedule). A read that fails leaves the feed's
 * events as they were, records why, and says whether the admins are to be told by e-mail now.
 */

function feedId(id: string | undefined): string {
	return recordId(id, 'No such feed in this chamber');
}

/** Why a feed could not be read, in words for the chamber's admins. */
class FeedReadError extends Error {
	constructor(message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = 'FeedReadError';
	}
}

const HTTP_HINTS: Record<number, string> = {
	401: 'the calendar is not public: use its public or secret address',
	403: 'the calendar is not public: use its public or secret address',
	404: 'the calendar is not there any more: check the address, or make a new secret address',
	410: 'the calendar is not there any more',
};

/** The text at a feed's address, or a FeedReadError saying why not. */
export async function fetchFeedText(
	url: string,
	options: { fetcher?: PublicFetch; timeoutMs?: number } = {},
): Promise<string> {
	const fetcher = options.fetcher ?? sourceFetch();
	const timeoutMs = options.timeoutMs ?? FEED_LIMITS.timeoutMs;
	// The signal bounds the body too, so a feed that never finishes cannot hold a read.
	const signal = AbortSignal.timeout(timeoutMs);
	try {
		const response = await fetcher(new URL(url), {
			signal,
			headers: {
				accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1',
				'user-agent': 'ChamberCalendarFeeds/1.0',
			},
		});
		if (!response.ok) {
			await response.body?.cancel();
			const hint = HTTP_HINTS[response.status];
			throw new FeedReadError(
				`The feed’s address answered HTTP ${response.status}${hint ? `: ${hint}` : ''}`,
			);
		}
		return new TextDecoder().decode(await readLimited(response, FEED_LIMITS.bytes));
	} catch (error) {
		if (error instanceof FeedReadError) throw error;
		if (error instanceof ResponseTooLarge) {
			throw new FeedReadError(
				`The feed is larger than ${FEED_LIMITS.bytes / 1024 / 1024} MB, the most one read takes`,
			);
		}
		if (error instanceof PublicFetchRefused) {
			console.warn(`[event-feeds] refused ${url}: ${error.message}`);
			throw new FeedReadError('The address is not one on the public internet', { cause: error });
		}
		if (signal.aborted || (error as Error).name === 'TimeoutError') {
			throw new FeedReadError(`The feed did not answer within ${timeoutMs / 1000} seconds`, {
				cause: error,
			});
		}
		const code = (error as { cause?: { code?: string } }).cause?.code;
		throw new FeedReadError(`The feed’s address could not be reached${code ? ` (${code})` : ''}`, {
			cause: error,
		});
	}
}

// --- The admins' list ------------------------------------------------------------------------------

export async function listFeeds(client: SupabaseClient, tenantId: string): Promise<FeedRow[]> {
	const { data, error } = await client
		.from('event_feeds')
		.select(FEED_COLUMNS)
		.eq('tenant_id', tenantId)
		.order('created_at')
		.overrideTypes<FeedRow[], { merge: false }>();
	if (error) throw refusal(error, 'Listing the calendar feeds');
	return data;
}

async function getFeed(client: SupabaseClient, tenantId: string, id: string): Promise<FeedRow> {
	const { data, error } = await client
		.from('event_feeds')
		.select(FEED_COLUMNS)
		.eq('tenant_id', tenantId)
		.eq('id', feedId(id))
		.maybeSingle()
		.overrideTypes<FeedRow | null, { merge: false }>();
	if (error) throw refusal(error, 'Reading the calendar feed');
	if (!data) throw new HttpError(404, 'No such feed in this chamber');
	return data;
}

export async function addFeed(
	client: SupabaseClient,
	tenantId: string,
	feed: FeedAdd,
): Promise<FeedRow> {
	const { data, error } = await client.rpc('add_event_feed', {
		p_tenant_id: tenantId,
		p_url: feed.url,
		p_calendar: feed.calendar,
		p_name: feed.name,
	});
	if (error) throw refusal(error, 'Adding the calendar feed');
	return getFeed(client, tenantId, data.id);
}

export async function removeFeed(
	client: SupabaseClient,
	tenantId: string,
	id: string | undefined,
): Promise<{ id: string; events: number }> {
	const { data, error } = await client.rpc('remove_event_feed', {
		p_tenant_id: tenantId,
		p_feed_id: feedId(id),
	});
	if (error) throw refusal(error, 'Removing the calendar feed');
	return data;
}

// --- Reading a feed --------------------------------------------------------------------------------

interface ReadOptions {
	dryRun: boolean;
	/** The chamber's time zone: floating times and zones that are not IANA names. */
	zone: string;
	now?: Date;
	fetcher?: PublicFetch;
}

/** A read as the server has it: a failure says whether to e-mail the admins now, and since when. */
export type ServerRead = FeedRead & { notify?: boolean; errorSince?: string };

/**
 * Reads one feed and applies it (or, a dry run, answers what it would change) as `client`'s
 * caller. A failure (the address, the text, or the database refusing what it brings) is recorded
 * on the feed, its events left as they were.
 */
async function readFeed(
	client: SupabaseClient,
	feed: Pick<FeedRow, 'id' | 'url'>,
	options: ReadOptions,
): Promise<ServerRead> {
	let text: string;
	try {
		text = await fetchFeedText(feed.url, { fetcher: options.fetcher });
	} catch (error) {
		if (!(error instanceof FeedReadError)) throw error;
		return failRead(client, feed.id, options.dryRun, error.message);
	}
	return applyFeedText(client, feed.id, text, options);
}

/** A feed's text, fetched already, parsed and applied as in readFeed. */
async function applyFeedText(
	client: SupabaseClient,
	id: string,
	text: string,
	options: Omit<ReadOptions, 'fetcher'>,
): Promise<ServerRead> {
	let parsed: ParsedFeed;
	try {
		parsed = parseFeed(text, { zone: options.zone, now: options.now ?? new Date() });
	} catch (error) {
		if (!(error instanceof FeedFormatError)) throw error;
		return failRead(client, id, options.dryRun, error.message);
	}
	const { data, error } = await client.rpc('apply_event_feed', {
		p_feed_id: id,
		p_events: parsed.events as never,
		p_dry_run: options.dryRun,
		p_name: parsed.name,
	});
	if (error) {
		if (error.code === 'PT404' || error.code === '42501') throw refusal(error, 'Reading the feed');
		console.error(`[event-feeds] feed ${id}: the database refused its events: ${error.message}`);
		return failRead(
			client,
			id,
			options.dryRun,
			`The feed’s events could not be saved: ${error.message}`,
		);
	}
	return {
		feedId: id,
		dryRun: options.dryRun,
		calendarName: parsed.name,
		result: data,
		skipped: parsed.skipped,
		error: null,
	};
}

async function failRead(
	client: SupabaseClient,
	id: string,
	dryRun: boolean,
	message: string,
): Promise<ServerRead> {
	const { data, error } = await client.rpc('record_event_feed_error', {
		p_feed_id: id,
		p_error: message,
	});
	if (error) throw refusal(error, 'Recording the feed’s error');
	const recorded = data;
	return {
		feedId: id,
		dryRun,
		calendarName: '',
		result: null,
		skipped: [],
		error: message,
		notify: recorded.notify,
		errorSince: recorded.errorSince,
	};
}

/** The chamber's zone, which a feed's floating times are on. */
export async function chamberZone(client: SupabaseClient, tenantId: string): Promise<string> {
	return chamberTimeZone(await getChamberConfig(client, tenantId));
}

/** One feed of the chamber read on an admin's demand (a preview while it is new). */
export async function readFeedNow(
	client: SupabaseClient,
	tenant: TenantRow,
	id: string | undefined,
	options: { dryRun?: boolean; now?: Date; fetcher?: PublicFetch } = {},
): Promise<ServerRead & { feed: FeedRow }> {
	const feed = await getFeed(client, tenant.id, feedId(id));
	const read = await readFeed(client, feed, {
		dryRun: options.dryRun ?? false,
		zone: await chamberZone(client, tenant.id),
		now: options.now,
		fetcher: options.fetcher,
	});
	return { ...read, feed: await getFeed(client, tenant.id, feed.id) };
}

/**
 * The schedule's read (service role): every active feed of the chamber, their addresses fetched
 * side by side (a scheduled function has 30 seconds; each address FEED_LIMITS.timeoutMs), then
 * applied one after another. Feeds still in preview wait for their admins.
 */
export async function readActiveFeeds(
	service: SupabaseClient,
	tenant: TenantRow,
	options: { now?: Date; fetcher?: PublicFetch } = {},
): Promise<(ServerRead & { feed: Pick<FeedRow, 'id' | 'name' | 'url'> })[]> {
	const { data, error } = await service
		.from('event_feeds')
		.select('id, url, name')
		.eq('tenant_id', tenant.id)
		.eq('state', 'active')
		.order('created_at');
	if (error) throw new Error(`Listing the calendar feeds failed: ${error.message}`);
	const zone = await chamberZone(service, tenant.id);
	const now = options.now ?? new Date();
	// Fetched together, applied in turn: one transaction at a time on a one-session database.
	const texts = await Promise.allSettled(
		data.map((feed) => fetchFeedText(feed.url, { fetcher: options.fetcher })),
	);
	const reads: (ServerRead & { feed: Pick<FeedRow, 'id' | 'name' | 'url'> })[] = [];
	for (const [index, feed] of data.entries()) {
		const text = texts[index]!;
		let read: ServerRead;
		if (text.status === 'fulfilled') {
			read = await applyFeedText(service, feed.id, text.value, { dryRun: false, zone, now });
		} else if (text.reason instanceof FeedReadError) {
			read = await failRead(service, feed.id, false, text.reason.message);
		} else {
			throw text.reason;
		}
		reads.push({ ...read, feed });
	}
	return reads;
}
