import { useStore } from '@nanostores/react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import Dialog from '../ui/Dialog.tsx';
import DialogActions from '../ui/DialogActions.tsx';
import ConflictDialog from '../conflicts/ConflictDialog.tsx';
import { publishRequested } from '../publish/store.ts';
import { formatHoursText } from '../business/hours/hours.ts';
import type { Affiliation, Listing, SocialMediaEntry, WebContent } from '../tenants/tenant-file.ts';
import {
	describeActor,
	describeValue,
	FIELD_GROUPS,
	FIELD_LABELS,
	mayChangeField,
	mayManageMembers,
	restorableUntil,
	STATUS_LABELS,
	type BusinessField,
	type BusinessValues,
	type FieldIssue,
	type HistoryEntry,
	type LocationStatus,
	type Override,
	type StaffRole,
} from './members.ts';
import RowList, { type RowColumn, type RowListClasses } from './RowList.tsx';
import LocationField from './LocationField.tsx';
import type { MapTiles } from '../geo/tiles.ts';
import {
	$conflict,
	$editor,
	$issues,
	$memberChanges,
	$notice,
	$saving,
	$serverIssues,
	loadHistory,
	memberAction,
	resolveConflict,
	restoreValue,
	saveMember,
	setMemberField,
	setWeblinkProfileId,
	uploadLogo,
	type MembersDeps,
} from './store.ts';
import ErrorBanner from '../admin/ErrorBanner.tsx';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export function formatWhen(iso: string): string {
	const time = Date.parse(iso);
	return Number.isNaN(time) ? iso : dateTime.format(time);
}

/** Text fields: their input type and the length the rules allow. */
const TEXT_FIELDS: Partial<
	Record<BusinessField, { type: 'text' | 'url' | 'email' | 'tel'; max: number; hint?: string }>
> = {
	report_name: { type: 'text', max: 200 },
	address1: { type: 'text', max: 200 },
	address2: { type: 'text', max: 200 },
	city: { type: 'text', max: 200 },
	county: { type: 'text', max: 200 },
	state: { type: 'text', max: 200 },
	zip: { type: 'text', max: 200 },
	work_phone: { type: 'tel', max: 200 },
	website: { type: 'url', max: 2000, hint: 'https:// is added on the site when it is missing.' },
	email: {
		type: 'email',
		max: 254,
		hint: 'Visitors’ messages go here; the address is never shown.',
	},
	membership_level_name: { type: 'text', max: 200 },
	main_related_profile_name: { type: 'text', max: 200 },
};

const BOOLEAN_HINTS: Partial<Record<BusinessField, string>> = {
	published: 'Shown on the site, in search, category pages and the sitemap.',
	featured: 'May appear among the home page’s featured businesses.',
	is_member: 'A current member of the chamber.',
};

interface Ctx {
	draft: BusinessValues;
	role: StaffRole;
	/** Removed listings are read-only until restored. */
	locked: boolean;
	issues: readonly FieldIssue[];
	overrides: readonly Override[];
	deps: MembersDeps;
	businessId: string | null;
	saving: boolean;
	tiles: MapTiles;
	/** Who placed the location and the geocoder's request (a listing not added yet: null). */
	locationStatus: LocationStatus | null;
}

function messagesAt(ctx: Ctx, path: string): string[] {
	return ctx.issues
		.filter(
			// The hours' text form reports a day's problem inside the field (hours.mon[1].open), a
			// location its coordinate's (location.latitude).
			(issue) =>
				issue.path === path ||
				((path === 'hours' || path === 'location') && issue.path.startsWith(`${path}.`)),
		)
		.map((issue) => issue.message);
}

function Errors({ id, messages }: { id: string; messages: readonly string[] }) {
	if (messages.length === 0) return null;
	return (
		<p id={id} className="admin-field__error">
			{messages.join(' ')}
		</p>
	);
}

