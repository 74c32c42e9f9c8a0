/** What failed, as the panel tells it: read out as it appears, nothing while there is none. */
export default function ErrorBanner({ error }: { error: string | null | undefined }) {
	if (!error) return null;
	return (
		<p className="admin-banner admin-banner--error" role="alert">
			{error}
		</p>
	);
}
