import { useStore } from '@nanostores/react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import ErrorBanner from '../admin/ErrorBanner.tsx';
import Dialog from '../ui/Dialog.tsx';
import DialogActions from '../ui/DialogActions.tsx';
import ConflictDialog from '../conflicts/ConflictDialog.tsx';
import { TIME_ZONES } from '../config/config.ts';
import { eventPath } from '../events/paths.ts';
import {
	actorLabel,
	CALENDAR_LABELS,
	CALENDARS,
	DATE_FIELDS,
	FIELD_LABELS,
	mayChangeEventField,
	mayManageEvents,
	SOURCE_LABELS,
	STATUS_LABELS,
	type DateField,
	type EventDate,
	type EventField,
	type EventValues,
	type FieldIssue,
	type HistoryEntry,
	type StaffRole,
	type Ticket,
} from './chamber-events.ts';
import {
	defaultRepeat,
	describeRule,
	FREQUENCIES,
	repeatOf,
	ruleOf,
	WEEKDAY_NAMES,
	WEEKDAYS,
	weekdayOf,
	weekdayPlace,
	type Repeat,
} from './rule.ts';
import {
	$conflict,
	$editor,
	$eventChanges,
	$issues,
	$notice,
	$saving,
	$serverIssues,
	editEvent,
	eventAction,
	loadHistory,
	resolveConflict,
	saveEvent,
	setEventField,
	type EventsDeps,
} from './store.ts';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatWhen(iso: string): string {
	const time = Date.parse(iso);
	return Number.isNaN(time) ? iso : dateTime.format(time);
}

/** 'Tue, Mar 2, 2027 6:00 PM' of a local 'yyyy-mm-ddThh:mm' (read as it is, no zone). */
export function localLabel(local: string): string {
	return new Intl.DateTimeFormat('en-US', {
		timeZone: 'UTC',
		weekday: 'short',
		month: 'short',
		day: 'numeric',
		year: 'numeric',
		hour: 'numeric',
		minute: '2-digit',
	}).format(new Date(`${local}:00Z`));
}

interface Ctx {
	draft: EventValues;
	role: StaffRole;
	issues: FieldIssue[];
	overrides: { field: EventField; feedValue: unknown }[];
	deps: EventsDeps;
	saving: boolean;
}

function Frame({
	ctx,
	field,
	label = FIELD_LABELS[field],
	hint,
	children,
}: {
	ctx: Ctx;
	field: EventField;
	label?: string;
	hint?: ReactNode;
	children: (control: {
		id: string;
		disabled: boolean;
		'aria-invalid': boolean;
		'aria-describedby': string | undefined;
	}) => ReactNode;
}) {
	const id = useId();
	const messages = ctx.issues.filter((i) => i.field === field).map((i) => i.message);
	const described = [hint && `${id}-hint`, messages.length && `${id}-error`]
		.filter(Boolean)
		.join(' ');
	const override = ctx.overrides.find((o) => o.field === field);
	return (
		<div className="admin-field">
			<label htmlFor={id}>{label}</label>
			{children({
				id,
				disabled: !mayChangeEventField(ctx.role, field),
				'aria-invalid': messages.length > 0,
				'aria-describedby': described || undefined,
			})}
			{hint && (
				<p id={`${id}-hint`} className="admin-field__hint">
					{hint}
				</p>
			)}
			{messages.length > 0 && (
				<p id={`${id}-error`} className="admin-field__error">
					{messages.join(' ')}
				</p>
			)}
			{override && (
				<div className="members-override" role="note">
					<p>
						<strong>Changed here, differs from the calendar feed.</strong> The feed’s reads leave it
						as it is. The feed has: “{describeValue(override.feedValue)}”.
					</p>
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={ctx.saving || field in $eventChanges.get()}
						onClick={() => void eventAction(ctx.deps, { override: field })}
					>
						Use the feed’s value<span className="sr-only"> for {FIELD_LABELS[field]}</span>
					</button>
				</div>
			)}
		</div>
	);
}

