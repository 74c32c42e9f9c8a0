import {
	addressLine,
	visibleBadge,
	hasAddress,
	profilePath,
	telHref,
	websiteHref,
	type CardBusiness,
	type CardSettings,
} from './business.ts';
import { formatDistance, type DistanceUnit } from '../geo/rules.ts';
import './BusinessCard.css';

interface Props {
	business: CardBusiness;
	settings: CardSettings;
	/** The search's category, carried over to the profile's breadcrumb. */
	category?: string;
	/** A distance search's unit: the card says how far the business is. */
	distanceUnit?: DistanceUnit;
}

/** Building outline, shown when a business has no logo. */
function BuildingIcon({ className }: { className?: string }) {
	return (
		<svg className={className} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
			<path
				fill="none"
				stroke="currentColor"
				strokeWidth="1.6"
				strokeLinejoin="round"
				d="M4 21V5l8-3v19M12 8l8 3v10M2 21h20M7 8h2M7 12h2M7 16h2M15 13h2M15 17h2"
			/>
		</svg>
	);
}

/**
 * A business in a listing. The name link stretches over the whole card (one link, no nested
 * interactive elements); the phone, website and profile links sit above it. Renders to static
 * HTML with no script wherever no island needs it.
 */
export function BusinessCard({ business, settings, category, distanceUnit }: Props) {
	const href = profilePath(business, category);
	const badge = visibleBadge(business, settings);
	const website = websiteHref(business);
	const description = settings.showBusinessShortDescription ? business.description : '';
	return (
		<article className="bcard" data-stat-card="" data-stat-business={business.id}>
			<div className="bcard__head">
				{business.logoUrl ? (
					<img
						className="bcard__logo logo-fallback"
						src={business.logoUrl}
						alt=""
						width={64}
						height={64}
						loading="lazy"
						decoding="async"
					/>
				) : (
					<span className="bcard__logo bcard__logo--none">
						<BuildingIcon />
					</span>
				)}
				<div className="bcard__title">
					<h3 className="bcard__name">
						<a className="bcard__link" href={href}>
							{business.name}
						</a>
					</h3>
					{badge && <span className="bcard__badge">{badge}</span>}
				</div>
			</div>
			<hr className="bcard__divider" />
			{description && <p className="bcard__description">{description}</p>}
			{hasAddress(business.address) && (
				<p className="bcard__address">{addressLine(business.address)}</p>
			)}
			{distanceUnit && business.distance !== undefined && (
				<p className="bcard__distance">{formatDistance(business.distance, distanceUnit)} away</p>
			)}
			{business.phone && (
				<a className="bcard__phone bcard__above" href={telHref(business.phone)} data-stat="phone">
					{business.phone}
				</a>
			)}
			<div className="bcard__actions">
				{website && (
					<a
						className="bcard__button bcard__above"
						href={website}
						data-stat="website"
						target="_blank"
						rel="noopener noreferrer"
					>
						Visit Website
						<span className="sr-only"> of {business.name} (opens in a new tab)</span>
					</a>
				)}
				<a className="bcard__button bcard__button--primary bcard__above" href={href}>
					View Profile<span className="sr-only"> of {business.name}</span>
				</a>
			</div>
		</article>
	);
}

/** Placeholder with the card's shape while a page of results loads. */
export function BusinessCardSkeleton() {
	return (
		<div className="bcard bcard--skeleton" aria-hidden="true">
			<div className="bcard__head">
				<span className="bcard__logo bcard__bone" />
				<div className="bcard__title">
					<span className="bcard__bone bcard__bone--name" />
					<span className="bcard__bone bcard__bone--badge" />
				</div>
			</div>
			<hr className="bcard__divider" />
			<span className="bcard__bone bcard__bone--line" />
			<span className="bcard__bone bcard__bone--short" />
		</div>
	);
}
