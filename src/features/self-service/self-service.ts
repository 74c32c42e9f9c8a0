import { escapeUTF8 } from 'entities';
import { z } from 'zod';
import type { MemberFieldChoice } from '../config/config.ts';
import {
	describeValue,
	FIELD_LABELS,
	parseBusinessChanges,
	type BusinessChanges,
	type FieldIssue,
} from '../members/members.ts';

// Members updating their own listing: the sign-in request, the member's listing and request,
// staff's decisions and the field-by-field diff. Pure logic, no I/O: the member pages, the
// Requests tab, the functions and the tests share it. The database holds the same rules on its
// own (submit_member_changes, approve_member_submission; supabase/schema.sql).

// --- Sign-in --------------------------------------------------------------------------------------

/**
 * The one answer to a sign-in request, whatever the business and whether it has an address on
 * file: nothing tells a visitor which businesses have one, or what it is.
 */
export const SIGN_IN_SENT =
	'If this business has an e-mail address on file, a sign-in link is on its way.';

/** POST /api/members/sign-in. */
export const signInBodySchema = z.object({
	/** The business whose listing is to be updated (its id, from the profile's link). */
	business: z.guid({ error: 'business: expected the id of a business' }),
});

/**
 * Sign-in link requests, counted before anything is looked up: per visitor address, and per
 * business (whoever asks), so nobody can flood a business's inbox.
 */
export const SIGN_IN_ADDRESS_LIMITS = [
	{ limit: 10, windowSeconds: 3600 },
	{ limit: 30, windowSeconds: 86_400 },
] as const;
export const SIGN_IN_BUSINESS_LIMITS = [
	{ limit: 3, windowSeconds: 3600 },
	{ limit: 10, windowSeconds: 86_400 },
] as const;

export { listingPath, signInPath } from './paths.ts';
import { signInPath } from './paths.ts';

export { MEMBER_SESSION_KEY } from './paths.ts';

/**
 * How a member's session must have begun: the token's amr holds one of these methods (GoTrue's:
 * `otp` for the e-mailed link and code in the implicit flow, `magiclink` and `recovery` in the
 * PKCE flow). A password sign-in (amr `password`) is no member, so a password set from a link's
 * session does not outlive the mailbox. Postgres holds the same list (member_session_from_link).
 */
const MEMBER_SIGN_IN_METHODS: readonly string[] = ['otp', 'magiclink', 'recovery'];

/**
 * A sign-in by link lasts this many days: refreshing keeps the session's amr and its time, so
 * after 30 days the member asks for a new link (member_session_from_link holds the same).
 */
const MEMBER_SESSION_DAYS = 30;

export const MEMBER_SESSION_NOT_FROM_LINK =
	'Please sign in again with the link e-mailed to your business.';
export const MEMBER_SESSION_TOO_OLD = `Your sign-in is more than ${MEMBER_SESSION_DAYS} days old: please sign in again with a new link e-mailed to your business.`;

/**
 * Why a token's claims are no member session (null when they are one): its amr has no e-mailed
 * link method, or the newest is more than MEMBER_SESSION_DAYS old at `now`.
 */
export function memberSessionProblem(claims: { amr?: unknown }, now: Date): string | null {
	const entries = Array.isArray(claims.amr) ? (claims.amr as unknown[]) : [];
	const times = entries.flatMap((entry) => {
		if (typeof entry !== 'object' || entry === null) return [];
		const { method, timestamp } = entry as { method?: unknown; timestamp?: unknown };
		return typeof method === 'string' &&
			MEMBER_SIGN_IN_METHODS.includes(method) &&
			typeof timestamp === 'number'
			? [timestamp * 1000]
			: [];
	});
	if (times.length === 0) return MEMBER_SESSION_NOT_FROM_LINK;
	return now.getTime() - Math.max(...times) < MEMBER_SESSION_DAYS * 86_400_000
		? null
		: MEMBER_SESSION_TOO_OLD;
}