function describeValue(value: unknown): string {
	if (value === null || value === undefined || value === '') return '(empty)';
	return typeof value === 'string' ? value : JSON.stringify(value);
}

function Text({
	ctx,
	field,
	max,
	type = 'text',
	hint,
}: {
	ctx: Ctx;
	field:
		| 'name'
		| 'summary'
		| 'venue'
		| 'address1'
		| 'address2'
		| 'city'
		| 'state'
		| 'zip'
		| 'event_type'
		| 'image_url'
		| 'registration_url'
		| 'contact_email';
	max: number;
	type?: 'text' | 'url' | 'email';
	hint?: ReactNode;
}) {
	return (
		<Frame ctx={ctx} field={field} hint={hint}>
			{(control) => (
				<input
					{...control}
					type={type}
					maxLength={max}
					value={ctx.draft[field]}
					onChange={(e) => setEventField(field, e.target.value)}
				/>
			)}
		</Frame>
	);
}

function Check({
	ctx,
	field,
	hint,
}: {
	ctx: Ctx;
	field: 'featured' | 'show_attendees';
	hint?: ReactNode;
}) {
	const id = useId();
	return (
		<div className="admin-field admin-field--toggle">
			<input
				id={id}
				type="checkbox"
				checked={ctx.draft[field]}
				disabled={!mayChangeEventField(ctx.role, field)}
				aria-describedby={hint ? `${id}-hint` : undefined}
				onChange={(e) => setEventField(field, e.target.checked)}
			/>
			<label htmlFor={id}>{FIELD_LABELS[field]}</label>
			{hint && (
				<p id={`${id}-hint`} className="admin-field__hint">
					{hint}
				</p>
			)}
		</div>
	);
}

function Select<F extends 'calendar' | 'status' | 'time_zone'>({
	ctx,
	field,
	options,
}: {
	ctx: Ctx;
	field: F;
	options: readonly { value: string; label: string }[];
}) {
	return (
		<Frame ctx={ctx} field={field}>
			{(control) => (
				<select
					{...control}
					value={ctx.draft[field]}
					onChange={(e) => setEventField(field, e.target.value as EventValues[F])}
				>
					{options.map((o) => (
						<option key={o.value} value={o.value}>
							{o.label}
						</option>
					))}
				</select>
			)}
		</Frame>
	);
}

/** Start and end: date and time, or days for an all-day event (00:00 to 23:59). */
function When({ ctx }: { ctx: Ctx }) {
	const { draft } = ctx;
	const allDayId = useId();
	const zones = (TIME_ZONES as readonly string[]).includes(draft.time_zone)
		? TIME_ZONES
		: [draft.time_zone, ...TIME_ZONES];
	return (
		<>
			<div className="admin-field admin-field--toggle">
				<input
					id={allDayId}
					type="checkbox"
					checked={draft.all_day}
					onChange={(e) =>
						editEvent((d) => {
							d.all_day = e.target.checked;
							const first = d.starts_local.slice(0, 10);
							const last = d.ends_local.slice(0, 10);
							d.starts_local = `${first}T${e.target.checked ? '00:00' : '18:00'}`;
							d.ends_local = `${last}T${e.target.checked ? '23:59' : '20:00'}`;
						})
					}
				/>
				<label htmlFor={allDayId}>All day</label>
			</div>
			{(['starts_local', 'ends_local'] as const).map((field) => (
				<Frame
					key={field}
					ctx={ctx}
					field={field}
					label={
						draft.all_day
							? field === 'starts_local'
								? 'First day'
								: 'Last day'
							: FIELD_LABELS[field]
					}
				>
					{(control) =>
						draft.all_day ? (
							<input
								{...control}
								type="date"
								value={draft[field].slice(0, 10)}
								onChange={(e) =>
									setEventField(
										field,
										`${e.target.value}T${field === 'starts_local' ? '00:00' : '23:59'}`,
									)
								}
							/>
						) : (
							<input
								{...control}
								type="datetime-local"
								value={draft[field]}
								onChange={(e) => setEventField(field, e.target.value.slice(0, 16))}
							/>
						)
					}
				</Frame>
			))}
			<Select ctx={ctx} field="time_zone" options={zones.map((z) => ({ value: z, label: z }))} />
			<RepeatFields ctx={ctx} />
		</>
	);
}

