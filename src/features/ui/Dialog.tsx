import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
	open: boolean;
	labelledBy: string;
	describedBy?: string;
	/**
	 * Escape or a `method="dialog"` form closed it. Without it Escape does nothing: the dialog
	 * stays until `open` turns false, for a choice the person cannot leave unmade.
	 */
	onClose?(): void;
	className?: string;
	children: ReactNode;
}

/** A modal native <dialog>: the browser traps focus, closes it on Escape and restores focus. */
export default function Dialog({
	open,
	labelledBy,
	describedBy,
	onClose,
	className = 'ops-dialog',
	children,
}: Props) {
	const ref = useRef<HTMLDialogElement>(null);
	useEffect(() => {
		const dialog = ref.current;
		if (!dialog) return;
		if (open && !dialog.open) dialog.showModal();
		if (!open && dialog.open) dialog.close();
	}, [open]);
	return (
		<dialog
			ref={ref}
			className={className}
			aria-labelledby={labelledBy}
			aria-describedby={describedBy}
			onClose={onClose}
			onCancel={onClose ? undefined : (event) => event.preventDefault()}
		>
			{open && children}
		</dialog>
	);
}