/** A field changed here: the membership system's value and the button that takes it back. */
function OverrideNote({ ctx, field }: { ctx: Ctx; field: BusinessField }) {
	const override = ctx.overrides.find((o) => o.field === field);
	// A pin placed by hand says so in its own words (LocationField).
	if (!override || field === 'location') return null;
	const mayTake = mayChangeField(ctx.role, field) && !ctx.locked;
	const unsaved = field in $memberChanges.get();
	return (
		<div className="members-override" role="note">
			<p>
				<strong>Changed here, differs from the membership system</strong> (
				{describeActor(override.changedBy)}, {formatWhen(override.changedAt)}). Imports and syncs
				leave it as it is.
				{override.systemValue !== null && (
					<> The membership system has: “{describeValue(override.systemValue)}”.</>
				)}
			</p>
			{mayTake && (
				<button
					type="button"
					className="admin-button admin-button--secondary"
					disabled={ctx.saving || unsaved}
					onClick={() => void afterChange(memberAction(ctx.deps, { override: field }))}
				>
					Use the membership system’s value
					<span className="sr-only"> for {FIELD_LABELS[field]}</span>
				</button>
			)}
		</div>
	);
}

async function afterChange(done: Promise<boolean>): Promise<void> {
	if (await done) publishRequested();
}

interface ControlProps {
	id: string;
	disabled: boolean;
	'aria-invalid': boolean;
	'aria-describedby': string | undefined;
}

/** A labelled control with its hint, problems and override note. */
function Frame({
	ctx,
	field,
	label = FIELD_LABELS[field],
	hint,
	wide,
	children,
}: {
	ctx: Ctx;
	field: BusinessField;
	label?: string;
	hint?: ReactNode;
	wide?: boolean;
	/** The control, given the attributes that tie it to its label, hint and problems. */
	children: (control: ControlProps) => ReactNode;
}) {
	const id = useId();
	const messages = messagesAt(ctx, field);
	const described = [hint && `${id}-hint`, messages.length && `${id}-error`]
		.filter(Boolean)
		.join(' ');
	return (
		<div className={`admin-field${wide ? ' members-wide' : ''}`}>
			<label htmlFor={id}>{label}</label>
			{children({
				id,
				disabled: ctx.locked || !mayChangeField(ctx.role, field),
				'aria-invalid': messages.length > 0,
				'aria-describedby': described || undefined,
			})}
			{hint && (
				<p id={`${id}-hint`} className="admin-field__hint">
					{hint}
				</p>
			)}
			<Errors id={`${id}-error`} messages={messages} />
			<OverrideNote ctx={ctx} field={field} />
		</div>
	);
}

function TextInput({ ctx, field }: { ctx: Ctx; field: BusinessField }) {
	const spec = TEXT_FIELDS[field]!;
	return (
		<Frame ctx={ctx} field={field} hint={spec.hint}>
			{(control) => (
				<input
					{...control}
					type={spec.type}
					value={ctx.draft[field] as string}
					maxLength={spec.max}
					required={field === 'report_name'}
					onChange={(e) => setMemberField(field, e.target.value as never)}
				/>
			)}
		</Frame>
	);
}

/**
 * Opening hours in their text form (one line per days, a line that names no day is the note):
 * the draft holds the text as typed, and the schema reads it as it reads an import's column.
 */
function HoursInput({ ctx }: { ctx: Ctx }) {
	const value = ctx.draft.hours as unknown;
	return (
		<Frame
			ctx={ctx}
			field="hours"
			wide
			hint={
				<>
					A line per days and times, e.g. <code>Mon-Fri 9:00-17:00</code>,{' '}
					<code>Sat 10:00-12:00, 13:00-16:00</code>; days not named are closed. A line that names no
					day is a note (<code>By appointment</code>). Empty: no hours on the profile.
				</>
			}
		>
			{(control) => (
				<textarea
					{...control}
					rows={4}
					value={
						typeof value === 'string'
							? value
							: formatHoursText(ctx.draft.hours).replaceAll('; ', '\n')
					}
					onChange={(e) => setMemberField('hours', e.target.value as never)}
				/>
			)}
		</Frame>
	);
}