// --- The member's listing -----------------------------------------------------------------------------

export type MemberField = MemberFieldChoice;

/** How each field is named to members and in the Requests tab's diff. */
export function fieldLabel(field: string): string {
	return (FIELD_LABELS as Record<string, string>)[field] ?? field;
}

type SubmissionStatus = 'pending' | 'approved' | 'returned';

/** A member's request as the member page and the Requests tab read it. */
export interface Submission {
	id: string;
	status: SubmissionStatus;
	/** The fields the member changed, as it submitted them. */
	changes: BusinessChanges;
	baseVersion: number;
	/** Staff's note on a returned request. */
	note: string;
	submittedAt: string;
	/** When staff approved (it went live with the next publish) or returned it. */
	decidedAt: string | null;
	memberEmail: string;
}

export interface MemberSettings {
	enabled: boolean;
	fields: MemberField[];
	liveFields: MemberField[];
	maxCategories: number;
}

/** A chamber's member settings as the database answers them (member_update_settings). */
export type MemberUpdateSettings = MemberSettings & { editorsApprove: boolean };

/** GET /api/members/listing?business=: the member's listing, never its address on file. */
export interface MemberListing {
	business: BusinessChanges & { id: string; report_name: string; city: string; published: boolean };
	version: number;
	settings: MemberSettings;
	/** The chamber's categories to choose from. */
	categoryChoices: string[];
	submission: Submission | null;
	/** Its saved live changes that wait for the chamber's publish window: live by `dueAt`. */
	waiting?: { dueAt: string } | null;
}

/** POST /api/members/listing?business=: the changed fields and the version they were made from. */
export const memberSubmitSchema = z.object({
	/** The listing's version the member opened (GET's `version`). */
	version: z.number({ error: 'version: expected the version you opened' }).int().min(0),
	changes: z.record(z.string(), z.unknown()),
});

/** The business a member call is about. */
export const memberQuerySchema = z.object({ business: z.guid({ error: 'Expected a business' }) });

export type ParsedMemberChanges =
	{ ok: true; changes: BusinessChanges } | { ok: false; issues: FieldIssue[] };

/**
 * A member's changes: the Members tab's own validation (the tenant file's schema, field by
 * field), and only fields the chamber lets members change. Categories: from the chamber's list
 * (or the listing's own), at most the chamber's limit.
 */
export function parseMemberChanges(
	input: unknown,
	settings: Pick<MemberSettings, 'fields' | 'maxCategories'>,
	categoryChoices: readonly string[] = [],
	currentCategories: readonly string[] = [],
): ParsedMemberChanges {
	const parsed = parseBusinessChanges(input);
	if (!parsed.ok) return parsed;
	const issues: FieldIssue[] = [];
	for (const field of Object.keys(parsed.changes)) {
		if (!(settings.fields as readonly string[]).includes(field)) {
			issues.push({
				path: field,
				field: null,
				message: `Members of this chamber cannot change ${fieldLabel(field).toLowerCase()}`,
			});
		}
	}
	const categories = parsed.changes.categories;
	if (categories) {
		const allowed = new Set([...categoryChoices, ...currentCategories]);
		const unknown = categories.find((c) => !allowed.has(c));
		if (unknown !== undefined) {
			issues.push({
				path: 'categories',
				field: 'categories',
				message: `Choose from the chamber's categories ("${unknown}" is not one)`,
			});
		}
		if (categories.length > settings.maxCategories) {
			issues.push({
				path: 'categories',
				field: 'categories',
				message: `At most ${settings.maxCategories} ${settings.maxCategories === 1 ? 'category' : 'categories'}`,
			});
		}
	}
	return issues.length ? { ok: false, issues } : parsed;
}

