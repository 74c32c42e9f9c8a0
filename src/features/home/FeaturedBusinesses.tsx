import { useEffect, useState } from 'react';
import type { CardBusiness, CardSettings } from '../business/business.ts';
import { BusinessCard, BusinessCardSkeleton } from '../business/BusinessCard.tsx';

/**
 * pickFeatured of directory.ts (Fisher-Yates, then the first `count`), restated because
 * directory.ts also holds zod schemas that would triple this island's size.
 * TODO(dir-data): import it once it lives in a zod-free module.
 */
function pick<T>(candidates: readonly T[], count: number): T[] {
	const pool = [...candidates];
	for (let i = pool.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1));
		[pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
	}
	return pool.slice(0, count);
}

interface Props {
	/** How many to show (featuredBusinesses.count). */
	count: number;
	settings: CardSettings;
	/** Id of the <script type="application/json"> holding the candidates, embedded at build time. */
	candidatesId: string;
}

/**
 * The home page's featured businesses: a fresh random pick from the build's candidates on every
 * visit (spec 01 §2 Home, §9), two skeletons until the pick is made in the browser. The
 * candidates travel as a JSON block rather than as island props, which Astro would serialise
 * at about twice the size.
 */
export default function FeaturedBusinesses({ count, settings, candidatesId }: Props) {
	const [picked, setPicked] = useState<CardBusiness[] | null>(null);

	useEffect(() => {
		const source = document.getElementById(candidatesId)?.textContent ?? '[]';
		setPicked(pick(JSON.parse(source) as CardBusiness[], count));
	}, [candidatesId, count]);

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
