import { useStore } from '@nanostores/react';
import { useEffect, useMemo } from 'react';
import BudgetConfirm from './BudgetConfirm.tsx';
import { budgetNote, monthText } from './policy.ts';
import { publishStatus } from './publish.ts';
import ScheduledList from './ScheduledList.tsx';
import WaitingList from './WaitingList.tsx';
import { createPublishStatusStore, type PublishStatusDeps } from './store.ts';
import './publish.css';

interface Props extends PublishStatusDeps {
	/** The public site (default this site's home page). */
	siteUrl?: string;
	/** The clock for 'Live since' (tests). */
	now?: () => Date;
	/** The chamber's time zone, in which scheduled times are shown. */
	timeZone?: string;
}

/**
 * The publish status of the panel's header: 'Publishing…' while a build is queued or
 * running (checked every few seconds), 'Live since 14:32' with 'View live site', or 'Publish
 * failed: {reason}' with 'Retry'. The text is a polite live region, so screen readers hear when
 * a publish goes live or fails. Below it, what is scheduled to go live, by whom, with Cancel, and
 * a scheduled publish that failed in the last day; the month's publishes against the budget
 * ('Publishes this month: 12 of 40', with the warning from 80 %); the changes waiting for a
 * publish, with 'Publish now'; and the confirmation a publish past the budget asks for.
 */
export default function PublishStatus({
	siteUrl = '/',
	now = () => new Date(),
	timeZone = 'America/New_York',
	...deps
}: Props) {
	// One store per mount; the dependencies of a mounted status do not change.
	// eslint-disable-next-line react-hooks/exhaustive-deps
	const store = useMemo(() => createPublishStatusStore(deps), []);
	const state = useStore(store.$state);
	useEffect(() => {
		store.start();
		return () => store.stop();
	}, [store]);

	const view = publishStatus(state.publishes, now());
	let text: string;
	if (!state.loaded) text = 'Checking publishing…';
	else if (view.kind === 'none') text = 'Live';
	else text = view.text;

	return (
		<div className={`publish-status publish-status--${state.loaded ? view.kind : 'loading'}`}>
			{view.kind === 'publishing' && (
				<span className="publish-status__spinner" aria-hidden="true" />
			)}
			<p className="publish-status__text" role="status" aria-live="polite">
				{text}
				{view.kind === 'publishing' && <span className="sr-only"> {view.detail}</span>}
			</p>
			{state.loaded && (view.kind === 'live' || view.kind === 'none') && (
				<a className="publish-status__link" href={siteUrl} target="_blank" rel="noopener">
					View live site
				</a>
			)}
			{view.kind === 'failed' && (
				<button
					type="button"
					className="publish-status__retry"
					disabled={state.retrying}
					onClick={() => void store.retry()}
				>
					{state.retrying ? 'Retrying…' : 'Retry'}
				</button>
			)}
			{state.error && (
				<p className="publish-status__error" role="alert">
					{state.error}
				</p>
			)}
			<ScheduledList
				scheduled={state.scheduled.filter((s) => s.state === 'scheduled' || s.state === 'failed')}
				timeZone={timeZone}
				onCancel={(id) => store.cancel(id)}
				compact
			/>
			{state.usage && (
				<p
					className={`publish-status__month${state.usage.used >= state.usage.warnAt ? ' publish-status__month--warning' : ''}`}
				>
					{monthText(state.usage)}
					{budgetNote(state.usage) && <span> {budgetNote(state.usage)}</span>}
				</p>
			)}
			{state.waiting.length > 0 && (
				<>
					<WaitingList waiting={state.waiting} timeZone={timeZone} now={now()} compact />
					<button
						type="button"
						className="publish-status__retry publish-status__publish"
						disabled={state.retrying || view.kind === 'publishing'}
						onClick={() => void store.publishNow()}
					>
						Publish now
					</button>
				</>
			)}
			<BudgetConfirm onConfirm={() => store.confirm()} />
		</div>
	);
}
