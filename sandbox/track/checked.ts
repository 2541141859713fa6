/** The result of reading one object of a /users/track array: a value, or the reason it was refused. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export function accept<T>(value: T): Checked<T> {
	return { ok: true, value };
}

export function refuse<T = never>(error: string): Checked<T> {
	return { ok: false, error };
}

export type InputArray = 'attributes' | 'events' | 'purchases';
