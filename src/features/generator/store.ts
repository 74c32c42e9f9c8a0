import { atom } from 'nanostores';
import { emptyForm, setField, type GeneratorForm, type GeneratorTab } from './generator.ts';

/** The generator's form: field path → text, as the inputs hold it. */
export const $form = atom<GeneratorForm>(emptyForm());

/** The tab on show. */
export const $tab = atom<GeneratorTab['id']>('identity');

/** Sets one field, with the generator's auto-fill rules. */
export function editField(path: string, value: string): void {
	$form.set(setField($form.get(), path, value));
}
