import { roundPosition, type Position } from './position.ts';

/**
 * 'Near me' on the search page: the visitor's position, asked of the browser only now that the
 * visitor pressed the button, and rounded before anything else sees it, with the sentence that
 * says what becomes of it; or the sentence that says why the list stays as it was. Built as one
 * small file of its own (`?worker&url`, src/pages/search.astro) that the page imports on the
 * press: the list's script carries none of it. Such a file keeps no exports, so the page then
 * asks by the `search:locate` event, whose detail is the function that takes the answer.
 */

const NEAR_ME_NOTES = {
	found: 'Your position, rounded, goes with this search only and is kept nowhere.',
	refused:
		'Your browser did not share your location, so the list is as it was. To search near you, allow this site to use your location and press Near me again.',
	unavailable:
		'Your location could not be found just now, so the list is as it was. Try Near me again in a moment.',
	unsupported: 'This browser cannot share a location, so the list is as it was.',
} as const;

/** What Near me found: a position (rounded) and what becomes of it, or only why not. */
export interface Located {
	position?: Position;
	note: string;
}

function locate(): Promise<Located> {
	return new Promise((resolve) => {
		if (!navigator.geolocation) {
			resolve({ note: NEAR_ME_NOTES.unsupported });
			return;
		}
		navigator.geolocation.getCurrentPosition(
			({ coords }) => resolve({ position: roundPosition(coords), note: NEAR_ME_NOTES.found }),
			(error) =>
				resolve({
					note:
						error.code === error.PERMISSION_DENIED
							? NEAR_ME_NOTES.refused
							: NEAR_ME_NOTES.unavailable,
				}),
			{ enableHighAccuracy: false, timeout: 15_000, maximumAge: 300_000 },
		);
	});
}

document.addEventListener('search:locate', (event) => {
	void locate().then((event as CustomEvent<(found: Located) => void>).detail);
});
