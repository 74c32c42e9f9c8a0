/**
 * The banner carousel's behaviour: the next banner every 5 seconds, wrapping around; dots jump
 * to a banner. Rotation stops while the pointer or focus is on the carousel, after the visitor
 * presses Pause, and altogether when they prefer reduced motion (WCAG 2.2.2).
 */
/** Banner rotation 5 seconds. */
const ROTATE_MS = 5000;

function enhance(root: HTMLElement): void {
	const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
	const dots = [...root.querySelectorAll<HTMLButtonElement>('[data-dot]')];
	const pause = root.querySelector<HTMLButtonElement>('[data-pause]');
	const live = root.querySelector<HTMLElement>('[data-slides]');
	if (slides.length < 2) return;

	const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
	const holds = new Set<string>();
	let index = 0;
	let timer: ReturnType<typeof setInterval> | undefined;

	const show = (next: number) => {
		index = (next + slides.length) % slides.length;
		slides.forEach((slide, i) => (slide.hidden = i !== index));
		dots.forEach((dot, i) => dot.setAttribute('aria-current', String(i === index)));
	};
	const update = () => {
		clearInterval(timer);
		timer = undefined;
		const rotating = holds.size === 0 && !reducedMotion.matches;
		if (rotating) timer = setInterval(() => show(index + 1), ROTATE_MS);
		// Announce banner changes only when they come from the visitor, not from the timer.
		live?.setAttribute('aria-live', rotating ? 'off' : 'polite');
	};
	const hold = (reason: string, on: boolean) => {
		if (on) holds.add(reason);
		else holds.delete(reason);
		update();
	};

	dots.forEach((dot, i) =>
		dot.addEventListener('click', () => {
			show(i);
			update();
		}),
	);
	pause?.addEventListener('click', () => {
		const paused = !holds.has('button');
		hold('button', paused);
		pause.setAttribute('aria-pressed', String(paused));
	});
	root.addEventListener('pointerenter', () => hold('pointer', true));
	root.addEventListener('pointerleave', () => hold('pointer', false));
	root.addEventListener('focusin', () => hold('focus', true));
	root.addEventListener('focusout', (event) => {
		if (!root.contains(event.relatedTarget as Node | null)) hold('focus', false);
	});
	reducedMotion.addEventListener('change', update);
	update();
	root.setAttribute('data-enhanced', '');
	// The last click made before this module ran (noted by BannerCarousel.astro's inline script).
	const early = root.querySelector<HTMLButtonElement>('[data-early-click]');
	early?.removeAttribute('data-early-click');
	early?.click();
}

for (const root of document.querySelectorAll<HTMLElement>('[data-carousel]')) enhance(root);
