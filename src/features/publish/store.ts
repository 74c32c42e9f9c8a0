import { atom, type ReadableAtom } from 'nanostores';
import type { BudgetRefusal, PublishUsage, WaitingChange } from './policy.ts';
import { isActive, POLL_ACTIVE_MS, POLL_IDLE_MS, type PublishView } from './publish.ts';
import type { ScheduledView } from './schedule.ts';

/**
 * The panel's view of publishing: the newest publishes, polled every few seconds while a build
 * is queued or running and rarely otherwise, plus 'Retry'. A save elsewhere in the panel calls
 * publishRequested() so the status follows its build at once.
 */

interface PublishStatusState {
	/** Newest first; empty before the first answer. */
	publishes: PublishView[];
	/** What is scheduled (soonest first), then what went live, failed or was cancelled lately. */
	scheduled: ScheduledView[];
	/** The month's publishes against the budget (null before the first answer). */
	usage: PublishUsage | null;
	/** Changes waiting for a publish, soonest first. */
	waiting: WaitingChange[];
	loaded: boolean;
	/** Why the last check failed (the previous publishes stay shown). */
	error: string | null;
	retrying: boolean;
}

export interface PublishStatusDeps {
	getAccessToken(): Promise<string>;
	fetch?: typeof fetch;
	setTimeout?: (fn: () => void, ms: number) => unknown;
	clearTimeout?: (handle: unknown) => void;
}

export interface PublishStatusStore {
	$state: ReadableAtom<PublishStatusState>;
	start(): void;
	stop(): void;
	/** Checks now (and polls on from there). */
	refresh(): Promise<void>;
	/** POST /api/publish: a new build (or the queued one). */
	retry(): Promise<void>;
	/**
	 * 'Publish now': a build that takes every waiting change; at the month's budget the answer
	 * asks for a confirmation first ($confirmation).
	 */
	publishNow(): Promise<void>;
	/** The person confirmed the cost: the publish the confirmation was for, with confirm. */
	confirm(): Promise<void>;
	/** Cancel of a scheduled publish (DELETE /api/publish-schedule?id=). */
	cancel(id: number): Promise<void>;
}

const kick = atom(0);

/** Any change the panel saved asks for a publish: every status on the page looks at once. */
export function publishRequested(): void {
	kick.set(kick.get() + 1);
}

/** A publish the month's budget has no room for, waiting for the person to confirm its cost. */
export type PendingConfirmation = BudgetRefusal & { reason: string };

/** The confirmation the panel shows (one at a time, whoever asked: a save, 'Publish now'). */
export const $confirmation = atom<PendingConfirmation | null>(null);

/** A publish was refused at the budget: ask the person (the header shows the dialog). */
export function publishNeedsConfirmation(refusal: PendingConfirmation): void {
	$confirmation.set(refusal);
}

async function readError(response: Response, fallback: string): Promise<string> {
	const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
	return typeof body?.error === 'string' ? body.error : fallback;
}

export function createPublishStatusStore(deps: PublishStatusDeps): PublishStatusStore {
	const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
	const schedule = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
	const unschedule = deps.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
	const $state = atom<PublishStatusState>({
		publishes: [],
		scheduled: [],
		usage: null,
		waiting: [],
		loaded: false,
		error: null,
		retrying: false,
	});
	let timer: unknown = null;
	let running = false;
	let unsubscribe: (() => void) | null = null;
	/** Answers of an older check that arrive after a newer one are dropped. */
	let sequence = 0;

	function plan(): void {
		if (timer !== null) unschedule(timer);
		timer = null;
		if (!running) return;
		const active = $state.get().publishes.some((p) => isActive(p.state));
		timer = schedule(() => void refresh(), active ? POLL_ACTIVE_MS : POLL_IDLE_MS);
	}

	async function authorized(path: string, init: RequestInit = {}): Promise<Response> {
		const token = await deps.getAccessToken();
		return doFetch(path, {
			...init,
			headers: { ...init.headers, Authorization: `Bearer ${token}` },
		});
	}

	async function refresh(): Promise<void> {
		const mine = ++sequence;
		try {
			const response = await authorized('/api/publish-status');
			if (!response.ok) throw new Error(await readError(response, 'Could not check publishing'));
			const body = (await response.json()) as {
				publishes: PublishView[];
				scheduled?: ScheduledView[];
				usage?: PublishUsage;
				waiting?: WaitingChange[];
			};
			if (mine !== sequence) return;
			$state.set({
				...$state.get(),
				publishes: body.publishes,
				scheduled: body.scheduled ?? [],
				usage: body.usage ?? null,
				waiting: body.waiting ?? [],
				loaded: true,
				error: null,
			});
		} catch (error) {
			if (mine !== sequence) return;
			const message = error instanceof Error ? error.message : 'Could not check publishing';
			$state.set({ ...$state.get(), loaded: true, error: message });
		}
		plan();
	}

	async function publish(reason: string, confirm = false): Promise<void> {
		$state.set({ ...$state.get(), retrying: true });
		try {
			const response = await authorized('/api/publish', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ reason, ...(confirm ? { confirm: true } : {}) }),
			});
			const refusal =
				response.status === 409
					? ((await response.json().catch(() => null)) as BudgetRefusal | null)
					: null;
			if (refusal?.budget) publishNeedsConfirmation({ ...refusal, reason });
			else {
				if (!response.ok) {
					throw new Error(await readError(response, 'Could not start publishing'));
				}
				const body = (await response.json()) as { publish: PublishView };
				const others = $state.get().publishes.filter((p) => p.id !== body.publish.id);
				$state.set({ ...$state.get(), publishes: [body.publish, ...others], error: null });
			}
		} catch (error) {
			const message = error instanceof Error ? error.message : 'Could not start publishing';
			$state.set({ ...$state.get(), error: message });
		} finally {
			$state.set({ ...$state.get(), retrying: false });
		}
		await refresh();
	}

	async function cancelScheduled(id: number): Promise<void> {
		try {
			const response = await authorized(`/api/publish-schedule?id=${id}`, { method: 'DELETE' });
			if (!response.ok) throw new Error(await readError(response, 'Could not cancel it'));
		} catch (error) {
			const message = error instanceof Error ? error.message : 'Could not cancel it';
			$state.set({ ...$state.get(), error: message });
		}
		await refresh();
	}

	/** 'Retry' after a failed build. */
	const retry = () => publish('Retry');

	return {
		$state,
		cancel: cancelScheduled,
		publishNow: () => publish('Publish now'),
		async confirm() {
			const pending = $confirmation.get();
			$confirmation.set(null);
			if (pending) await publish(pending.reason, true);
		},
		start() {
			if (running) return;
			running = true;
			unsubscribe = kick.listen(() => void refresh());
			void refresh();
		},
		stop() {
			running = false;
			unsubscribe?.();
			unsubscribe = null;
			plan();
		},
		refresh,
		retry,
	};
}
