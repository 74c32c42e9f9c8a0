import { atom } from 'nanostores';

/** The button that opened the contact dialog, null while it is closed. */
export const $contactOpener = atom<HTMLElement | null>(null);
