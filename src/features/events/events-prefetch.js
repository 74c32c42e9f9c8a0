// The calendar's first events request, started by the page itself while the island's script is
// still on its way (EventsPrefetch.astro). It asks what the island would ask first, the same two
// calls as fetchEvents in store.ts (the cache version, then the events of prefetchRange(today)),
// and leaves both answers in window.chamberEventsPrefetch for the island to pick up by URL.
(() => {
	const { path, type, months } = document.currentScript.dataset;
	const now = new Date();
	const pad = (n) => String(n).padStart(2, '0');
	const day = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
	// date-fns' addMonths: the same day of the month, or the month's last day where it has none.
	const shift = (n) => {
		const d = new Date(now.getFullYear(), now.getMonth() + n, 1);
		const last = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
		d.setDate(Math.min(now.getDate(), last));
		return day(d);
	};
	const version = fetch(`/api/cache-version?type=${encodeURIComponent(type)}`)
		.then((res) => (res.ok ? res.json() : {}))
		.then(
			(body) => (typeof body.version === 'number' ? body.version : undefined),
			() => undefined,
		);
	const answer = version.then((v) => {
		const params = new URLSearchParams();
		if (v !== undefined) params.set('v', String(v));
		params.set('startDate', shift(-Number(months)));
		params.set('endDate', shift(Number(months)));
		const url = `${path}?${params}`;
		const body = fetch(url)
			.then((res) => (res.ok ? res.json() : null))
			.catch(() => null);
		return { url, body };
	});
	window.chamberEventsPrefetch = { path, type, version, answer };
})();
