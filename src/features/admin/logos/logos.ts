// The Logos tab and POST /api/upload-logo (docs/behaviour.md#logos): which files each
// logo accepts, the limits and the texts. Pure logic, shared by the function, the tab and tests.

export const LOGO_TYPES = ['standard', 'stacked', 'favicon'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** The upload's headings in the tab. */
export const LOGO_LABELS: Readonly<Record<LogoType, string>> = {
	standard: 'Standard Logo',
	stacked: 'Stacked Logo (Mobile)',
	favicon: 'Favicon',
};

/** The image types, as read from the file's bytes (never from its name). */
export const LOGO_MIME_TYPES = {
	png: 'image/png',
	jpg: 'image/jpeg',
	svg: 'image/svg+xml',
	webp: 'image/webp',
	ico: 'image/x-icon',
} as const;
export type LogoFormat = keyof typeof LOGO_MIME_TYPES;

/** Standard and stacked take PNG, SVG, JPEG, WebP; the favicon ICO, PNG, WebP. */
export const LOGO_FORMATS: Readonly<Record<LogoType, readonly LogoFormat[]>> = {
	standard: ['png', 'svg', 'jpg', 'webp'],
	stacked: ['png', 'svg', 'jpg', 'webp'],
	favicon: ['ico', 'png', 'webp'],
};

/** The file inputs' `accept` (a hint for the file picker; the server reads the bytes). */
export function acceptFor(type: LogoType): string {
	const extensions: Record<LogoFormat, string> = {
		png: '.png',
		jpg: '.jpg,.jpeg',
		svg: '.svg',
		webp: '.webp',
		ico: '.ico',
	};
	return LOGO_FORMATS[type]
		.map((format) => `${LOGO_MIME_TYPES[format]},${extensions[format]}`)
		.join(',');
}

/** 5 MB, as bytes. */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;

export const LOGO_TOO_LARGE = 'File size must be under 5MB';
export const LOGO_WRONG_TYPE = 'Invalid file type. Use PNG, JPG, SVG, WebP, or ICO';
export const LOGO_UPLOAD_FAILED = 'Failed to upload logo';
/** How long after a successful upload the tab clears its state. */
export const LOGO_CLEAR_MS = 1_000;

/** The object's name: the chamber's folder, the type, and a new name per upload. */
export function logoObjectName(tenantId: string, type: LogoType, format: LogoFormat, id: string) {
	return `${tenantId}/${type}-${id}.${format}`;
}

/** A business's logo (the Members tab): in the chamber's folder too, a new name per upload. */
export function businessLogoObjectName(
	tenantId: string,
	businessId: string,
	format: LogoFormat,
	id: string,
) {
	return `${tenantId}/businesses/${businessId}-${id}.${format}`;
}
