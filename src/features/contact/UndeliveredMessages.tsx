import { useEffect, useState } from 'react';
import { undeliveredCountSchema, undeliveredText, type UndeliveredCount } from './contact.ts';

interface Props {
	getAccessToken(): Promise<string>;
	fetch?: typeof fetch;
}

/** How often the panel asks again while it is open. */
const UNDELIVERED_POLL_MS = 60_000;

/**
 * The panel header's notice of visitors' messages not delivered yet (the mail server is down):
 * nothing while every message went out. A failed check shows nothing rather than a guess.
 */
export default function UndeliveredMessages({ getAccessToken, fetch: doFetch = fetch }: Props) {
	const [count, setCount] = useState<UndeliveredCount | null>(null);
	useEffect(() => {
		let stopped = false;
		async function check() {
			try {
				const response = await doFetch('/api/contact-undelivered', {
					headers: { Authorization: `Bearer ${await getAccessToken()}` },
				});
				if (!response.ok) return;
				const parsed = undeliveredCountSchema.safeParse(await response.json());
				if (parsed.success && !stopped) setCount(parsed.data);
			} catch {
				// Offline or signed out: the next check tries again.
			}
		}
		void check();
		const timer = setInterval(() => void check(), UNDELIVERED_POLL_MS);
		return () => {
			stopped = true;
			clearInterval(timer);
		};
	}, [getAccessToken, doFetch]);

	const text = count ? undeliveredText(count) : null;
	return (
		<p className="admin-undelivered" role="status" aria-live="polite" hidden={!text}>
			{text}
		</p>
	);
}
