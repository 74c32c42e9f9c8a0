/**
 * Tabler's outline icons as inline SVG: a page carries only the icons it shows, and no icon font
 * or sprite request.
 *
 * Each icon the site uses is imported on its own as text (`?raw`), so the build puts the SVG
 * into the code: rendering reads no file, which pages rendered on demand need (Netlify's function
 * bundle has no @tabler/icons package). An icon not listed here fails the build of the page that
 * asks for it; icons.server.test.ts renders every icon the configuration can ask for.
 */
import arrowLeftSvg from '@tabler/icons/outline/arrow-left.svg?raw';
import awardSvg from '@tabler/icons/outline/award.svg?raw';
import ballBaseballSvg from '@tabler/icons/outline/ball-baseball.svg?raw';
import ballFootballSvg from '@tabler/icons/outline/ball-football.svg?raw';
import barbellSvg from '@tabler/icons/outline/barbell.svg?raw';
import bedSvg from '@tabler/icons/outline/bed.svg?raw';
import boltSvg from '@tabler/icons/outline/bolt.svg?raw';
import boxSvg from '@tabler/icons/outline/box.svg?raw';
import brandFacebookSvg from '@tabler/icons/outline/brand-facebook.svg?raw';
import brandInstagramSvg from '@tabler/icons/outline/brand-instagram.svg?raw';
import brandLinkedinSvg from '@tabler/icons/outline/brand-linkedin.svg?raw';
import brandTwitterSvg from '@tabler/icons/outline/brand-twitter.svg?raw';
import brandYoutubeSvg from '@tabler/icons/outline/brand-youtube.svg?raw';
import briefcaseSvg from '@tabler/icons/outline/briefcase.svg?raw';
import buildingArchSvg from '@tabler/icons/outline/building-arch.svg?raw';
import buildingBankSvg from '@tabler/icons/outline/building-bank.svg?raw';
import buildingChurchSvg from '@tabler/icons/outline/building-church.svg?raw';
import buildingFactory2Svg from '@tabler/icons/outline/building-factory-2.svg?raw';
import buildingMonumentSvg from '@tabler/icons/outline/building-monument.svg?raw';
import buildingStoreSvg from '@tabler/icons/outline/building-store.svg?raw';
import calculatorSvg from '@tabler/icons/outline/calculator.svg?raw';
import cameraSvg from '@tabler/icons/outline/camera.svg?raw';
import carSvg from '@tabler/icons/outline/car.svg?raw';
import chevronDownSvg from '@tabler/icons/outline/chevron-down.svg?raw';
import dentalSvg from '@tabler/icons/outline/dental.svg?raw';
import deviceLaptopSvg from '@tabler/icons/outline/device-laptop.svg?raw';
import directionsSvg from '@tabler/icons/outline/directions.svg?raw';
import dropletSvg from '@tabler/icons/outline/droplet.svg?raw';
import gavelSvg from '@tabler/icons/outline/gavel.svg?raw';
import golfSvg from '@tabler/icons/outline/golf.svg?raw';
import hammerSvg from '@tabler/icons/outline/hammer.svg?raw';
import homeSvg from '@tabler/icons/outline/home.svg?raw';
import lockSvg from '@tabler/icons/outline/lock.svg?raw';
import mailSvg from '@tabler/icons/outline/mail.svg?raw';
import mapSvg from '@tabler/icons/outline/map.svg?raw';
import mapPinSvg from '@tabler/icons/outline/map-pin.svg?raw';
import masksTheaterSvg from '@tabler/icons/outline/masks-theater.svg?raw';
import menu2Svg from '@tabler/icons/outline/menu-2.svg?raw';
import musicSvg from '@tabler/icons/outline/music.svg?raw';
import newsSvg from '@tabler/icons/outline/news.svg?raw';
import pawSvg from '@tabler/icons/outline/paw.svg?raw';
import phoneSvg from '@tabler/icons/outline/phone.svg?raw';
import planeSvg from '@tabler/icons/outline/plane.svg?raw';
import playerPauseSvg from '@tabler/icons/outline/player-pause.svg?raw';
import schoolSvg from '@tabler/icons/outline/school.svg?raw';
import shareSvg from '@tabler/icons/outline/share.svg?raw';
import shieldCheckSvg from '@tabler/icons/outline/shield-check.svg?raw';
import shoppingBagSvg from '@tabler/icons/outline/shopping-bag.svg?raw';
import speakerphoneSvg from '@tabler/icons/outline/speakerphone.svg?raw';
import spraySvg from '@tabler/icons/outline/spray.svg?raw';
import stethoscopeSvg from '@tabler/icons/outline/stethoscope.svg?raw';
import toolsKitchen2Svg from '@tabler/icons/outline/tools-kitchen-2.svg?raw';
import trashSvg from '@tabler/icons/outline/trash.svg?raw';
import truckSvg from '@tabler/icons/outline/truck.svg?raw';
import usersGroupSvg from '@tabler/icons/outline/users-group.svg?raw';
import worldSvg from '@tabler/icons/outline/world.svg?raw';
import xSvg from '@tabler/icons/outline/x.svg?raw';