const FREQUENCY_LABELS: Record<(typeof FREQUENCIES)[number], string> = {
	DAILY: 'Daily',
	WEEKLY: 'Weekly',
	MONTHLY: 'Monthly',
	YEARLY: 'Yearly',
};

/** Repeats: none, or a rule the editor offers (a feed's other rule is shown and kept). */
function RepeatFields({ ctx }: { ctx: Ctx }) {
	const { draft } = ctx;
	const startDay = draft.starts_local.slice(0, 10);
	const repeat = repeatOf(draft.rrule, startDay);
	const ids = useId();
	const messages = ctx.issues.filter((i) => i.field === 'rrule').map((i) => i.message);
	const set = (next: Repeat | null) => setEventField('rrule', next ? ruleOf(next, startDay) : null);
	const current = repeat ?? defaultRepeat(startDay);
	return (
		<fieldset className="admin-fieldset events-repeat">
			<legend>Repeats</legend>
			<div className="admin-field">
				<label htmlFor={`${ids}-freq`}>How often</label>
				<select
					id={`${ids}-freq`}
					value={draft.rrule ? (repeat?.freq ?? 'custom') : ''}
					aria-describedby={`${ids}-rule`}
					onChange={(e) =>
						set(e.target.value ? { ...current, freq: e.target.value as Repeat['freq'] } : null)
					}
				>
					<option value="">Does not repeat</option>
					{FREQUENCIES.map((f) => (
						<option key={f} value={f}>
							{FREQUENCY_LABELS[f]}
						</option>
					))}
					{draft.rrule && !repeat && <option value="custom">The feed’s own rule</option>}
				</select>
				<p id={`${ids}-rule`} className="admin-field__hint">
					{describeRule(draft.rrule, startDay)}
				</p>
				{messages.length > 0 && <p className="admin-field__error">{messages.join(' ')}</p>}
			</div>
			{repeat && (
				<>
					<div className="admin-field">
						<label htmlFor={`${ids}-interval`}>Every</label>
						<input
							id={`${ids}-interval`}
							type="number"
							min={1}
							max={99}
							value={repeat.interval}
							onChange={(e) =>
								set({ ...repeat, interval: Math.max(1, Number(e.target.value) || 1) })
							}
						/>
					</div>
					{repeat.freq === 'WEEKLY' && (
						<fieldset className="admin-fieldset">
							<legend>On</legend>
							<div className="admin-checks">
								{WEEKDAYS.map((day) => (
									<div className="admin-field admin-field--toggle" key={day}>
										<input
											id={`${ids}-${day}`}
											type="checkbox"
											checked={repeat.byDay.includes(day)}
											onChange={(e) =>
												set({
													...repeat,
													byDay: e.target.checked
														? [...repeat.byDay, day]
														: repeat.byDay.filter((d) => d !== day),
												})
											}
										/>
										<label htmlFor={`${ids}-${day}`}>{WEEKDAY_NAMES[day]}</label>
									</div>
								))}
							</div>
						</fieldset>
					)}
					{repeat.freq === 'MONTHLY' && (
						<div className="admin-field">
							<label htmlFor={`${ids}-monthly`}>On</label>
							<select
								id={`${ids}-monthly`}
								value={repeat.monthly}
								onChange={(e) => set({ ...repeat, monthly: e.target.value as Repeat['monthly'] })}
							>
								<option value="day">Day {Number(startDay.slice(8, 10))} of the month</option>
								<option value="weekday">
									The{' '}
									{
										['last', 'first', 'second', 'third', 'fourth'][
											Math.max(0, weekdayPlace(startDay))
										]
									}{' '}
									{WEEKDAY_NAMES[weekdayOf(startDay)]}
								</option>
							</select>
						</div>
					)}
					<div className="admin-field">
						<label htmlFor={`${ids}-ends`}>Ends</label>
						<select
							id={`${ids}-ends`}
							value={repeat.until ? 'until' : 'count'}
							onChange={(e) =>
								set(
									e.target.value === 'until'
										? { ...repeat, until: startDay, count: null }
										: { ...repeat, until: null, count: 10 },
								)
							}
						>
							<option value="count">After a number of times</option>
							<option value="until">On a date</option>
						</select>
					</div>
					{repeat.until ? (
						<div className="admin-field">
							<label htmlFor={`${ids}-until`}>Last date</label>
							<input
								id={`${ids}-until`}
								type="date"
								value={repeat.until}
								onChange={(e) => e.target.value && set({ ...repeat, until: e.target.value })}
							/>
						</div>
					) : (
						<div className="admin-field">
							<label htmlFor={`${ids}-count`}>Times</label>
							<input
								id={`${ids}-count`}
								type="number"
								min={1}
								max={500}
								value={repeat.count ?? 1}
								onChange={(e) =>
									set({ ...repeat, count: Math.max(1, Number(e.target.value) || 1) })
								}
							/>
						</div>
					)}
				</>
			)}
		</fieldset>
	);
}

