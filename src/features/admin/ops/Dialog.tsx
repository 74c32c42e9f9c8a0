import { useEffect, useRef, type ReactNode } from 'react';

/** A modal native <dialog>: the browser traps focus, closes it on Escape and restores focus. */
export default function Dialog({
	open,
	labelledBy,
	onClose,
	children,
}: {
	open: boolean;
	labelledBy: string;
	onClose(): void;
	children: ReactNode;
}) {
	const ref = useRef<HTMLDialogElement>(null);
	useEffect(() => {
		const dialog = ref.current;
		if (!dialog) return;
		if (open && !dialog.open) dialog.showModal();
		if (!open && dialog.open) dialog.close();
	}, [open]);
	return (
		<dialog ref={ref} className="ops-dialog" aria-labelledby={labelledBy} onClose={onClose}>
			{open && children}
		</dialog>
	);
}