/** POST's answer: the fields that went live at once, the version, the request now waiting. */
export interface SubmitResult {
	live: MemberField[];
	version: number;
	submission: Submission | null;
	/**
	 * Whether the live fields are on the site already: fields only the profile shows, where
	 * profiles are rendered on demand, refresh the profile at once (its cache tags are purged).
	 */
	published: boolean;
	/**
	 * When live fields that could have shown at once were saved within
	 * MEMBER_PUBLISH_INTERVAL_SECONDS of the member's last such save: from when a save of theirs
	 * shows at once again (ISO). Until then they go live with the window's publish. Null otherwise.
	 */
	publishAfter: string | null;
	/**
	 * When the live fields are on the site at the latest (ISO): they wait for the chamber's
	 * publish window (features.publishWindow). Null when they are live already, alter no page,
	 * or are held (below).
	 */
	liveBy: string | null;
	/**
	 * The month's publish budget and its reserve of daily publishes are used: the live fields go
	 * live with the next publish the chamber's staff confirm, at no time the page can promise.
	 */
	held?: boolean;
}

/**
 * A member's saves refresh its profile at once (a purge of its cache tags) at most once in this
 * interval; a save within it is kept and goes live with the window's publish.
 */
export const MEMBER_PUBLISH_INTERVAL_SECONDS = 600;

/** The rate-limit bucket of a member's immediate publishes (rate_limit_hit, every instance). */
export function memberPublishBucket(userId: string): string {
	return `member-publish:${userId}`;
}

/**
 * What the member page says after a save. `liveBy` formats the time the change is live by on the
 * chamber's clock ('Live on the site by 14:00').
 */
export function describeSaved(
	result: Pick<
		SubmitResult,
		'live' | 'submission' | 'publishAfter' | 'published' | 'liveBy' | 'held'
	>,
	liveBy: (iso: string) => string,
): string {
	const live = result.live.map((f) => fieldLabel(f)).join(', ');
	const minutes = MEMBER_PUBLISH_INTERVAL_SECONDS / 60;
	let saved = '';
	if (live && result.published) saved = `${live}: live on the site now.`;
	else if (live && result.held) {
		saved = `${live}: saved. It goes live with the chamber's next publish.`;
	} else if (live && result.liveBy && result.publishAfter) {
		saved = `${live}: saved. ${liveBy(result.liveBy)} (your changes show at once at most every ${minutes} minutes).`;
	} else if (live && result.liveBy) saved = `${live}: saved. ${liveBy(result.liveBy)}.`;
	else if (live)
		saved = `${live}: saved. Your listing is not on the site, so nothing is published.`;
	return [saved, result.submission ? 'Sent for review: the chamber will e-mail you.' : '']
		.filter(Boolean)
		.join(' ');
}

/** What the member page says of its latest request. */
export function describeSubmission(
	submission: Submission | null,
	formatTime: (iso: string) => string,
): string | null {
	if (!submission) return null;
	switch (submission.status) {
		case 'pending':
			return `Waiting for the chamber's review since ${formatTime(submission.submittedAt)}.`;
		case 'approved':
			return `Approved: live on the site since ${formatTime(submission.decidedAt ?? submission.submittedAt)}.`;
		case 'returned':
			return `Returned by the chamber on ${formatTime(submission.decidedAt ?? submission.submittedAt)}.`;
	}
}

// --- Staff: the Requests tab ---------------------------------------------------------------------------

/** One pending request with the live listing's values of the fields it changes. */
export interface MemberRequest {
	submission: Submission;
	business: { id: string; name: string; version: number };
	/** The live value of each field the request changes (the diff's left side). */
	live: Record<string, unknown>;
}

export interface MemberRequestList {
	requests: MemberRequest[];
	count: number;
}

/** What approving or returning a request answers (approve_member_submission, return_…). */
export interface Decision {
	id: string;
	business: string;
	/** The listing's version after an approval. */
	version?: number;
	memberEmail: string;
}

