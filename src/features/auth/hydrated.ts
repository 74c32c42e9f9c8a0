import { useEffect, useState } from 'react';

/**
 * False in the server-rendered HTML, true once React runs in the browser. The admin forms keep
 * their controls disabled until then: a submit before hydration would send the browser's own GET
 * with the password in the address.
 */
export function useHydrated(): boolean {
	const [hydrated, setHydrated] = useState(false);
	useEffect(() => setHydrated(true), []);
	return hydrated;
}
