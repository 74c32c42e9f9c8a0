import { useSyncExternalStore } from 'react';
import type { CardBusiness, CardSettings } from '../business/business.ts';
import { BusinessCard, BusinessCardSkeleton } from '../business/BusinessCard.tsx';
import { pickFeatured } from '../directory/rules.ts';
import { withErrorBoundary } from '../site/ErrorBoundary.tsx';

const picks = new Map<string, CardBusiness[]>();

/** This visit's pick, made once: React reads a snapshot more than once per render. */
function pickOnce(candidatesId: string, count: number): CardBusiness[] {
	let picked = picks.get(candidatesId);
	if (!picked) {
		const source = document.getElementById(candidatesId)?.textContent ?? '[]';
		picked = pickFeatured(JSON.parse(source) as CardBusiness[], count);
		picks.set(candidatesId, picked);
	}
	return picked;
}

const noUpdates = () => () => {};

interface Props {
	/** How many to show (featuredBusinesses.count). */
	count: number;
	settings: CardSettings;
	/** Id of the <script type="application/json"> holding the candidates, embedded at build time. */
	candidatesId: string;
}

/**
 * The home page's featured businesses: a fresh random pick from the build's candidates on every
 * visit, two skeletons until the pick is made in the browser. The
 * candidates travel as a JSON block rather than as island props, which Astro would serialise
 * at about twice the size.
 */
function FeaturedBusinesses({ count, settings, candidatesId }: Props) {
	// The server (and hydration) render the skeletons; the browser then renders its own pick.
	const picked = useSyncExternalStore(
		noUpdates,
		() => pickOnce(candidatesId, count),
		() => null,
	);

	if (picked === null) {
		return (
			<div className="featured-grid" aria-busy="true">
				<BusinessCardSkeleton />
				<BusinessCardSkeleton />
			</div>
		);
	}
	return (
		<div className="featured-grid">
			{picked.map((business) => (
				<BusinessCard key={business.id} business={business} settings={settings} />
			))}
		</div>
	);
}

export default withErrorBoundary('FeaturedBusinesses', FeaturedBusinesses);
