import { atom } from 'nanostores';

/** Whether the profile's contact dialog is open. */
export const $contactOpen = atom(false);