function Tickets({ ctx }: { ctx: Ctx }) {
	const { draft } = ctx;
	const ids = useId();
	const messages = ctx.issues.filter((i) => i.field === 'tickets');
	const change = (index: number, patch: Partial<Ticket>) =>
		editEvent((d) => {
			d.tickets[index] = { ...d.tickets[index]!, ...patch };
		});
	return (
		<fieldset className="admin-fieldset events-tickets">
			<legend>Tickets</legend>
			{draft.tickets.length === 0 && (
				<p className="admin-field__hint">No tickets: no prices are shown.</p>
			)}
			{draft.tickets.map((ticket, index) => (
				<div className="events-ticket" key={index}>
					<div className="admin-field">
						<label htmlFor={`${ids}-${index}-name`}>Ticket {index + 1} name</label>
						<input
							id={`${ids}-${index}-name`}
							value={ticket.ItemName}
							maxLength={200}
							onChange={(e) => change(index, { ItemName: e.target.value })}
						/>
					</div>
					<div className="admin-field">
						<label htmlFor={`${ids}-${index}-price`}>Price in dollars (0 is free)</label>
						<input
							id={`${ids}-${index}-price`}
							type="number"
							min={0}
							step="0.01"
							value={ticket.UnitPrice}
							onChange={(e) => change(index, { UnitPrice: Number(e.target.value) })}
						/>
					</div>
					<div className="admin-field admin-field--toggle">
						<input
							id={`${ids}-${index}-public`}
							type="checkbox"
							checked={ticket.IsPublic}
							onChange={(e) => change(index, { IsPublic: e.target.checked })}
						/>
						<label htmlFor={`${ids}-${index}-public`}>Shown on the site</label>
					</div>
					<button
						type="button"
						className="admin-button admin-button--secondary"
						onClick={() => editEvent((d) => void d.tickets.splice(index, 1))}
					>
						Remove ticket {index + 1}
					</button>
				</div>
			))}
			{messages.map((m) => (
				<p key={m.path} className="admin-field__error">
					{m.path}: {m.message}
				</p>
			))}
			<button
				type="button"
				className="admin-button admin-button--secondary"
				disabled={draft.tickets.length >= 50}
				onClick={() =>
					editEvent((d) => {
						d.tickets.push({
							ItemName: '',
							UnitPrice: 0,
							IsPublic: true,
							Descr: '',
							MaxQuantity: null,
						});
					})
				}
			>
				Add ticket
			</button>
		</fieldset>
	);
}

