import type { ChamberConfig } from '../config/config.ts';
import { pageKind } from '../../lib/security-headers.ts';

/**
 * Google Analytics (gtag.js) on the public pages when services.googleAnalyticsId is set
 * (docs/behaviour.md#analytics). Analytics.astro renders
 * the loader; the Content-Security-Policy admits gtag's hosts on the same condition
 * (src/lib/security-headers.ts).
 */

/** gtag.js for a measurement id, from Google's own host. */
export function gtagScriptUrl(measurementId: string): string {
	return `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
}

/**
 * What the site passes to `gtag('config', id, …)`: a page view (gtag's default), and no Google
 * signals or ad personalisation (the data is used for the chamber's own statistics only).
 */
export const GTAG_CONFIG = {
	allow_google_signals: false,
	allow_ad_personalization_signals: false,
} as const;

/**
 * The measurement id a page loads analytics for, or null for none: unset, or not a public page
 * (the admin pages, the generator and the panel's preview never load it).
 */
export function analyticsIdFor(
	config: Pick<ChamberConfig, 'services'>,
	pathname: string,
): string | null {
	const id = config.services.googleAnalyticsId;
	return id && pageKind(pathname) === 'public' ? id : null;
}