function Checkbox({ ctx, field }: { ctx: Ctx; field: BusinessField }) {
	const id = useId();
	const hint = BOOLEAN_HINTS[field];
	const disabled = ctx.locked || !mayChangeField(ctx.role, field);
	return (
		<div className="admin-field admin-field--toggle">
			<input
				id={id}
				type="checkbox"
				checked={ctx.draft[field] as boolean}
				disabled={disabled}
				aria-describedby={hint ? `${id}-hint` : undefined}
				onChange={(e) => setMemberField(field, e.target.checked as never)}
			/>
			<label htmlFor={id}>{FIELD_LABELS[field]}</label>
			{hint && (
				<p id={`${id}-hint`} className="admin-field__hint">
					{hint}
				</p>
			)}
			<OverrideNote ctx={ctx} field={field} />
		</div>
	);
}

function ScalarField({ ctx, field }: { ctx: Ctx; field: BusinessField }) {
	if (TEXT_FIELDS[field]) return <TextInput ctx={ctx} field={field} />;
	switch (field) {
		case 'featured':
		case 'is_member':
		case 'published':
			return <Checkbox ctx={ctx} field={field} />;
		case 'hours':
			return <HoursInput ctx={ctx} />;
		case 'membership_rank':
			return (
				<Frame ctx={ctx} field={field} hint="Leave empty: the rank follows the level’s name.">
					{(control) => (
						<input
							{...control}
							type="number"
							step={1}
							value={ctx.draft.membership_rank ?? ''}
							onChange={(e) =>
								setMemberField(
									'membership_rank',
									e.target.value === '' ? null : Number(e.target.value),
								)
							}
						/>
					)}
				</Frame>
			);
		case 'listing_position':
			return (
				<Frame ctx={ctx} field={field} hint="1 is the top of the listing-position sorts.">
					{(control) => (
						<input
							{...control}
							type="number"
							min={1}
							step={1}
							value={Number.isNaN(ctx.draft.listing_position) ? '' : ctx.draft.listing_position}
							onChange={(e) =>
								setMemberField(
									'listing_position',
									e.target.value === '' ? Number.NaN : Number(e.target.value),
								)
							}
						/>
					)}
				</Frame>
			);
		case 'member_since_date':
			return (
				<Frame ctx={ctx} field={field}>
					{(control) => (
						<input
							{...control}
							type="date"
							value={ctx.draft.member_since_date ?? ''}
							onChange={(e) => setMemberField('member_since_date', e.target.value || null)}
						/>
					)}
				</Frame>
			);
		case 'categories':
			return (
				<Frame ctx={ctx} field={field} hint="One category per line." wide>
					{(control) => (
						<textarea
							{...control}
							rows={4}
							value={ctx.draft.categories.join('\n')}
							onChange={(e) => setMemberField('categories', e.target.value.split('\n'))}
						/>
					)}
				</Frame>
			);
		case 'logo_url':
			return <LogoField ctx={ctx} />;
		case 'location':
			return (
				<LocationField
					location={ctx.draft.location}
					status={ctx.locationStatus}
					override={ctx.overrides.find((o) => o.field === 'location')}
					name={ctx.draft.report_name}
					disabled={ctx.locked || !mayChangeField(ctx.role, 'location')}
					busy={ctx.saving || 'location' in $memberChanges.get()}
					messages={messagesAt(ctx, 'location')}
					tiles={ctx.tiles}
					formatWhen={formatWhen}
					onChange={(location) => setMemberField('location', location)}
					onPlaceByAddress={() =>
						void afterChange(memberAction(ctx.deps, { override: 'location' }))
					}
				/>
			);
		default:
			return null;
	}
}