function Registration({ ctx }: { ctx: Ctx }) {
	const { draft } = ctx;
	const id = useId();
	return (
		<>
			<div className="admin-field admin-field--toggle">
				<input
					id={id}
					type="checkbox"
					checked={!draft.registration_disabled}
					onChange={(e) => setEventField('registration_disabled', !e.target.checked)}
				/>
				<label htmlFor={id}>Registration</label>
			</div>
			{!draft.registration_disabled && (
				<>
					<Text
						ctx={ctx}
						field="registration_url"
						max={2000}
						type="url"
						hint="Where 'Register Now' goes; left empty, the membership system's registration page."
					/>
					{(['registration_opens', 'registration_closes'] as const).map((field) => (
						<Frame
							key={field}
							ctx={ctx}
							field={field}
							hint={field === 'registration_closes' ? 'Empty: open until the event.' : undefined}
						>
							{(control) => (
								<input
									{...control}
									type="date"
									value={draft[field] ?? ''}
									onChange={(e) => setEventField(field, e.target.value || null)}
								/>
							)}
						</Frame>
					))}
				</>
			)}
			<Tickets ctx={ctx} />
		</>
	);
}

/** A date of a series changed on its own: its name, place and times. */
function DateDialog({
	date,
	draft,
	onClose,
	onSave,
}: {
	date: EventDate;
	draft: EventValues;
	onClose(): void;
	onSave(changes: Partial<Record<DateField, string>>): void;
}) {
	const ids = useId();
	// Mounted per date (keyed by it): its own changes are where the form starts.
	const [changes, setChanges] = useState<Partial<Record<DateField, string>>>(() => date.changes);
	const value = (field: DateField) =>
		changes[field] ??
		(field === 'starts_local'
			? date.start
			: field === 'ends_local'
				? date.end
				: String(draft[field]));
	const set = (field: DateField, v: string) => setChanges((c) => ({ ...c, [field]: v }));
	return (
		<Dialog open labelledBy={`${ids}-title`} onClose={onClose}>
			<h2 id={`${ids}-title`}>Change the date of {localLabel(date.start)}</h2>
			<p>Only this date changes; the series keeps its other dates as they are.</p>
			<div className="admin-grid">
				{DATE_FIELDS.filter((f) => f !== 'description').map((field) => (
					<div className="admin-field" key={field}>
						<label htmlFor={`${ids}-${field}`}>{FIELD_LABELS[field]}</label>
						<input
							id={`${ids}-${field}`}
							type={field === 'starts_local' || field === 'ends_local' ? 'datetime-local' : 'text'}
							value={value(field)}
							onChange={(e) =>
								set(field, field.endsWith('_local') ? e.target.value.slice(0, 16) : e.target.value)
							}
						/>
					</div>
				))}
			</div>
			<DialogActions onCancel={onClose}>
				<button
					type="button"
					className="admin-button"
					onClick={() => {
						// Only what differs from the series is the date's own.
						const own = Object.fromEntries(
							Object.entries(changes).filter(([field, v]) =>
								field === 'starts_local'
									? v !== date.start || 'starts_local' in date.changes
									: field === 'ends_local'
										? v !== date.end || 'ends_local' in date.changes
										: v !== String(draft[field as DateField]),
							),
						);
						onSave(own);
					}}
				>
					Save this date
				</button>
			</DialogActions>
		</Dialog>
	);
}

