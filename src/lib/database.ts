/**
 * The schema's types as supabase-js uses them (`createClient<Database>`): the generated ones
 * (./database.types.ts, `npm run db:types`) with what a generator cannot read from the catalog:
 * - every argument of a SQL function takes NULL (the generator types one with a default as
 *   optional, never as null), and several mean something by it;
 * - the JSON shapes of jsonb the code reads: the business card record's columns (and which of
 *   its columns may be null: every column of a view may be, to the generator), and what the
 *   functions that answer jsonb answer. Each shape has its home in its feature; here it is only
 *   named.
 * Types only: nothing here reaches a bundle.
 */
import type { SupabaseClient as SupabaseJsClient } from '@supabase/supabase-js';
import type {
	EventDetail,
	EventListResult,
	Saved as EventSaved,
} from '../features/chamber-events/chamber-events.ts';
import type { BusinessLocations } from '../features/directory/directory.ts';
import type { GeocodeCounts } from '../features/geo/geocode.server.ts';
import type {
	FeedAdded,
	FeedApplied,
	FeedErrorRecorded,
	FeedRemoved,
} from '../features/chamber-events/feeds.ts';
import type { ReviewAnswer } from '../features/chamber-events/submissions.ts';
import type { ImportCounts } from '../features/members/import/import.ts';
import type { MemberDetail, MemberListResult, Saved } from '../features/members/members.ts';
import type {
	Decision,
	MemberListing,
	MemberRequestList,
	MemberUpdateSettings,
	SubmitResult,
} from '../features/self-service/self-service.ts';
import type { OpeningHours } from '../features/business/hours/opening-hours.ts';
import type { Database as GeneratedDatabase, Json } from './database.types.ts';

export type { Json };

type Generated = GeneratedDatabase['public'];

/** T as one object type (intersections spelled out), as supabase-js's schema checks need. */
type Flat<T> = { [K in keyof T]: T[K] } & {};
type CardView = Generated['Views']['business_cards_view']['Row'];

/** Card columns that are null for some businesses; the others come from NOT NULL profile columns. */
type NullableCardColumn = 'membership_rank' | 'member_since_year' | 'latitude' | 'longitude';

/** The jsonb columns of the card record, as business_detail_view builds them. */
type CardJson = {
	member_since: { member_since_date: string; member_since_year: number }[];
	listings: {
		description: string;
		short_description: string;
		categories: string[];
		active: boolean;
		primary_listing: boolean;
	}[];
	social_media: { platform: string; url: string }[] | string;
	profile_affiliations: {
		icon: string;
		icon_text: string;
		icon_url: string;
		aff_code: string;
		aff_name: string;
		list_available_on_website: boolean;
		profile_id: string;
		member_count: number;
	}[];
	web_content: { content_type: string; content_title: string; full_url: string; rel_url: string }[];
	/** Opening hours (profiles.hours); null when the business gives none. */
	hours?: OpeningHours | null;
};

/** One row of business_cards_view / business_detail_view: the business card record. */
export type BusinessCardRecord = Flat<
	{
		[K in Exclude<keyof CardView, keyof CardJson>]-?: K extends NullableCardColumn
			? CardView[K]
			: NonNullable<CardView[K]>;
	} & CardJson
>;

/** What each function answering jsonb (or card records) answers. */
interface Answers {
	add_event_feed: FeedAdded;
	admin_business: MemberDetail;
	admin_chamber_event: EventDetail;
	admin_list_chamber_events: EventListResult;
	apply_event_feed: FeedApplied;
	change_event_occurrence: EventSaved;
	clear_event_override: EventSaved;
	delete_chamber_event: EventSaved;
	duplicate_chamber_event: EventSaved;
	record_event_feed_error: FeedErrorRecorded;
	remove_event_feed: FeedRemoved;
	review_event_submission: ReviewAnswer;
	save_chamber_event: EventSaved;
	admin_list_businesses: MemberListResult;
	apply_member_import: ImportCounts & { written: number };
	approve_member_submission: Decision;
	clear_business_override: Saved;
	featured_business_candidates: BusinessCardRecord[];
	get_businesses_with_listing_position: BusinessCardRecord[];
	get_businesses_with_listing_position_randomized: BusinessCardRecord[];
	member_listing: MemberListing;
	member_requests: MemberRequestList;
	member_update_settings: MemberUpdateSettings;
	remove_business: Saved;
	restore_business: Saved;
	return_member_submission: Decision;
	save_business: Saved;
	search_businesses: { total: number; card: BusinessCardRecord }[];
	/** A page past the end answers the total alone, with a null card. */
	search_businesses_near: {
		total: number;
		distance_km: number | null;
		card: BusinessCardRecord | null;
	}[];
	directory_locations: BusinessLocations;
	reset_business_location: Saved;
	record_geocodes: GeocodeCounts;
	submit_member_changes: Omit<SubmitResult, 'published'> & { tenantId: string };
}

/** A function's arguments, each of which may be NULL. */
type NullableArgs<Args> =
	Args extends Record<PropertyKey, never> ? Args : { [K in keyof Args]: Args[K] | null };

type Functions = {
	[Name in keyof Generated['Functions']]: Flat<
		Omit<Generated['Functions'][Name], 'Args' | 'Returns'> & {
			Args: NullableArgs<Generated['Functions'][Name]['Args']>;
			Returns: Name extends keyof Answers ? Answers[Name] : Generated['Functions'][Name]['Returns'];
		}
	>;
};

type Views = Omit<Generated['Views'], 'business_cards_view' | 'business_detail_view'> & {
	business_cards_view: Omit<Generated['Views']['business_cards_view'], 'Row'> & {
		Row: BusinessCardRecord;
	};
	business_detail_view: Omit<Generated['Views']['business_detail_view'], 'Row'> & {
		Row: BusinessCardRecord;
	};
};

export type Database = {
	__InternalSupabase: GeneratedDatabase['__InternalSupabase'];
	public: Flat<
		Omit<Generated, 'Functions' | 'Views'> & { Functions: Functions; Views: Flat<Views> }
	>;
};

/** A supabase-js client of this schema: every query, rpc and row is typed by it. */
export type SupabaseClient = SupabaseJsClient<Database>;

type Public = Database['public'];

/** A row of a table or view. */
export type Row<Name extends keyof Public['Tables'] | keyof Public['Views']> =
	Name extends keyof Public['Tables']
		? Public['Tables'][Name]['Row']
		: Name extends keyof Public['Views']
			? Public['Views'][Name]['Row']
			: never;

/** The values an update of a table's row may set. */
export type RowUpdate<Name extends keyof Public['Tables']> = Public['Tables'][Name]['Update'];

/** The values an insert of a table's row may set. */
export type RowInsert<Name extends keyof Public['Tables']> = Public['Tables'][Name]['Insert'];

/** A function's arguments. */
export type Args<Name extends keyof Public['Functions']> = Public['Functions'][Name]['Args'];