function LogoField({ ctx }: { ctx: Ctx }) {
	const [state, setState] = useState<
		{ kind: 'idle' | 'uploading' } | { kind: 'failed'; error: string }
	>({
		kind: 'idle',
	});
	const fileId = useId();
	const disabled = ctx.locked || !mayChangeField(ctx.role, 'logo_url');
	async function upload(file: File | undefined) {
		if (!file || !ctx.businessId) return;
		setState({ kind: 'uploading' });
		const answer = await uploadLogo(ctx.deps, ctx.businessId, file);
		if (!answer.ok) {
			setState({ kind: 'failed', error: answer.error });
			return;
		}
		setState({ kind: 'idle' });
		setMemberField('logo_url', answer.data.url);
	}
	return (
		<>
			<div className="ops-logo-preview members-wide">
				{ctx.draft.logo_url ? (
					<img
						src={ctx.draft.logo_url}
						alt={`Logo of ${ctx.draft.report_name || 'the business'}`}
					/>
				) : (
					<p>No logo yet</p>
				)}
			</div>
			<div className="admin-field">
				<label htmlFor={fileId}>Upload a logo</label>
				<input
					id={fileId}
					type="file"
					accept="image/png,.png,image/jpeg,.jpg,.jpeg,image/svg+xml,.svg,image/webp,.webp"
					disabled={disabled || !ctx.businessId || state.kind === 'uploading'}
					aria-describedby={`${fileId}-hint`}
					onChange={(e) => void upload(e.target.files?.[0])}
				/>
				<p id={`${fileId}-hint`} className="admin-field__hint">
					{ctx.businessId
						? 'PNG, SVG, JPG or WebP, under 5MB. Save the listing to use it.'
						: 'Add the member first, then upload its logo (or paste the logo’s address below).'}
				</p>
				<div role="status">{state.kind === 'uploading' && <p>Uploading...</p>}</div>
				<div role="alert">
					{state.kind === 'failed' && <p className="admin-field__error">{state.error}</p>}
				</div>
			</div>
			<Frame ctx={ctx} field="logo_url" label="Logo address">
				{(control) => (
					<input
						{...control}
						type="url"
						value={ctx.draft.logo_url}
						maxLength={2000}
						onChange={(e) => setMemberField('logo_url', e.target.value)}
					/>
				)}
			</Frame>
		</>
	);
}

const ADMIN_ROWS: RowListClasses = {
	field: 'admin-field',
	error: 'admin-field__error',
	button: 'admin-button admin-button--secondary',
};

type ListField = 'listings' | 'social_media' | 'profile_affiliations' | 'web_content';

/** One text of a list's items, as RowList edits it. */
interface ItemText extends RowColumn<Record<string, unknown>> {
	/** Shown to admins only (editors change a listing's descriptions, not its keywords). */
	adminOnly?: boolean;
}

/** How each list field is edited: what an item is called, a new item, and its texts. */
const LIST_EDITORS: Readonly<
	Record<
		ListField,
		{
			itemLabel: string;
			empty: string;
			/** Only admins add and remove items (editors change the descriptions' texts). */
			adminsAddAndRemove?: boolean;
			blank: () => Listing | SocialMediaEntry | WebContent | Affiliation;
			texts: readonly ItemText[];
		}
	>
> = {
	listings: {
		itemLabel: 'description',
		empty: 'No description yet.',
		adminsAddAndRemove: true,
		blank: () => ({
			description: '',
			short_description: '',
			categories: [],
			keywords: '',
			active: true,
			primary_listing: false,
		}),
		texts: [
			{ key: 'description', label: (n) => `Description ${n} (HTML)`, multiline: true },
			{ key: 'short_description', label: (n) => `Short description ${n}` },
			{ key: 'keywords', label: (n) => `Search keywords ${n}`, adminOnly: true },
			{
				key: 'categories',
				label: (n) => `Listing categories ${n} (comma-separated)`,
				commaList: true,
				adminOnly: true,
			},
		],
	},
	social_media: {
		itemLabel: 'link',
		empty: 'No social links.',
		blank: () => ({ platform: 'Facebook', url: '' }),
		texts: [
			{ key: 'platform', label: (n) => `Network ${n}` },
			{ key: 'url', label: (n) => `Link ${n}`, type: 'url' },
		],
	},
	web_content: {
		itemLabel: 'web content item',
		empty: 'No web content.',
		blank: () => ({ content_type: 'Link', content_title: '', full_url: '', rel_url: '' }),
		texts: [
			{ key: 'content_type', label: (n) => `Type ${n}` },
			{ key: 'content_title', label: (n) => `Title ${n}` },
			{ key: 'full_url', label: (n) => `Address ${n}`, type: 'url' },
		],
	},
	profile_affiliations: {
		itemLabel: 'affiliation',
		empty: 'No affiliations.',
		blank: () => ({
			icon: '',
			icon_text: '',
			icon_url: '',
			aff_code: '',
			aff_name: '',
			list_available_on_website: true,
		}),
		texts: [
			{ key: 'aff_name', label: (n) => `Group ${n}` },
			{ key: 'icon_text', label: (n) => `Badge text ${n}` },
			{ key: 'icon', label: (n) => `Badge image ${n}`, type: 'url' },
			{ key: 'icon_url', label: (n) => `Badge link ${n}`, type: 'url' },
		],
	},
};