function Dates({ ctx, dates }: { ctx: Ctx; dates: EventDate[] }) {
	const [open, setOpen] = useState<EventDate | null>(null);
	const headingId = useId();
	if (dates.length < 2 && !ctx.draft.rrule) return null;
	return (
		<section className="admin-section" aria-labelledby={headingId}>
			<h3 id={headingId}>Dates</h3>
			<p className="admin-field__hint">
				Change or cancel one date without touching the others. Save the event first when you changed
				its times or how it repeats.
			</p>
			<ul className="events-dates">
				{dates.map((date) => (
					<li key={date.key}>
						<span>
							<a
								href={eventPath({
									EventId: date.eventId,
									EventName: date.changes.name ?? ctx.draft.name,
								})}
								target="_blank"
								rel="noreferrer"
							>
								{localLabel(date.start)}
							</a>
							{date.cancelled && <strong> — cancelled</strong>}
							{Object.keys(date.changes).length > 0 && <em> — changed on its own</em>}
						</span>
						<button
							type="button"
							className="admin-button admin-button--secondary"
							disabled={ctx.saving}
							onClick={() => setOpen(date)}
						>
							Change this date<span className="sr-only"> ({localLabel(date.start)})</span>
						</button>
						<button
							type="button"
							className="admin-button admin-button--secondary"
							disabled={ctx.saving}
							onClick={() =>
								void eventAction(ctx.deps, {
									date: date.key,
									changes: date.changes,
									cancelled: !date.cancelled,
								})
							}
						>
							{date.cancelled ? 'Reinstate this date' : 'Cancel this date'}
							<span className="sr-only"> ({localLabel(date.start)})</span>
						</button>
					</li>
				))}
			</ul>
			{open && (
				<DateDialog
					key={open.key}
					date={open}
					draft={ctx.draft}
					onClose={() => setOpen(null)}
					onSave={(changes) => {
						const date = open;
						setOpen(null);
						void eventAction(ctx.deps, { date: date.key, changes, cancelled: date.cancelled });
					}}
				/>
			)}
		</section>
	);
}

function describeHistory(entry: HistoryEntry): string {
	const label = FIELD_LABELS[entry.field as EventField];
	if (entry.field === 'added') return 'Added';
	if (entry.field === 'deleted') return 'Deleted';
	if (entry.field.startsWith('occurrence:'))
		return `Date ${entry.field.slice(11)} changed on its own`;
	return `${label ?? entry.field}: ${describeValue(entry.oldValue)} → ${describeValue(entry.newValue)}`;
}

