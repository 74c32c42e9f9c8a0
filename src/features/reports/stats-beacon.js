(() => {
	const n = navigator;
	const d = document;
	let staff;
	try {
		staff = localStorage.getItem('chamber-admin-user');
	} catch {
		// Storage switched off.
	}
	if (n.globalPrivacyControl || n.doNotTrack == '1' || window.doNotTrack == '1' || staff) return;
	const queue = [];
	const seen = {};
	let timer;
	const send = () => {
		clearTimeout(timer);
		while (queue.length)
			n.sendBeacon('/api/stats', JSON.stringify({ events: queue.splice(0, 50) }));
	};
	const add = (kind, business, words) => {
		if (kind && business) queue.push(words ? { kind, business, words } : { kind, business });
		clearTimeout(timer);
		timer = setTimeout(send, 1000);
	};
	const on = (target, type, listener, capture) => target.addEventListener(type, listener, capture);
	on(
		d,
		'click',
		(event) => {
			const target = event.target.closest?.('[data-stat]');
			add(target?.dataset.stat, target?.closest('[data-stat-business]')?.dataset.statBusiness);
			send();
		},
		true,
	);
	on(d, 'chamber:stat', (event) => {
		add(event.detail.kind, event.detail.business);
		send();
	});
	on(window, 'pagehide', send);
	on(d, 'visibilitychange', () => d.hidden && send());
	const start = () => {
		const profile = d.querySelector('[data-stat-view]');
		const from = d.referrer;
		const words = from.startsWith(`${location.origin}/search?`)
			? new URL(from).searchParams.get('q')?.trim()
			: '';
		add('view', profile?.dataset.statBusiness, words);
		const cards = new IntersectionObserver((entries) => {
			for (const { isIntersecting, target } of entries) {
				const id = target.dataset.statBusiness;
				if (isIntersecting && !seen[id]) {
					seen[id] = 1;
					add('shown', id);
					cards.unobserve(target);
				}
			}
		});
		const watch = () => {
			for (const card of d.querySelectorAll('[data-stat-card]')) {
				if (!seen[card.dataset.statBusiness]) cards.observe(card);
			}
		};
		watch();
		new MutationObserver(watch).observe(d.body, { childList: true, subtree: true });
	};
	const idle = () =>
		window.requestIdleCallback
			? requestIdleCallback(start, { timeout: 5000 })
			: setTimeout(start, 2000);
	if (d.readyState == 'complete') idle();
	else on(window, 'load', idle);
})();
