import { format } from 'date-fns/format';
import { useId } from 'react';
import Dialog from '../ui/Dialog.tsx';
import type { EditConflict } from './conflicts.ts';
import './conflicts.css';

/** A conflict as the dialog shows it: theirs (who, when) against this person's value. */
interface ConflictChoice extends EditConflict {
	/** This person's value. */
	mine: unknown;
	/** How the field is named to people; the field's path when left out. */
	label?: string;
}

interface Props {
	conflicts: readonly ConflictChoice[];
	/** Keep this person's value for the field (it is saved over theirs). */
	onKeepMine(field: string): void;
	/** Take the other person's value for the field. */
	onTakeTheirs(field: string): void;
	/** 'Nov 3, 2026 14:32' by default (the browser's time). */
	formatTime?(iso: string): string;
	/** Text as it is, anything else as compact JSON by default. */
	formatValue?(value: unknown): string;
}

function describe(value: unknown): string {
	if (value === undefined || value === null || value === '') return '(empty)';
	if (typeof value === 'string') return value;
	return JSON.stringify(value);
}

/**
 * 'Someone else changed this meanwhile': a modal dialog listing each field another person saved
 * after this one's version, both values side by side, with Keep mine / Take theirs for each. It
 * closes once every field is decided; nothing is overwritten before that (Escape does not close
 * it). Serves every versioned save (configuration, member listings).
 */
export default function ConflictDialog({
	conflicts,
	onKeepMine,
	onTakeTheirs,
	formatTime = (iso) => format(new Date(iso), 'MMM d, yyyy HH:mm'),
	formatValue = describe,
}: Props) {
	const ids = useId();
	return (
		<Dialog
			open={conflicts.length > 0}
			className="conflict-dialog"
			labelledBy={`${ids}-title`}
			describedBy={`${ids}-intro`}
		>
			<h2 id={`${ids}-title`} className="conflict-dialog__title">
				Someone else changed this meanwhile
			</h2>
			<p id={`${ids}-intro`}>
				{conflicts.length === 1
					? 'This field was saved by someone else after you opened it.'
					: `These ${conflicts.length} fields were saved by someone else after you opened them.`}{' '}
				Keep your value or take theirs; nothing is overwritten until you choose.
			</p>
			<ul className="conflict-dialog__list">
				{conflicts.map((conflict, index) => {
					const name = conflict.label ?? conflict.field;
					const heading = `${ids}-field-${index}`;
					return (
						<li key={conflict.field}>
							<section role="group" aria-labelledby={heading} className="conflict-dialog__item">
								<h3 id={heading} className="conflict-dialog__field">
									{name}
								</h3>
								<dl className="conflict-dialog__values">
									<div>
										<dt>Yours</dt>
										<dd>{formatValue(conflict.mine)}</dd>
									</div>
									<div>
										<dt>
											Theirs, saved by {conflict.changedBy ?? 'someone'} on{' '}
											<time dateTime={conflict.changedAt}>{formatTime(conflict.changedAt)}</time>
										</dt>
										<dd>{formatValue(conflict.value)}</dd>
									</div>
								</dl>
								<div className="conflict-dialog__actions">
									<button
										type="button"
										className="admin-button"
										onClick={() => onKeepMine(conflict.field)}
									>
										Keep mine
									</button>
									<button
										type="button"
										className="admin-button admin-button--secondary"
										onClick={() => onTakeTheirs(conflict.field)}
									>
										Take theirs
									</button>
								</div>
							</section>
						</li>
					);
				})}
			</ul>
		</Dialog>
	);
}