/** POST /api/admin/member-requests/{id}/approve: 'Approve', or 'Edit and approve' with changes. */
export const approveBodySchema = z.object({
	/** The live listing's version the diff was shown at. */
	version: z.number({ error: 'version: expected the version of the listing you saw' }).int().min(0),
	/** Staff's edit of the request's fields; the request as submitted when left out. */
	changes: z.record(z.string(), z.unknown()).optional(),
});

/** POST /api/admin/member-requests/{id}/return. */
export const returnBodySchema = z.object({
	/** What the member should change; e-mailed to the member and shown on its page. */
	note: z
		.string({ error: 'Say what the member should change' })
		.trim()
		.min(1, { error: 'Say what the member should change' })
		.max(2000, { error: 'At most 2000 characters' }),
});

/** One line of the diff: the field, its live value and the requested one, each as text. */
export interface DiffLine {
	field: string;
	label: string;
	/** For a list: one line per entry; else one line. */
	live: string[];
	requested: string[];
}

/** A value as the diff shows it, a line per list entry. */
function diffLines(field: string, value: unknown): string[] {
	if (Array.isArray(value)) {
		if (value.length === 0) return ['(none)'];
		return value.map((entry) => {
			if (typeof entry === 'string') return entry;
			if (field === 'listings' && entry && typeof entry === 'object') {
				const listing = entry as { description?: string; short_description?: string };
				return [listing.short_description, listing.description].filter(Boolean).join(' — ');
			}
			if (field === 'social_media' && entry && typeof entry === 'object') {
				const link = entry as { platform?: string; url?: string };
				return `${link.platform}: ${link.url}`;
			}
			if (field === 'web_content' && entry && typeof entry === 'object') {
				const item = entry as { content_type?: string; content_title?: string; full_url?: string };
				return [item.content_type, item.content_title, item.full_url].filter(Boolean).join(' — ');
			}
			return JSON.stringify(entry);
		});
	}
	return [describeValue(value)];
}

/** The request's fields, each with the live and the requested value. */
export function requestDiff(request: Pick<MemberRequest, 'submission' | 'live'>): DiffLine[] {
	return Object.entries(request.submission.changes).map(([field, requested]) => ({
		field,
		label: fieldLabel(field),
		live: diffLines(field, request.live[field]),
		requested: diffLines(field, requested),
	}));
}

// --- E-mails to the member ----------------------------------------------------------------------------

export interface DecisionMail {
	subject: string;
	text: string;
	/** The HTML body (the chamber's colour, the same words). */
	html: string;
}

/** The e-mail telling a member its request was approved, or returned with the note. */
export function decisionMail(
	decision: { kind: 'approved' } | { kind: 'returned'; note: string },
	chamber: { name: string; colour: string; siteUrl: string },
	business: { id: string; name: string },
): DecisionMail {
	const link = new URL(signInPath(business.id), chamber.siteUrl).href;
	const approved = decision.kind === 'approved';
	const subject = approved
		? `Your listing update is approved — ${chamber.name}`
		: `Your listing update was returned — ${chamber.name}`;
	const lines = approved
		? [
				`The ${chamber.name} approved your update of ${business.name}'s listing.`,
				'It shows on the directory after the next publish, usually within a few minutes.',
			]
		: [
				`The ${chamber.name} returned your update of ${business.name}'s listing with this note:`,
				'',
				decision.note,
				'',
				'To change it and send it again, sign in to your listing:',
				link,
			];
	const text = lines.join('\n');
	const colour = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i.test(chamber.colour)
		? chamber.colour
		: '#1f4e79';
	const html = `<div style="font-family:sans-serif;max-width:560px">
<h2 style="color:${colour}">${escapeUTF8(chamber.name)}</h2>
${lines
	.filter((line) => line !== '')
	.map((line) =>
		line === link
			? `<p><a href="${escapeUTF8(link)}" style="color:${colour}">Update your listing</a></p>`
			: `<p>${escapeUTF8(line)}</p>`,
	)
	.join('\n')}
</div>`;
	return { subject, text, html };
}