const SVGS: Readonly<Record<string, string>> = {
	'arrow-left': arrowLeftSvg,
	award: awardSvg,
	'ball-baseball': ballBaseballSvg,
	'ball-football': ballFootballSvg,
	barbell: barbellSvg,
	bed: bedSvg,
	bolt: boltSvg,
	box: boxSvg,
	'brand-facebook': brandFacebookSvg,
	'brand-instagram': brandInstagramSvg,
	'brand-linkedin': brandLinkedinSvg,
	'brand-twitter': brandTwitterSvg,
	'brand-youtube': brandYoutubeSvg,
	briefcase: briefcaseSvg,
	'building-arch': buildingArchSvg,
	'building-bank': buildingBankSvg,
	'building-church': buildingChurchSvg,
	'building-factory-2': buildingFactory2Svg,
	'building-monument': buildingMonumentSvg,
	'building-store': buildingStoreSvg,
	calculator: calculatorSvg,
	camera: cameraSvg,
	car: carSvg,
	'chevron-down': chevronDownSvg,
	dental: dentalSvg,
	'device-laptop': deviceLaptopSvg,
	directions: directionsSvg,
	droplet: dropletSvg,
	gavel: gavelSvg,
	golf: golfSvg,
	hammer: hammerSvg,
	home: homeSvg,
	lock: lockSvg,
	mail: mailSvg,
	map: mapSvg,
	'map-pin': mapPinSvg,
	'masks-theater': masksTheaterSvg,
	'menu-2': menu2Svg,
	music: musicSvg,
	news: newsSvg,
	paw: pawSvg,
	phone: phoneSvg,
	plane: planeSvg,
	'player-pause': playerPauseSvg,
	school: schoolSvg,
	share: shareSvg,
	'shield-check': shieldCheckSvg,
	'shopping-bag': shoppingBagSvg,
	speakerphone: speakerphoneSvg,
	spray: spraySvg,
	stethoscope: stethoscopeSvg,
	'tools-kitchen-2': toolsKitchen2Svg,
	trash: trashSvg,
	truck: truckSvg,
	'users-group': usersGroupSvg,
	world: worldSvg,
	x: xSvg,
};

const bodies = new Map<string, string>();

/** The shapes inside a Tabler SVG file, without its invisible 24x24 bounding-box path. */
function iconBody(svg: string): string {
	const open = svg.indexOf('>', svg.indexOf('<svg'));
	return svg
		.slice(open + 1, svg.lastIndexOf('</svg>'))
		.replace(/<path stroke="none" d="M0 0h24v24H0z" fill="none"\s*\/>/, '')
		.replace(/\s*\n\s*/g, '');
}

function escapeAttribute(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export interface IconOptions {
	/** Accessible name; without one the icon is decorative and hidden from assistive technology. */
	label?: string;
	/** Width and height in CSS pixels; default 24. */
	size?: number;
}

/** The SVG markup of a Tabler outline icon; throws (failing the build) for an unknown name. */
export async function iconSvg(name: string, options: IconOptions = {}): Promise<string> {
	if (!Object.hasOwn(SVGS, name)) throw new Error(`Unknown icon: ${name} (see icons.server.ts)`);
	let body = bodies.get(name);
	if (body === undefined) {
		body = iconBody(SVGS[name]!);
		bodies.set(name, body);
	}
	const size = options.size ?? 24;
	const a11y = options.label
		? `role="img" aria-label="${escapeAttribute(options.label)}"`
		: 'aria-hidden="true" focusable="false"';
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" ` +
		`fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" ` +
		`stroke-linejoin="round" ${a11y}>${body}</svg>`
	);
}
