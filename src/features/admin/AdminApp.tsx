import AdminShell from '../auth/AdminShell.tsx';
import { CAPABILITIES, can, ROLE_NAMES } from '../auth/auth.ts';
import type { PublicSupabase } from '../auth/browser.ts';

interface Props {
	supabase: PublicSupabase;
	chamber: { key: string; name: string };
}

/** /chamber-config-v2: the guarded shell and, inside it, what the signed-in role may do. */
export default function AdminApp({ supabase, chamber }: Props) {
	return (
		<AdminShell supabase={supabase} chamber={chamber} returnTo="/chamber-config-v2">
			{({ user }) => (
				<section className="admin-home">
					<h1>{chamber.name} Admin Panel</h1>
					<p>
						Signed in as {ROLE_NAMES[user.role]} of {user.tenantName}. Your role can:
					</p>
					<ul>
						{CAPABILITIES.filter((capability) => can(user.role, capability)).map((capability) => (
							<li key={capability}>{capability}</li>
						))}
					</ul>
				</section>
			)}
		</AdminShell>
	);
}
