/**
 * The header's behaviour, loaded on the first interaction with the header (see Header.astro), so
 * pages ship no JavaScript up front. Self-contained on purpose: it is bundled as one standalone
 * file that wires up the header when it is imported.
 *
 * Desktop: the WAI-ARIA disclosure navigation pattern. A dropdown opens 100 ms after the pointer
 * enters it and closes 300 ms after it leaves; its button toggles it on click, Enter
 * or Space; Escape closes it and returns focus to the button; arrow keys, Home and End move
 * between the menu's items.
 *
 * Mobile: the slide-out menu is a modal <dialog> opened by its button through invoker commands,
 * so the browser already makes the page behind it inert, closes it on Escape and returns focus.
 * This adds what the platform does not: Tab wrapping inside the menu, aria-expanded on the
 * button, the fallback for browsers without invoker commands, and closing it when the window
 * grows past the breakpoint.
 */

const OPEN_DELAY_MS = 100;
const CLOSE_GRACE_MS = 300;
const DESKTOP = '(min-width: 999px)';

interface Dropdown {
	item: HTMLElement;
	button: HTMLButtonElement;
	panel: HTMLElement;
	openTimer?: ReturnType<typeof setTimeout>;
	closeTimer?: ReturnType<typeof setTimeout>;
	/** Opened by hovering: a click on the button then keeps it open instead of toggling. */
	hovered: boolean;
}

function links(panel: HTMLElement): HTMLAnchorElement[] {
	return [...panel.querySelectorAll<HTMLAnchorElement>('a[href]')];
}

function enhanceNavigation(nav: HTMLElement): void {
	const topLevel = [...nav.querySelectorAll<HTMLElement>(':scope > ul > li > :is(a, button)')];
	const dropdowns: Dropdown[] = [...nav.querySelectorAll<HTMLElement>('[data-dropdown]')].map(
		(item) => ({
			item,
			button: item.querySelector('button') as HTMLButtonElement,
			panel: item.querySelector('[data-panel]') as HTMLElement,
			hovered: false,
		}),
	);

	const clearTimers = (d: Dropdown) => {
		clearTimeout(d.openTimer);
		clearTimeout(d.closeTimer);
	};
	const setOpen = (d: Dropdown, open: boolean) => {
		clearTimers(d);
		if (open) for (const other of dropdowns) if (other !== d) setOpen(other, false);
		if (!open) d.hovered = false;
		d.panel.hidden = !open;
		d.button.setAttribute('aria-expanded', String(open));
	};
	const isOpen = (d: Dropdown) => !d.panel.hidden;

	for (const d of dropdowns) {
		d.item.addEventListener('pointerenter', (event) => {
			if (event.pointerType !== 'mouse') return;
			clearTimers(d);
			if (isOpen(d)) return;
			d.openTimer = setTimeout(() => {
				setOpen(d, true);
				d.hovered = true;
			}, OPEN_DELAY_MS);
		});
		d.item.addEventListener('pointerleave', (event) => {
			if (event.pointerType !== 'mouse') return;
			clearTimers(d);
			if (isOpen(d)) d.closeTimer = setTimeout(() => setOpen(d, false), CLOSE_GRACE_MS);
		});
		d.button.addEventListener('click', () => {
			if (d.hovered) d.hovered = false;
			else setOpen(d, !isOpen(d));
		});
		d.item.addEventListener('focusout', (event) => {
			if (!d.item.contains(event.relatedTarget as Node | null)) setOpen(d, false);
		});
		// This code loads on the first interaction: the pointer may already be over a dropdown.
		if (d.item.matches(':hover'))
			d.item.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
	}

	document.addEventListener('pointerdown', (event) => {
		for (const d of dropdowns) if (!d.item.contains(event.target as Node)) setOpen(d, false);
	});

	nav.addEventListener('keydown', (event) => {
		const target = event.target as HTMLElement;
		const inPanel = dropdowns.find((d) => d.panel.contains(target));
		const own = dropdowns.find((d) => d.button === target);
		if (event.key === 'Escape') {
			const open = inPanel ?? own;
			if (open && isOpen(open)) {
				setOpen(open, false);
				open.button.focus();
				event.preventDefault();
			}
			return;
		}
		let next: HTMLElement | undefined;
		if (inPanel) {
			const items = links(inPanel.panel);
			const at = items.indexOf(target as HTMLAnchorElement);
			if (event.key === 'ArrowDown') next = items[(at + 1) % items.length];
			else if (event.key === 'ArrowUp') next = items[(at - 1 + items.length) % items.length];
			else if (event.key === 'Home') next = items[0];
			else if (event.key === 'End') next = items.at(-1);
		} else {
			const at = topLevel.indexOf(target);
			if (at === -1) return;
			if (own && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
				setOpen(own, true);
				const items = links(own.panel);
				next = event.key === 'ArrowDown' ? items[0] : items.at(-1);
			} else if (event.key === 'ArrowRight' || event.key === 'ArrowDown') {
				next = topLevel[(at + 1) % topLevel.length];
			} else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') {
				next = topLevel[(at - 1 + topLevel.length) % topLevel.length];
			} else if (event.key === 'Home') next = topLevel[0];
			else if (event.key === 'End') next = topLevel.at(-1);
		}
		if (next) {
			event.preventDefault();
			next.focus();
		}
	});
}

function enhanceMobileMenu(toggle: HTMLButtonElement, dialog: HTMLDialogElement): void {
	const sync = () => toggle.setAttribute('aria-expanded', String(dialog.open));
	dialog.addEventListener('toggle', sync);
	dialog.addEventListener('close', sync);
	sync();

	// Browsers without invoker commands (command/commandfor) need the buttons wired up.
	if (!('command' in HTMLButtonElement.prototype)) {
		toggle.addEventListener('click', () => dialog.showModal());
		for (const close of dialog.querySelectorAll<HTMLButtonElement>('button[command="close"]')) {
			close.addEventListener('click', () => dialog.close());
		}
	}

	dialog.addEventListener('keydown', (event) => {
		if (event.key !== 'Tab') return;
		const focusable = [...dialog.querySelectorAll<HTMLElement>('a[href], button')];
		const first = focusable[0];
		const last = focusable.at(-1);
		if (event.shiftKey && document.activeElement === first) {
			event.preventDefault();
			last?.focus();
		} else if (!event.shiftKey && document.activeElement === last) {
			event.preventDefault();
			first?.focus();
		}
	});

	matchMedia(DESKTOP).addEventListener('change', (event) => {
		if (event.matches && dialog.open) dialog.close();
	});
}

function enhanceHeader(header: HTMLElement): void {
	const nav = header.querySelector<HTMLElement>('[data-site-nav]');
	if (nav) enhanceNavigation(nav);
	const toggle = header.querySelector<HTMLButtonElement>('[data-menu-toggle]');
	const dialog = header.querySelector<HTMLDialogElement>('[data-mobile-menu]');
	if (toggle && dialog) enhanceMobileMenu(toggle, dialog);
	header.dataset.enhanced = '';
}

// Runs on import: the file is bundled as a standalone script whose exports are not kept.
const header = document.getElementById('site-header');
if (header) enhanceHeader(header);