/** A list field: its items, each removable, and Add; its problems and override note. */
function ListField({ ctx, field, heading }: { ctx: Ctx; field: ListField; heading: boolean }) {
	const spec = LIST_EDITORS[field];
	const admin = mayManageMembers(ctx.role);
	const items = ctx.draft[field] as unknown as Record<string, unknown>[];
	const disabled = ctx.locked || !mayChangeField(ctx.role, field);
	return (
		<div className="members-wide members-list-field">
			{heading && <h4>{FIELD_LABELS[field]}</h4>}
			{items.length === 0 && <p className="admin-field__hint">{spec.empty}</p>}
			<RowList
				items={items}
				columns={spec.texts.filter((text) => admin || !text.adminOnly)}
				blank={spec.blank as () => Record<string, unknown>}
				onChange={(list) => setMemberField(field, list as never)}
				add={`Add ${spec.itemLabel}`}
				remove={(n) => `Remove ${spec.itemLabel} ${n}`}
				classes={ADMIN_ROWS}
				disabled={disabled}
				resizable={!disabled && (admin || !spec.adminsAddAndRemove)}
				problems={(index, key) => messagesAt(ctx, `${field}[${index}].${key}`)}
			/>
			<Errors id={`${field}-error`} messages={messagesAt(ctx, field)} />
			<OverrideNote ctx={ctx} field={field} />
		</div>
	);
}

/** Fields someone else saved meanwhile: the shared dialog, one decision per field. */
function MemberConflicts({ deps }: { deps: MembersDeps }) {
	const conflict = useStore($conflict);
	const decide = (field: string, choice: 'mine' | 'theirs') =>
		void resolveConflict(deps, field, choice).then((outcome) => {
			if (outcome === 'saved') publishRequested();
		});
	return (
		<ConflictDialog
			conflicts={(conflict?.conflicts ?? []).map((c) => ({
				...c,
				label: FIELD_LABELS[c.field],
				changedBy: describeActor(c.changedBy),
			}))}
			onKeepMine={(field) => decide(field, 'mine')}
			onTakeTheirs={(field) => decide(field, 'theirs')}
			formatTime={formatWhen}
			formatValue={describeValue}
		/>
	);
}

function RemoveDialog({
	name,
	open,
	onClose,
	onConfirm,
}: {
	name: string;
	open: boolean;
	onClose(): void;
	onConfirm(): void;
}) {
	const id = useId();
	return (
		<Dialog open={open} labelledBy={id} onClose={onClose}>
			<h3 id={id}>Remove {name}?</h3>
			<p>
				The listing leaves the site, search, its category pages and the sitemap at the next publish,
				and its old address says it is no longer listed. You can restore it for 30 days.
			</p>
			<p>
				To keep a member that the membership system still lists off the site, unpublish it instead.
			</p>
			<DialogActions onCancel={onClose}>
				<button type="button" className="admin-button members-danger" onClick={onConfirm}>
					Remove listing
				</button>
			</DialogActions>
		</Dialog>
	);
}

function describeHistory(entry: HistoryEntry): string {
	if (entry.field === 'added') return 'Added the listing';
	if (entry.field === 'removed') {
		return entry.newValue === true ? 'Removed the listing' : 'Restored the listing';
	}
	return `${FIELD_LABELS[entry.field]}: “${describeValue(entry.oldValue)}” → “${describeValue(entry.newValue)}”`;
}

