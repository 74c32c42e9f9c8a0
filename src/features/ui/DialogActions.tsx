import type { ReactNode } from 'react';

/**
 * A dialog's last row: why its action failed (read out as it appears), Cancel, and the action
 * itself (`children`). Without `error` the dialog has no failure to tell.
 */
export default function DialogActions({
	error,
	onCancel,
	children,
}: {
	error?: string | null;
	onCancel(): void;
	children: ReactNode;
}) {
	return (
		<>
			{error !== undefined && (
				<div role="alert">
					{error && <p className="admin-banner admin-banner--error">{error}</p>}
				</div>
			)}
			<div className="ops-dialog__actions">
				<button type="button" className="admin-button admin-button--secondary" onClick={onCancel}>
					Cancel
				</button>
				{children}
			</div>
		</>
	);
}