function History({ deps, id, version }: { deps: EventsDeps; id: string; version: number }) {
	const [state, setState] = useState<
		| { kind: 'loading' }
		| { kind: 'failed'; error: string }
		| { kind: 'ready'; history: HistoryEntry[] }
	>({ kind: 'loading' });
	const headingId = useId();
	useEffect(() => {
		let live = true;
		void loadHistory(deps, id).then((answer) => {
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
	}, [deps, id, version]);
	return (
		<section className="admin-section" aria-labelledby={headingId}>
			<h3 id={headingId}>History</h3>
			{state.kind === 'loading' && <p role="status">Loading the history...</p>}
			{state.kind === 'failed' && <p role="alert">{state.error}</p>}
			{state.kind === 'ready' && (
				<ul className="events-history">
					{state.history.map((entry) => (
						<li key={entry.id}>
							<small>
								{formatWhen(entry.at)} · {actorLabel(entry.actor)}
							</small>{' '}
							<span>{describeHistory(entry)}</span>
						</li>
					))}
				</ul>
			)}
		</section>
	);
}

function DeleteDialog({
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
			<h2 id={id}>Delete {name}?</h2>
			<p>
				It leaves the calendars and its page at once, every date of it. To keep it listed with a
				note that it will not happen, cancel it instead.
			</p>
			<DialogActions onCancel={onClose}>
				<button type="button" className="admin-button members-danger" onClick={onConfirm}>
					Delete event
				</button>
			</DialogActions>
		</Dialog>
	);
}

interface Props {
	deps: EventsDeps;
	role: StaffRole;
	onClose(): void;
}

/**
 * One event of the chamber's own: every field its pages show, grouped as staff think of an
 * event; its dates (a series' changed or cancelled one by one); Duplicate, Cancel, Delete
 * (admins) and its history (admins). Saved with the version it was opened at.
 */
export default function EventEditor({ deps, role, onClose }: Props) {
	const editor = useStore($editor);
	const changes = useStore($eventChanges);
	const clientIssues = useStore($issues);
	const serverIssues = useStore($serverIssues);
	const notice = useStore($notice);
	const saving = useStore($saving);
	const conflict = useStore($conflict);
	const [deleting, setDeleting] = useState(false);
	const headingId = useId();
	const dirty = Object.keys(changes).length > 0;

	useEffect(() => {
		if (!dirty) return;
		const ask = (event: BeforeUnloadEvent) => event.preventDefault();
		window.addEventListener('beforeunload', ask);
		return () => window.removeEventListener('beforeunload', ask);
	}, [dirty]);

	if (editor.kind === 'closed') return null;
	if (editor.kind === 'loading') {
		return (
			<p className="admin-status" role="status">
				Loading the event...
			</p>
		);
	}
	if (editor.kind === 'failed') {
		return (
			<div>
				<ErrorBanner error={editor.error} />
				<button type="button" className="admin-button admin-button--secondary" onClick={onClose}>
					Back to events
				</button>
			</div>
		);
	}

	const detail = editor.kind === 'open' ? editor.detail : null;
	const admin = mayManageEvents(role);
	const ctx: Ctx = {
		draft: editor.draft,
		role,
		issues: [...clientIssues, ...serverIssues],
		overrides: detail?.overrides ?? [],
		deps,
		saving,
	};
	const { draft } = editor;
	const stored = detail?.event.status;
	const setStatus = (status: EventValues['status']) =>
		void (async () => {
			setEventField('status', status);
			await saveEvent(deps);
		})();

	return (
		<form
			className="members-editor"
			aria-labelledby={headingId}
			noValidate
			onSubmit={(event) => {
				event.preventDefault();
				void saveEvent(deps);
			}}
		>
			<div className="members-editor__bar">
				<button type="button" className="admin-button admin-button--secondary" onClick={onClose}>
					Back to events
				</button>
				<h3 id={headingId}>{detail ? detail.event.name : 'New event'}</h3>
				{stored && (
					<span className={`members-status events-status--${stored}`}>{STATUS_LABELS[stored]}</span>
				)}
			</div>
			{detail && (
				<p className="admin-field__hint">
					{SOURCE_LABELS[detail.source]}
					{detail.feed && `: ${detail.feed.name || 'a calendar feed'}`}. Last changed by{' '}
					{actorLabel(detail.updatedBy)} on {formatWhen(detail.updatedAt)}.
				</p>
			)}
			{stored === 'cancelled' && (
				<p className="admin-banner admin-banner--info">
					Cancelled: it stays on the calendars marked as cancelled, and its page says so.
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

			<section className="admin-section">
				<h3>The event</h3>
				<div className="admin-grid">
					<Text ctx={ctx} field="name" max={200} />
					<Text ctx={ctx} field="summary" max={300} hint="One line for lists and search engines." />
					<Frame
						ctx={ctx}
						field="description"
						hint="HTML: paragraphs, links, lists, bold and italics are kept."
					>
						{(control) => (
							<textarea
								{...control}
								rows={6}
								maxLength={20000}
								value={draft.description}
								onChange={(e) => setEventField('description', e.target.value)}
							/>
						)}
					</Frame>
					<Select
						ctx={ctx}
						field="calendar"
						options={CALENDARS.map((c) => ({ value: c, label: CALENDAR_LABELS[c] }))}
					/>
					<Select
						ctx={ctx}
						field="status"
						options={[
							{ value: 'published', label: 'Published: on the calendars' },
							{ value: 'draft', label: 'Draft: visitors do not see it' },
							{ value: 'cancelled', label: 'Cancelled: listed as cancelled' },
						]}
					/>
					<Text
						ctx={ctx}
						field="event_type"
						max={60}
						hint="Shown as a badge; the calendars filter by it."
					/>
					<Frame ctx={ctx} field="event_type_color">
						{(control) => (
							<input
								{...control}
								type="color"
								value={
									/^#[0-9a-fA-F]{6}$/.test(draft.event_type_color)
										? draft.event_type_color
										: '#0d3e63'
								}
								onChange={(e) => setEventField('event_type_color', e.target.value)}
							/>
						)}
					</Frame>
					<Check
						ctx={ctx}
						field="featured"
						hint={
							role === 'editor'
								? 'Only an admin features an event.'
								: 'Marked as featured on its page.'
						}
					/>
					<Text
						ctx={ctx}
						field="image_url"
						max={2000}
						type="url"
						hint="An http(s) address of an image shown on its page."
					/>
				</div>
			</section>

			<section className="admin-section">
				<h3>When</h3>
				<div className="admin-grid">
					<When ctx={ctx} />
				</div>
			</section>

			<section className="admin-section">
				<h3>Where</h3>
				<div className="admin-grid">
					<Text ctx={ctx} field="venue" max={200} />
					<Text
						ctx={ctx}
						field="address1"
						max={200}
						hint="With the city, it places the map on the event's page."
					/>
					<Text ctx={ctx} field="address2" max={200} />
					<Text ctx={ctx} field="city" max={200} />
					<Text ctx={ctx} field="state" max={200} />
					<Text ctx={ctx} field="zip" max={20} />
				</div>
			</section>

			<section className="admin-section">
				<h3>Registration and tickets</h3>
				<div className="admin-grid">
					<Registration ctx={ctx} />
				</div>
			</section>

			<section className="admin-section">
				<h3>Contact and attendees</h3>
				<div className="admin-grid">
					<Text
						ctx={ctx}
						field="contact_email"
						max={254}
						type="email"
						hint="Shown as 'Questions? Email us at …'."
					/>
					<Check ctx={ctx} field="show_attendees" />
				</div>
			</section>

			{detail && <Dates ctx={ctx} dates={detail.dates} />}

			<div className="members-editor__actions">
				<button
					type="submit"
					className="admin-button admin-button--save"
					disabled={saving || (!dirty && editor.kind === 'open')}
				>
					{saving ? 'Saving...' : editor.kind === 'new' ? 'Add event' : 'Save event'}
				</button>
				{detail && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={saving || dirty}
						onClick={() => void eventAction(deps, 'duplicate')}
					>
						Duplicate
					</button>
				)}
				{detail && stored !== 'cancelled' && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={saving || dirty}
						onClick={() => setStatus('cancelled')}
					>
						Cancel event
					</button>
				)}
				{detail && stored === 'cancelled' && (
					<button
						type="button"
						className="admin-button admin-button--secondary"
						disabled={saving || dirty}
						onClick={() => setStatus('published')}
					>
						Reinstate event
					</button>
				)}
				{detail && admin && (
					<button
						type="button"
						className="admin-button admin-button--secondary members-danger"
						disabled={saving}
						onClick={() => setDeleting(true)}
					>
						Delete event
					</button>
				)}
				{detail && stored !== 'draft' && detail.dates[0] && (
					<a
						href={eventPath({ EventId: detail.dates[0].eventId, EventName: detail.event.name })}
						target="_blank"
						rel="noreferrer"
					>
						View on the site
					</a>
				)}
			</div>

			{detail && admin && <History deps={deps} id={detail.id} version={detail.version} />}

			<ConflictDialog
				conflicts={(conflict?.conflicts ?? []).map((c) => ({ ...c, label: FIELD_LABELS[c.field] }))}
				onKeepMine={(field) => void resolveConflict(deps, field, 'mine')}
				onTakeTheirs={(field) => void resolveConflict(deps, field, 'theirs')}
				formatTime={formatWhen}
			/>
			{detail && (
				<DeleteDialog
					name={detail.event.name}
					open={deleting}
					onClose={() => setDeleting(false)}
					onConfirm={() => {
						setDeleting(false);
						void eventAction(deps, 'delete');
					}}
				/>
			)}
		</form>
	);
}