/** The listing's changes, newest first, each field change with Restore (admins). */
function History({ ctx, id, version }: { ctx: Ctx; id: string; version: number }) {
	const [state, setState] = useState<
		| { kind: 'loading' }
		| { kind: 'failed'; error: string }
		| { kind: 'ready'; history: HistoryEntry[] }
	>({ kind: 'loading' });
	const headingId = useId();
	useEffect(() => {
		let live = true;
		void loadHistory(ctx.deps, id).then((answer) => {
			if (!live) return;
			setState(
				answer.ok
					? { kind: 'ready', history: answer.data.history }
					: { kind: 'failed', error: answer.error },
			);
		});
		return () => {
			live = false;
		};
		// Read again after each change of the listing (its version).
	}, [ctx.deps, id, version]);
	return (
		<section className="admin-section" aria-labelledby={headingId}>
			<h3 id={headingId}>History</h3>
			{state.kind === 'loading' && <p role="status">Loading the history...</p>}
			{state.kind === 'failed' && <p role="alert">{state.error}</p>}
			{state.kind === 'ready' && state.history.length === 0 && <p>No changes yet.</p>}
			{state.kind === 'ready' && state.history.length > 0 && (
				<ol className="members-history">
					{state.history.map((entry) => {
						const restorable =
							entry.field !== 'added' &&
							entry.field !== 'removed' &&
							!ctx.locked &&
							mayChangeField(ctx.role, entry.field);
						return (
							<li key={entry.id}>
								<span>
									{formatWhen(entry.at)} · {describeActor(entry.actor)}
								</span>
								<span>{describeHistory(entry)}</span>
								{restorable && (
									<button
										type="button"
										className="admin-button admin-button--secondary"
										disabled={ctx.saving}
										onClick={() =>
											void afterChange(
												restoreValue(ctx.deps, entry.field as BusinessField, entry.oldValue),
											)
										}
									>
										Restore
										<span className="sr-only">
											{' '}
											the earlier {FIELD_LABELS[entry.field as BusinessField]}
										</span>
									</button>
								)}
							</li>
						);
					})}
				</ol>
			)}
		</section>
	);
}

interface Props {
	deps: MembersDeps;
	role: StaffRole;
	/** Back to the list (the caller asks first when there are unsaved changes). */
	onClose(): void;
	/** The map tiles of the pin's map. */
	tiles: MapTiles;
}

/**
 * One listing, grouped as a membership coordinator thinks of it: every field of the tenant
 * file's business, problems at the field, what was changed here against the membership system,
 * Save, Remove / Restore and the history (admins). Editors change descriptions, web content,
 * social links and the logo; the other fields show, disabled.
 */
