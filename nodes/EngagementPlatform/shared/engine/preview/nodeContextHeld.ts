import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * Holds the node's context as it is, for a preview: reading an item may write there (a transactional
 * email's count of identical emails, the External Send IDs given in this execution), so that the preview
 * derives what a real run would; the returned function puts every key back as it was, and n8n saves
 * the context untouched.
 */
export function holdNodeContext(context: IExecuteFunctions): () => void {
	const store = context.getContext('node') as IDataObject;
	const before = structuredClone(store);
	return () => {
		for (const key of Object.keys(store)) delete store[key];
		Object.assign(store, before);
	};
}