export default function MemberEditor({ deps, role, onClose, tiles }: Props) {
	const editor = useStore($editor);
	const changes = useStore($memberChanges);
	const clientIssues = useStore($issues);
	const serverIssues = useStore($serverIssues);
	const notice = useStore($notice);
	const saving = useStore($saving);
	const [removing, setRemoving] = useState(false);
	const headingId = useId();
	const weblinkId = useId();
	const dirty = Object.keys(changes).length > 0;

	useEffect(() => {
		if (!dirty) return;
		const ask = (event: BeforeUnloadEvent) => {
			event.preventDefault();
		};
		window.addEventListener('beforeunload', ask);
		return () => window.removeEventListener('beforeunload', ask);
	}, [dirty]);

	if (editor.kind === 'closed') return null;
	if (editor.kind === 'loading') {
		return (
			<p className="admin-status" role="status">
				Loading the listing...
			</p>
		);
	}
	if (editor.kind === 'failed') {
		return (
			<div>
				<ErrorBanner error={editor.error} />
				<button type="button" className="admin-button admin-button--secondary" onClick={onClose}>
					Back to members
				</button>
			</div>
		);
	}

	const detail = editor.kind === 'open' ? editor.detail : null;
	const removed = detail?.status === 'removed';
	const admin = mayManageMembers(role);
	const ctx: Ctx = {
		draft: editor.draft,
		role,
		locked: removed,
		issues: [...clientIssues, ...serverIssues],
		overrides: detail?.overrides ?? [],
		deps,
		businessId: detail?.business.id ?? null,
		saving,
		tiles,
		locationStatus: detail?.location ?? null,
	};
	const title = detail ? detail.business.report_name : 'New member';
	const save = () =>
		void saveMember(deps).then((outcome) => {
			if (outcome === 'saved') publishRequested();
		});

	return (
		<form
			className="members-editor"
			aria-labelledby={headingId}
			noValidate
			onSubmit={(event) => {
				event.preventDefault();
				save();
			}}
		>
			<div className="members-editor__bar">
				<button type="button" className="admin-button admin-button--secondary" onClick={onClose}>
					Back to members
				</button>
				<h3 id={headingId}>{title}</h3>
				{detail && (
					<span className={`members-status members-status--${detail.status}`}>
						{STATUS_LABELS[detail.status]}
					</span>
				)}
			</div>
			{detail && (
				<p className="admin-field__hint">
					{detail.business.weblink_profile_id
						? `Membership system id ${detail.business.weblink_profile_id}.`
						: 'Added here: not in the membership system.'}{' '}
					Last changed by {describeActor(detail.updatedBy)} on {formatWhen(detail.updatedAt)}.
				</p>
			)}
			{removed && detail?.removedAt && (
				<p className="admin-banner admin-banner--info">
					Removed on {date.format(Date.parse(detail.removedAt))}. It can be restored until{' '}
					{date.format(restorableUntil(detail.removedAt))}; after that it is deleted.
				</p>
			)}
			{role === 'editor' && (
				<p className="admin-banner admin-banner--info">
					As an editor you change a listing’s descriptions, web content, social links and logo. Ask
					an admin for anything else.
				</p>
			)}
			<div aria-live="polite">
				{notice && (
					<p
						className={`admin-banner admin-banner--${notice.kind}`}
						role={notice.kind === 'error' ? 'alert' : 'status'}
					>
						{notice.text}
					</p>
				)}
			</div>

			{editor.kind === 'new' && (
				<section className="admin-section">
					<h3>Membership system</h3>
					<div className="admin-grid">
						<div className="admin-field">
							<label htmlFor={weblinkId}>Membership system id (optional)</label>
							<input
								id={weblinkId}
								inputMode="numeric"
								value={editor.weblinkProfileId}
								aria-describedby={`${weblinkId}-hint`}
								onChange={(e) => setWeblinkProfileId(e.target.value)}
							/>
							<p id={`${weblinkId}-hint`} className="admin-field__hint">
								The member’s profile id in the membership system, if it has one: its imports and
								syncs then update this listing. Without one the listing is the chamber’s own.
							</p>
						</div>
					</div>
				</section>
			)}

			{FIELD_GROUPS.map((group) => (
				<section key={group.title} className="admin-section">
					<h3>{group.title}</h3>
					<div className="admin-grid">
						{group.fields.map((field) =>
							field === 'listings' ||
							field === 'social_media' ||
							field === 'web_content' ||
							field === 'profile_affiliations' ? (
								<ListField key={field} ctx={ctx} field={field} heading={group.fields.length > 1} />
							) : (
								<ScalarField key={field} ctx={ctx} field={field} />
							),
						)}
					</div>
				</section>
			))}

			<div className="members-editor__actions">
				{!removed && (
					<button
						type="submit"
						className="admin-button admin-button--save"
						disabled={saving || (!dirty && editor.kind === 'open')}
					>
						{saving ? 'Saving...' : editor.kind === 'new' ? 'Add Member' : 'Save Listing'}
					</button>
				)}
				{detail && admin && !removed && (
					<button
						type="button"
						className="admin-button admin-button--secondary members-danger"
						disabled={saving}
						onClick={() => setRemoving(true)}
					>
						Remove listing
					</button>
				)}
				{detail && admin && removed && (
					<button
						type="button"
						className="admin-button"
						disabled={saving}
						onClick={() => void afterChange(memberAction(deps, 'restore'))}
					>
						Restore listing
					</button>
				)}
				{detail?.status === 'published' && (
					<a href={`/business/${detail.business.id}`} target="_blank" rel="noreferrer">
						View on the site
					</a>
				)}
			</div>

			{detail && admin && <History ctx={ctx} id={detail.business.id} version={detail.version} />}

			<MemberConflicts deps={deps} />
			{detail && (
				<RemoveDialog
					name={detail.business.report_name}
					open={removing}
					onClose={() => setRemoving(false)}
					onConfirm={() => {
						setRemoving(false);
						void afterChange(memberAction(deps, 'remove'));
					}}
				/>
			)}
		</form>
	);
}
